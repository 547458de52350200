/**
 * The one evaluation path of the CLI: an agent plays given seeds on given games, in this process
 * (one browser) or as jobs on the queue (`--queue`, jobs/queued-eval.ts), and every episode
 * record is written to the run file as canonical JSON. `eval` and `train --submit` both play
 * through here, so a trained policy's leaderboard run is made exactly as `eval --server` makes one.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { getGame } from '../gym/catalog';
import { type CatalogEntry, type ObservationKind, canonicalJson } from '../gym/schema';
import { launchBrowser } from '../gym/browser';
import { evaluateGame, type GameEvaluation } from '../gym/eval';
import { mean } from '../gym/stats';
import { ticketSidecar } from '../leaderboard/client';
import type { TicketJson } from '../leaderboard/ticket-schema';
import { formatTable } from './format-table';

export interface QueueChoice {
  /** The queue's PostgreSQL server; without one, an embedded queue with `localWorkers` workers in this process. */
  url?: string;
  batchSize: number;
  localWorkers: number;
}

export interface PlayEvaluationOptions {
  games: CatalogEntry[];
  seedsOf: (game: CatalogEntry) => number[];
  agent: string;
  agentOptions: Record<string, unknown>;
  observation: ObservationKind[];
  maxSteps?: number;
  /** The run file (JSONL); with a ticket, the ticket is written beside it for `submit`. */
  outPath?: string;
  ticket?: TicketJson | null;
  /** Play as jobs on the queue instead of in this process. */
  queue?: QueueChoice | null;
}

export async function playEvaluation(opts: PlayEvaluationOptions): Promise<GameEvaluation[]> {
  const { outPath, ticket } = opts;
  if (outPath) await mkdir(path.dirname(path.resolve(outPath)), { recursive: true });
  if (ticket && outPath) await writeFile(ticketSidecar(outPath), `${JSON.stringify(ticket, null, 2)}\n`);
  const out = outPath ? createWriteStream(outPath) : null;
  try {
    if (opts.queue) return await queuedEval(opts, opts.queue, out);
    const browser = await launchBrowser();
    try {
      const results: GameEvaluation[] = [];
      for (const game of opts.games) {
        let done = 0;
        const seeds = opts.seedsOf(game);
        const result = await evaluateGame({
          game,
          agent: opts.agent,
          agentOptions: opts.agentOptions,
          seeds,
          observation: opts.observation,
          maxSteps: opts.maxSteps,
          browser,
          onEpisode: (record) => {
            done++;
            process.stderr.write(`\r${game.manifest.id}: episode ${done}/${seeds.length} (score ${record.totals.score}, ${record.totals.length} steps)   `);
            out?.write(`${canonicalJson(record)}\n`);
          },
        });
        process.stderr.write('\n');
        results.push(result);
      }
      return results;
    } finally {
      await browser.close();
    }
  } finally {
    await new Promise<void>((resolve) => (out ? out.end(resolve) : resolve()));
  }
}

/** `--queue`: the same evaluation as jobs (jobs/queued-eval.ts), with progress while workers play it. */
async function queuedEval(opts: PlayEvaluationOptions, queue: QueueChoice, out: Writable | null): Promise<GameEvaluation[]> {
  const { runQueuedEval } = await import('../jobs/queued-eval');
  if (!queue.url) console.error('No DATABASE_URL: the queue runs on an embedded database, with workers in this process (--workers)');
  const { results } = await runQueuedEval({
    games: opts.games,
    seedsOf: opts.seedsOf,
    agent: opts.agent,
    agentOptions: opts.agentOptions,
    observation: opts.observation,
    maxSteps: opts.maxSteps,
    out,
    batchSize: queue.batchSize,
    url: queue.url,
    localWorkers: queue.localWorkers,
    onProgress: (p) => process.stderr.write(`\rqueue: ${p.done}/${p.episodes} episodes, ${p.batchesDone}/${p.batches} batches done, ${p.running} running   `),
  });
  process.stderr.write('\n');
  return results;
}

/** The results table `eval` prints (and `train --submit` after its evaluation). */
export function printEvaluation(results: GameEvaluation[], suite?: string): void {
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
  console.log(
    formatTable(
      ['game', 'agent', 'episodes', 'score (mean ± std)', 'length', 'human', 'normalised'],
      results.map((r) => [
        r.gameId,
        r.agent,
        r.episodes.length,
        `${fmt(r.meanScore)} ± ${fmt(r.stdScore)}`,
        fmt(r.meanLength),
        getGame(r.gameId).manifest.humanReference.score,
        fmt(r.normalised),
      ]),
    ),
  );
  for (const r of results) {
    if (r.agentStats)
      console.log(
        `${r.gameId} ${r.agent}: ${Object.entries(r.agentStats)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
  }
  if (results.length > 1) console.log(`\nsuite ${suite}: mean normalised score ${fmt(mean(results.map((r) => r.normalised)))} over ${results.length} games`);
}
