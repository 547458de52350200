/**
 * Baseline entries for the random and scripted agents, computed by really running them in the
 * gym (3 seeds per game). Each (agent, game build) is one run with a fixed id, stored in one
 * transaction, so seeding skips work already done and resumes where it stopped.
 *
 * scripts/seed-db.ts runs the agents in its own process (the scripted policies are TypeScript
 * files loaded at run time, which the bundled Next.js server cannot do) and stores the runs
 * directly, or, when the running site owns the embedded database, hands the records to it
 * (POST /api/admin/seed), which replays them before storing.
 */
import type { Browser } from 'playwright-core';
import { evaluateGame } from '../gym/eval/evaluate';
import type { EpisodeRecord } from '../gym/schema/records';
import { BASELINE_SEEDS, type BaselineJob } from './baselines';

export { BASELINE_SEEDS, baselineRunId, missingBaselines, storeBaseline, type BaselineJob } from './baselines';

export interface SeedReport {
  ran: number;
  skipped: number;
  failed: { agent: string; game: string; error: string }[];
}

export interface SeedOptions {
  jobs: BaselineJob[];
  browser: Browser;
  /** Stores one finished baseline (directly, or through the site). */
  store: (job: BaselineJob, records: EpisodeRecord[]) => Promise<void>;
  log?: (line: string) => void;
  /** Called as each episode finishes, for a progress line. */
  progress?: (line: string) => void;
}

/** Runs each job's agent on its game from BASELINE_SEEDS and stores the result; a failure is reported, not fatal. */
export async function runBaselines(opts: SeedOptions): Promise<Omit<SeedReport, 'skipped'>> {
  const log = opts.log ?? (() => undefined);
  const report: Omit<SeedReport, 'skipped'> = { ran: 0, failed: [] };
  for (const [i, job] of opts.jobs.entries()) {
    const tag = `[${String(i + 1).padStart(String(opts.jobs.length).length)}/${opts.jobs.length}] ${job.game.manifest.id} · ${job.agent}`;
    const started = Date.now();
    try {
      const result = await evaluateGame({
        game: job.game,
        agent: job.agent,
        seeds: BASELINE_SEEDS,
        observation: ['state'],
        browser: opts.browser,
        onEpisode: (r) => opts.progress?.(`${tag}: seed ${r.seed} → score ${r.totals.score} in ${r.totals.length} steps`),
      });
      await opts.store(job, result.episodes);
      report.ran++;
      log(`${tag}: mean ${result.meanScore.toFixed(1)} ± ${result.stdScore.toFixed(1)} over ${BASELINE_SEEDS.length} seeds (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      report.failed.push({ agent: job.agent, game: job.game.manifest.id, error });
      log(`${tag}: FAILED (${error.split('\n')[0]})`);
    }
  }
  return report;
}
