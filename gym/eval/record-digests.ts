/**
 * Digests of episode records for every game: random actions in a single env and the same actions
 * batched, and the scripted agent, all on fixed seeds. record-digests.json holds them as the games
 * and the step path play today: a refactor must leave every digest as it was, and a game that
 * changes how it plays bumps its version and rewrites the file (`npm run record-digests -- --write`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createAgent, gameLacks } from '../agents/registry';
import { BatchedVectorEnv } from '../batch/batched-vector-env';
import { launchBrowser } from '../browser/launch';
import { loadCatalog } from '../catalog';
import { makeEnv } from '../env/env';
import { runEpisode } from './run-episode';
import { BrowserPool } from '../pool/browser-pool';
import { SeededRandom } from '../random/seeded-random';
import { canonicalJson, type EpisodeRecord } from '../schema/records';

export const RANDOM_SEEDS = [3, 4];
export const RANDOM_STEPS = 60;
export const SCRIPTED_SEED = 5;
export const SCRIPTED_STEPS = 120;
export const FIXTURE = fileURLToPath(new URL('./record-digests.json', import.meta.url));

/** The committed fixture: what every game's records hash to. */
export function committedDigests(): Record<string, GameDigests> {
  return JSON.parse(readFileSync(FIXTURE, 'utf8'));
}

export interface GameDigests {
  version: string;
  random: string[];
  batched: string[];
  scripted?: string;
}

/**
 * sha256 of the record's canonical JSON, the form stored and replayed, less the browser's version:
 * the digests pin how the games and the step path play, and a Chromium security update (a new patch
 * version, the same play) must not read as a changed game.
 */
export function digest(record: EpisodeRecord): string {
  return createHash('sha256')
    .update(canonicalJson({ ...record, browser: { name: record.browser.name } }))
    .digest('hex');
}

/** The random agent's actions of a digest: a fixed stream per seed. */
export function randomActions(seed: number, n: number, count: number): number[] {
  const rng = new SeededRandom(seed ^ 0x5eed);
  return Array.from({ length: count }, () => rng.nextUint32() % n);
}

/** `actions` played from `seed` in a page of its own; the episode must end within RANDOM_STEPS. */
export async function singleRecord(browser: Browser, game: string, seed: number, actions: number[]): Promise<EpisodeRecord> {
  const env = makeEnv({ game, seed, observation: 'state', maxSteps: RANDOM_STEPS }, browser);
  try {
    await env.reset({ seed });
    for (const a of actions) {
      const r = await env.step(a);
      if (r.info.episode) return r.info.episode;
    }
    throw new Error(`${game}: the episode of seed ${seed} did not end in ${RANDOM_STEPS} steps`);
  } finally {
    await env.close();
  }
}

/**
 * Env i plays `actions[i]` from RANDOM_SEEDS[i], all instances in one batch page, `rounds` times in
 * that page (a later round reloads the frames, their files then in the page's cache); one list of
 * records per round.
 */
export async function batchedRecords(pool: BrowserPool, game: string, actions: number[][], rounds = 1): Promise<EpisodeRecord[][]> {
  const v = new BatchedVectorEnv({
    game,
    numEnvs: RANDOM_SEEDS.length,
    seed: RANDOM_SEEDS[0],
    observation: 'state',
    maxSteps: RANDOM_STEPS,
    instancesPerPage: RANDOM_SEEDS.length,
    pool,
  });
  try {
    const played: EpisodeRecord[][] = [];
    for (let round = 0; round < rounds; round++) {
      const records: EpisodeRecord[] = [];
      await v.reset({ seed: RANDOM_SEEDS[0] });
      for (let t = 0; t < RANDOM_STEPS && records.filter(Boolean).length < RANDOM_SEEDS.length; t++) {
        const r = await v.step(actions.map((a) => a[t]));
        r.infos.forEach((info, i) => {
          if (info.episode && !records[i]) records[i] = info.episode;
        });
      }
      played.push(records);
    }
    return played;
  } finally {
    await v.close();
  }
}

/** The scripted agent's episode on SCRIPTED_SEED, cut at SCRIPTED_STEPS. */
export async function scriptedRecord(browser: Browser, game: string): Promise<EpisodeRecord> {
  const env = makeEnv({ game, seed: SCRIPTED_SEED, observation: 'state', maxSteps: SCRIPTED_STEPS }, browser);
  try {
    return await runEpisode(env, await createAgent('scripted', game), SCRIPTED_SEED);
  } finally {
    await env.close();
  }
}

/** Every listed game's digests (all games by default), in catalog order. */
export async function recordDigests(games?: readonly string[]): Promise<Record<string, GameDigests>> {
  const catalog = loadCatalog();
  const unknown = games?.filter((id) => !catalog.games.some((g) => g.manifest.id === id)) ?? [];
  if (unknown.length)
    throw new Error(`No such game in the catalog: ${unknown.join(', ')} (built games: ${catalog.games.map((g) => g.manifest.id).join(', ')})`);
  const browser = await launchBrowser();
  const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 4, healthIntervalMs: 0 });
  const out: Record<string, GameDigests> = {};
  try {
    for (const entry of catalog.games) {
      const { id, preset, version } = entry.manifest;
      if (games && !games.includes(id)) continue;
      const actions = RANDOM_SEEDS.map((seed) => randomActions(seed, preset.length, RANDOM_STEPS));
      const random: string[] = [];
      for (const [i, seed] of RANDOM_SEEDS.entries()) random.push(digest(await singleRecord(browser, id, seed, actions[i])));
      const [batched] = (await batchedRecords(pool, id, actions)).map((records) => records.map(digest));
      out[id] = { version, random, batched, ...(gameLacks('scripted', id) === null ? { scripted: digest(await scriptedRecord(browser, id)) } : {}) };
    }
    return out;
  } finally {
    await pool.close();
    await browser.close();
  }
}

/** The games whose digests differ from the fixture's, with what differs. */
export function differences(actual: Record<string, GameDigests>, expected: Record<string, GameDigests>): string[] {
  return Object.entries(actual).flatMap(([id, d]) => {
    const want = expected[id];
    if (!want) return [`${id}: not in the fixture`];
    return canonicalJson(d) === canonicalJson(want) ? [] : [`${id}: ${canonicalJson(d)} != ${canonicalJson(want)}`];
  });
}
