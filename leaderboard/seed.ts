/**
 * Baseline entries for the random, scripted and ppo-generic agents, computed by really running them in the
 * gym on the seeds of a server-issued ticket. Each (agent, game build) is one run with a fixed
 * id, so seeding skips work already done and resumes where it stopped.
 *
 * scripts/seed-db.ts runs the agents in its own process (the scripted policies are TypeScript
 * files loaded at run time, which the bundled Next.js server cannot do) and submits each run the
 * way any run is submitted: intake() and the verification queue replay every episode before it
 * is stored, in the script's own process when it holds the database, else in the running site
 * (POST /api/admin/seed). On a PostgreSQL server the queue's workers play them instead
 * (jobs/seed-baselines.ts, through `play`).
 */
import type { Browser } from 'playwright-core';
import type { Catalog, EpisodeRecord } from '../gym/schema';
import { agentTraining, gameLacks, type TrainedAgent } from '../gym/agents';
import { evaluateGame } from '../gym/eval';
import { mean, std } from '../gym/stats';
import { baselineTicket, settled, submitBaseline, type BaselineJob } from './baselines';
import type { Db } from './db';
import { verifyBudgetFromEnv, type IntakeDeps } from './submissions';
import type { SubmissionStatus } from './submission-schema';
import type { TicketJson } from './tickets';
import { verifyAbortable } from './verifier-browser';
import { InProcessVerificationQueue } from './verification-queue';
import { verifySubmission, type VerifyEpisode } from './verify-run';

export { baselineRunId, baselineTicket, missingBaselines, settled, submitBaseline, type BaselineJob } from './baselines';

export interface SeedReport {
  ran: number;
  skipped: number;
  failed: { agent: string; game: string; error: string }[];
}

export interface SeedOptions {
  jobs: BaselineJob[];
  browser: Browser;
  /** A ticket for one job (seeds drawn by the server). */
  ticket: (job: BaselineJob) => Promise<TicketJson>;
  /**
   * Plays the job's agent on the ticket's seeds (default: here, in `browser`; jobs/seed-baselines.ts
   * has the queue's workers play them).
   */
  play?: (job: BaselineJob, seeds: number[], onEpisode: (record: EpisodeRecord) => void) => Promise<EpisodeRecord[]>;
  /** Submits one finished baseline (with how it was trained, for a trained one) and waits until it is verified (or refused). */
  submit: (job: BaselineJob, ticket: TicketJson, records: EpisodeRecord[], trained?: TrainedAgent) => Promise<SubmissionStatus>;
  log?: (line: string) => void;
  /** Called as each episode finishes, for a progress line. */
  progress?: (line: string) => void;
}

/** Runs each job's agent on its ticket's seeds and submits the result; a failure is reported, not fatal. */
export async function runBaselines(opts: SeedOptions): Promise<Omit<SeedReport, 'skipped'>> {
  const log = opts.log ?? (() => undefined);
  const report: Omit<SeedReport, 'skipped'> = { ran: 0, failed: [] };
  const play =
    opts.play ??
    (async (job: BaselineJob, seeds: number[], onEpisode: (record: EpisodeRecord) => void) =>
      (await evaluateGame({ game: job.game, agent: job.agent, seeds, observation: ['state'], browser: opts.browser, onEpisode })).episodes);
  for (const [i, job] of opts.jobs.entries()) {
    const tag = `[${String(i + 1).padStart(String(opts.jobs.length).length)}/${opts.jobs.length}] ${job.game.manifest.id} · ${job.agent}`;
    const started = Date.now();
    try {
      // Read before playing: a trained baseline whose description is missing fails here, not after the episodes.
      const trained = await agentTraining(job.agent, job.game.manifest.id);
      const ticket = await opts.ticket(job);
      const seeds = ticket.games.find((g) => g.gameId === job.game.manifest.id)?.seeds ?? [];
      const episodes = await play(job, seeds, (r) => opts.progress?.(`${tag}: seed ${r.seed} → score ${r.totals.score} in ${r.totals.length} steps`));
      const scores = episodes.map((e) => e.totals.score);
      opts.progress?.(`${tag}: verifying ${episodes.length} episodes by replay…`);
      const status = await opts.submit(job, ticket, episodes, trained);
      if (status.error) throw new Error(`${status.error.code}: ${status.error.message}`);
      if (!status.result) throw new Error(`the submission ended ${status.submission.status} without a result`);
      report.ran++;
      const ranked = status.result.run.ranked;
      log(
        `${tag}: mean ${mean(scores).toFixed(1)} ± ${std(scores).toFixed(1)} over ${seeds.length} ticket seeds, replayed, ${ranked} ranked` +
          `${status.result.run.unrankedReason ? ` (${status.result.run.unrankedReason})` : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      report.failed.push({ agent: job.agent, game: job.game.manifest.id, error });
      log(`${tag}: FAILED (${error.split('\n')[0]})`);
    }
  }
  return report;
}

/**
 * The jobs whose agent can play its game. A game may lack what a baseline needs (a third-party
 * game need not ship a scripted agent; the generic policy is trained per game), which is no
 * failure: those jobs are left out and one note per such game says so.
 */
export function playableBaselines(
  jobs: readonly BaselineJob[],
  lacks: (agent: string, gameId: string) => string | null = gameLacks,
): { jobs: BaselineJob[]; notes: string[] } {
  const lacked = new Map(jobs.map((j) => [j, lacks(j.agent, j.game.manifest.id)]));
  const playable = jobs.filter((j) => lacked.get(j) === null);
  const notes: string[] = [];
  for (const id of new Set(jobs.filter((j) => lacked.get(j) !== null).map((j) => j.game.manifest.id))) {
    const what = [...new Set(jobs.filter((j) => j.game.manifest.id === id).map((j) => lacked.get(j)))].filter((l) => l !== null);
    const others = [...new Set(playable.filter((j) => j.game.manifest.id === id).map((j) => j.agent))];
    notes.push(`${id} has ${what.join(' and ')}: ${others.length ? `seeding the ${others.join(' and ')} baseline only` : 'no baseline to seed'}`);
  }
  return { jobs: playable, notes };
}

export interface InProcessSeedOptions extends Pick<SeedOptions, 'jobs' | 'browser' | 'log' | 'progress'> {
  db: Db;
  catalog: Catalog;
  /** How episodes are replayed (default: in `browser`). */
  verify?: VerifyEpisode;
}

/**
 * Seeding while this process holds the database: tickets are drawn here, and the baselines go
 * through intake() and a verification queue of this process, exactly as the site takes runs.
 */
export async function seedInProcess(opts: InProcessSeedOptions): Promise<Omit<SeedReport, 'skipped'>> {
  const { db, catalog, browser } = opts;
  const verify: VerifyEpisode = opts.verify ?? ((record, signal) => verifyAbortable(record, browser, signal));
  const queue = new InProcessVerificationQueue({ slots: 1 });
  queue.start((job, signal) => verifySubmission({ db, verify }, job.submissionId, signal));
  const intake: IntakeDeps = { db, catalog: () => catalog, queue, budget: verifyBudgetFromEnv() };
  try {
    return await runBaselines({
      jobs: opts.jobs,
      browser,
      ticket: (job) => baselineTicket(db, catalog, job),
      submit: async (job, ticket, records, trained) => settled(intake, (await submitBaseline(intake, job, ticket.id, records, trained)).submission.id),
      log: opts.log,
      progress: opts.progress,
    });
  } finally {
    await queue.close();
  }
}
