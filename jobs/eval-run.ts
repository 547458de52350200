/**
 * A suite evaluation as jobs: the run is split into batches (one game, a few consecutive seeds),
 * each an `eval` job; workers store each batch's episode records keyed by (game, seed) position,
 * and the enqueuer reads them back in the order a single-process `eval` writes them, so the
 * JSONL is the same byte for byte.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CatalogEntry, ObservationKind } from '../gym/schema';
import { buildOf } from './build';
import { EvalBatchJob, MACHINE_LOCAL_AGENT_OPTIONS } from './kinds';
import type { JobQueue } from './queue';
import { JOBS_SCHEMA } from './schema';

export interface EvalRunSpec {
  games: CatalogEntry[];
  /** Seeds per game, in the order they are played. */
  seedsOf: (game: CatalogEntry) => number[];
  agent: string;
  agentOptions?: Record<string, unknown>;
  observation: ObservationKind[];
  maxSteps?: number;
  /** Seeds per job (default 5): smaller batches spread better, larger ones pay less per job. */
  batchSize?: number;
  /** A batch's lease: a worker that dies holding it loses it after this long (default: the queue's). */
  expireInSeconds?: number;
}

export interface EnqueuedRun {
  runId: string;
  batches: number;
  episodes: number;
}

/** Agent options as a job may carry them; a ppo checkpoint is stored as a blob and named by its sha256. */
async function jobAgentOptions(queue: JobQueue, opts: Record<string, unknown>): Promise<{ agentOptions: Record<string, unknown>; checkpointSha256?: string }> {
  const agentOptions = Object.fromEntries(
    Object.entries(opts).filter(([k, v]) => v !== undefined && !(MACHINE_LOCAL_AGENT_OPTIONS as readonly string[]).includes(k)),
  );
  if (typeof opts.checkpoint !== 'string') return { agentOptions };
  const bytes = await readFile(opts.checkpoint);
  const sha = createHash('sha256').update(bytes).digest('hex');
  await queue.sql.query(`INSERT INTO ${JOBS_SCHEMA}.blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING`, [sha, bytes]);
  return { agentOptions, checkpointSha256: sha };
}

export async function enqueueEvalRun(queue: JobQueue, spec: EvalRunSpec): Promise<EnqueuedRun> {
  const runId = randomUUID();
  const size = Math.max(1, spec.batchSize ?? 5);
  const { agentOptions, checkpointSha256 } = await jobAgentOptions(queue, spec.agentOptions ?? {});
  const jobs: EvalBatchJob[] = [];
  spec.games.forEach((game, gameIndex) => {
    const seeds = spec.seedsOf(game);
    for (let offset = 0; offset < seeds.length; offset += size) {
      jobs.push(
        EvalBatchJob.parse({
          runId,
          batch: jobs.length,
          build: buildOf(game),
          gameIndex,
          seedOffset: offset,
          seeds: seeds.slice(offset, offset + size),
          agent: spec.agent,
          agentOptions,
          ...(checkpointSha256 ? { checkpointSha256 } : {}),
          observation: spec.observation,
          ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
        }),
      );
    }
  });
  const episodes = jobs.reduce((a, j) => a + j.seeds.length, 0);
  const summary = {
    agent: spec.agent,
    games: spec.games.map((g) => g.manifest.id),
    observation: spec.observation,
    maxSteps: spec.maxSteps ?? null,
  };
  await queue.sql.query(`INSERT INTO ${JOBS_SCHEMA}.eval_runs (id, spec, batches, episodes) VALUES ($1, $2, $3, $4)`, [
    runId,
    JSON.stringify(summary),
    jobs.length,
    episodes,
  ]);
  await queue.boss.insert(jobs.map((data) => ({ name: 'eval', data, ...(spec.expireInSeconds ? { expireInSeconds: spec.expireInSeconds } : {}) })));
  return { runId, batches: jobs.length, episodes };
}

