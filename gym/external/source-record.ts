import { z } from 'zod';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a hex sha256');

/**
 * games-external/<id>/source.json: where a third-party game came from, written by
 * `arcade-gym add-game`. The build refuses a folder game whose files no longer match.
 */
export const ExternalSource = z.strictObject({
  schemaVersion: z.literal(1),
  id: z.string(),
  source: z.discriminatedUnion('kind', [
    /**
     * Copied into game/ from a folder. `from` is that folder relative to the checkout, or only
     * its name when it lay outside; `origin` is where its files can be fetched (an http(s) URL),
     * when the user said. Never an absolute path: one machine's folder reproduces nothing.
     */
    z.strictObject({
      kind: z.literal('folder'),
      from: z.string().refine((p) => !/^([\\/]|[A-Za-z]:)/.test(p), 'a folder relative to the checkout, never an absolute path (register the game again)'),
      origin: z.url({ protocol: /^https?$/ }).optional(),
    }),
    /** Served from its own URL; the entry page's sha256 is what was fetched when it was added. */
    z.strictObject({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/ }), entrySha256: Sha256 }),
  ]),
  /** sha256 of every file under game/, by '/'-separated path (folder games; empty for URL games). */
  files: z.record(z.string(), Sha256),
});
export type ExternalSource = z.infer<typeof ExternalSource>;
