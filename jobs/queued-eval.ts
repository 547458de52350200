/**
 * `arcade-gym eval --queue`: the evaluation as jobs. With DATABASE_URL the batches go to the
 * server's queue and any `arcade-gym worker` plays them; without it, the same queue runs on an
 * in-memory PGlite with workers inside this process. Either way the records come back in the
 * single-process order and are written with the same canonical JSON.
 */
import type { Writable } from 'node:stream';
import type { GameEvaluation } from '../gym/eval';
import { humanNormalised, mean, std } from '../gym/stats';
import type { EpisodeRecord } from '../gym/schema';
import { enqueueEvalRun, evalRunAgentStats, evalRunRecords, waitForEvalRun, type EvalRunSpec, type RunProgress } from './eval-run';
import { browserProvider, evalBatchHandler } from './handlers';
import { memoryPglite, openJobQueue, type JobQueue } from './queue';
import { pgliteJobsSql, postgresJobsSql } from './sql';
import { Worker } from './worker';

export interface QueuedEvalOptions extends EvalRunSpec {
  /** The queue's server; without one, an in-memory queue with `localWorkers` workers in this process. */
  url?: string;
  localWorkers?: number;
  out?: Writable | null;
  onProgress?: (p: RunProgress) => void;
}

export async function runQueuedEval(opts: QueuedEvalOptions): Promise<{ runId: string; results: GameEvaluation[] }> {
  const jobs: JobQueue = opts.url ? await openJobQueue(await postgresJobsSql(opts.url)) : await openJobQueue(pgliteJobsSql(await memoryPglite()));
  const browsers = browserProvider();
  let worker: Worker | null = null;
  try {
    if (!opts.url) {
      worker = new Worker({
        jobs,
        queues: ['eval'],
        handlers: { eval: evalBatchHandler(() => browsers.get()) },
        concurrency: opts.localWorkers ?? 1,
        pollMs: 200,
        log: () => undefined,
      });
      await worker.start();
    }
    const run = await enqueueEvalRun(jobs, opts);
    await waitForEvalRun(jobs, run.runId, { onProgress: opts.onProgress });
    const rows = await evalRunRecords(jobs, run.runId);
    const stats = await evalRunAgentStats(jobs, run.runId);
    for (const r of rows) opts.out?.write(`${r.record}\n`);
    const results = opts.games.map((game, i): GameEvaluation => {
      const episodes = rows.filter((r) => r.gameIndex === i).map((r) => JSON.parse(r.record) as EpisodeRecord);
      const scores = episodes.map((e) => e.totals.score);
      return {
        gameId: game.manifest.id,
        agent: opts.agent,
        episodes,
        meanScore: mean(scores),
        stdScore: std(scores),
        meanLength: mean(episodes.map((e) => e.totals.length)),
        normalised: humanNormalised(mean(scores), game.manifest.humanReference.score),
        ...(stats.has(i) ? { agentStats: stats.get(i) } : {}),
      };
    });
    return { runId: run.runId, results };
  } finally {
    await worker?.stop(0);
    await browsers.close();
    await jobs.close();
  }
}
