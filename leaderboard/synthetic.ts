/**
 * Synthetic games and schema-valid episode records, for the database tests and bench/db.ts:
 * storage and ranking do not need real games, and these make the expected numbers exact.
 * Never used by the server (it only stores records it replayed or ran itself).
 */
import { randomBytes } from 'node:crypto';
import { type Catalog, type CatalogEntry, GameManifest, SCHEMA_VERSION, type EpisodeRecord } from '../gym/schema';
import { tickets } from '../drizzle/schema';
import type { Db } from './db';

/** A catalog entry for a game that exists only in tests and benchmarks. */
export function fakeGame(id: string, opts: { human: number; suites?: string[]; stepBudget?: number; version?: string }): CatalogEntry {
  return {
    manifest: GameManifest.parse({
      id,
      title: id.toUpperCase(),
      version: opts.version ?? '1.0.0',
      description: 'test game',
      controls: 'none',
      renderer: '2d',
      canvas: { width: 100, height: 100 },
      stepBudget: opts.stepBudget ?? 100,
      msPerStep: 100,
      preset: [{ name: 'wait', action: { type: 'wait' } }],
      humanReference: { score: opts.human, status: 'provisional', provenance: `Provisional: estimated for ${id}`, stepBudget: opts.stepBudget ?? 100 },
      suites: opts.suites ?? ['core'],
    }),
    verifierChecksum: id
      .padEnd(64, '0')
      .replace(/[^0-9a-f]/g, 'a')
      .slice(0, 64),
    verifierPath: `/verifiers/${id}.js`,
    buildChecksum: 'b'.repeat(64),
    featureNames: [],
    actionMask: false,
    basePath: `/games/${id}/`,
  };
}

export function fakeCatalog(games: CatalogEntry[]): Catalog {
  return { runtimeVersion: '1.0.0', runtimeChecksum: 'c'.repeat(64), games };
}

/**
 * A schema-valid record with the given outcome (for storage tests that skip re-simulation): the
 * game ends on its last step, so the episode is complete.
 */
export function fakeRecord(game: CatalogEntry, seed: number, score: number, opts: { length?: number; stepBudget?: number } = {}): EpisodeRecord {
  const length = opts.length ?? 3;
  const last = (i: number) => i === length - 1;
  const identity = { gameId: game.manifest.id, gameVersion: game.manifest.version, verifierChecksum: game.verifierChecksum, runtimeVersion: '1.0.0' };
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'episode',
    ...identity,
    seed,
    stepBudget: opts.stepBudget ?? game.manifest.stepBudget,
    msPerStep: game.manifest.msPerStep,
    viewport: { width: 100, height: 100 },
    deviceScaleFactor: 1,
    browser: { name: 'chromium', version: 'test' },
    shaping: { perStep: 0, terminal: 0 },
    actions: Array.from({ length }, () => 0),
    steps: Array.from({ length }, (_, i) => ({
      schemaVersion: SCHEMA_VERSION,
      kind: 'step' as const,
      ...identity,
      step: i,
      action: 0,
      reward: last(i) ? score : 0,
      score: last(i) ? score : 0,
      terminated: last(i),
      truncated: false,
      virtualTimeMs: (i + 1) * 100,
      info: { state: { score: last(i) ? score : 0, gameOver: last(i) } },
    })),
    totals: { score, reward: score, length, terminated: true, truncated: false },
    finalFrameHash: 'f',
  };
}

/**
 * A ticket row for exactly these records' (game, seed) pairs, as if the server had drawn them
 * (storage tests choose their seeds; issueTicket draws its own).
 */
export async function fakeTicket(db: Db, tokenId: number | null, records: readonly EpisodeRecord[], opts: { expiresAt?: Date } = {}): Promise<string> {
  const id = `tkt_test_${randomBytes(9).toString('base64url')}`;
  const byGame = new Map<string, number[]>();
  for (const r of records) byGame.set(r.gameId, [...new Set([...(byGame.get(r.gameId) ?? []), r.seed])]);
  const games = [...byGame].map(([gameId, seeds]) => {
    const r = records.find((x) => x.gameId === gameId)!;
    return {
      gameId,
      gameVersion: r.gameVersion,
      verifierChecksum: r.verifierChecksum,
      stepBudget: r.stepBudget,
      msPerStep: r.msPerStep,
      viewport: r.viewport,
      deviceScaleFactor: 1,
      seeds,
    };
  });
  await db.insert(tickets).values({
    id,
    tokenId,
    purpose: 'evaluation',
    scope: 'test',
    games,
    expiresAt: opts.expiresAt ?? new Date(Date.now() + 3_600_000),
    submissionId: `test-${id}`,
  });
  return id;
}
