import { z } from 'zod';
import { GameManifest } from './schema/manifest';

/**
 * A game's own decisions module (games/<id>/decisions.ts, gym/actions/README.md): the action set
 * kinds it adds to the preset's keys, and its bundle for pages (the in-page trainer loads it).
 */
export const CatalogDecisions = z.strictObject({
  /** Its bundle's path under the site root, e.g. /games/tetris/decisions.js. */
  script: z.string(),
  /** ActionSet kinds it plans as macro decisions (e.g. "placement"). */
  planners: z.array(z.string()),
  /** ActionSet kinds it observes as afterstates ("preset": the preset's own keys). */
  afterstates: z.array(z.string()),
});
export type CatalogDecisions = z.infer<typeof CatalogDecisions>;

/** One built game as listed in public/games/catalog.json, written by gym/build/build-games.ts. */
export const CatalogEntry = z.strictObject({
  manifest: GameManifest,
  verifierChecksum: z.string().regex(/^[0-9a-f]{64}$/),
  /** Path of the verifier bundle under public/, e.g. /verifiers/snake.js. */
  verifierPath: z.string(),
  /** sha256 of the game's built script(s): changes whenever the game build changes. */
  buildChecksum: z.string().regex(/^[0-9a-f]{64}$/),
  featureNames: z.array(z.string()),
  /** The verifier defines an action mask: steps' infos carry `actionMask` (verifiers/define.ts). */
  actionMask: z.boolean().default(false),
  /** Where the game's files are served from, relative to the site root. */
  basePath: z.string(),
  /** Absolute URL of the entry page, for a game served from elsewhere (`arcade-gym add-game <url>`). */
  url: z.url({ protocol: /^https?$/ }).optional(),
  /** Present for games with their own action sets (games/<id>/decisions.ts): how the gym finds them. */
  decisions: CatalogDecisions.optional(),
  /** Present for third-party games registered with `arcade-gym add-game` (games-external/<id>/). */
  external: z.strictObject({ kind: z.enum(['folder', 'url']), source: z.string() }).optional(),
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;

export const Catalog = z.strictObject({
  runtimeVersion: z.string(),
  runtimeChecksum: z.string(),
  games: z.array(CatalogEntry),
});
export type Catalog = z.infer<typeof Catalog>;