export interface RunProgress {
  episodes: number;
  done: number;
  batches: number;
  batchesDone: number;
  running: number;
  /** Batches that failed for good (retries used up), with the last error. */
  failed: { batch: number; error: string }[];
}

export async function evalRunProgress(queue: JobQueue, runId: string): Promise<RunProgress> {
  const [run] = await queue.sql.query<{ batches: number; episodes: number }>(`SELECT batches, episodes FROM ${JOBS_SCHEMA}.eval_runs WHERE id = $1`, [runId]);
  if (!run) throw new Error(`no evaluation run ${runId}`);
  const [counts] = await queue.sql.query<{ done: string; batches_done: string }>(
    `SELECT (SELECT count(*) FROM ${JOBS_SCHEMA}.eval_episodes WHERE run_id = $1) AS done,
            (SELECT count(*) FROM ${JOBS_SCHEMA}.eval_batches WHERE run_id = $1) AS batches_done`,
    [runId],
  );
  const jobs = await queue.sql.query<{ state: string; batch: number; output: unknown }>(
    `SELECT state::text AS state, (data->>'batch')::int AS batch, output FROM pgboss.job
       WHERE name = 'eval' AND data->>'runId' = $1 AND state IN ('active', 'failed')`,
    [runId],
  );
  return {
    episodes: run.episodes,
    batches: run.batches,
    done: Number(counts.done),
    batchesDone: Number(counts.batches_done),
    running: jobs.filter((j) => j.state === 'active').length,
    failed: jobs.filter((j) => j.state === 'failed').map((j) => ({ batch: j.batch, error: errorText(j.output) })),
  };
}

export function errorText(output: unknown): string {
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    if (typeof o.message === 'string') return o.message;
    if (o.value && typeof o.value === 'object' && typeof (o.value as Record<string, unknown>).message === 'string')
      return (o.value as { message: string }).message;
  }
  return JSON.stringify(output ?? null).slice(0, 300);
}

/** Polls until every batch is stored; throws when one failed for good. */
export async function waitForEvalRun(
  queue: JobQueue,
  runId: string,
  opts: { pollMs?: number; onProgress?: (p: RunProgress) => void; signal?: AbortSignal } = {},
): Promise<RunProgress> {
  for (;;) {
    const p = await evalRunProgress(queue, runId);
    opts.onProgress?.(p);
    if (p.failed.length) throw new Error(`batch ${p.failed[0].batch} of run ${runId} failed after its retries: ${p.failed[0].error}`);
    if (p.batchesDone === p.batches) return p;
    opts.signal?.throwIfAborted();
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
  }
}

/** The run's records, canonical JSON, in the order a single-process evaluation plays them. */
export async function evalRunRecords(queue: JobQueue, runId: string): Promise<{ gameIndex: number; record: string }[]> {
  const rows = await queue.sql.query<{ game_index: number; record: string }>(
    `SELECT game_index, record FROM ${JOBS_SCHEMA}.eval_episodes WHERE run_id = $1 ORDER BY game_index, seed_index`,
    [runId],
  );
  return rows.map((r) => ({ gameIndex: r.game_index, record: r.record }));
}

/** The agents' own counters (model calls, parse errors, …) summed over a game's batches. */
export async function evalRunAgentStats(queue: JobQueue, runId: string): Promise<Map<number, Record<string, number>>> {
  const rows = await queue.sql.query<{ game_index: number; agent_stats: Record<string, number> | null }>(
    `SELECT game_index, agent_stats FROM ${JOBS_SCHEMA}.eval_batches WHERE run_id = $1`,
    [runId],
  );
  const out = new Map<number, Record<string, number>>();
  for (const r of rows) {
    if (!r.agent_stats) continue;
    const acc = out.get(r.game_index) ?? {};
    for (const [k, v] of Object.entries(r.agent_stats)) acc[k] = (acc[k] ?? 0) + v;
    out.set(r.game_index, acc);
  }
  return out;
}
