/**
 * The database side of the baselines: which (agent, game build) baselines are stored, a ticket
 * for each one to run, and submitting the result. Baselines take the one way in every run
 * takes: a server-issued ticket, intake() and the verification queue, which replays every
 * episode before anything is stored. (Running the agents is leaderboard/seed.ts.)
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Catalog, CatalogEntry, EpisodeRecord } from '../gym/schema';
import { runs, submissions } from '../drizzle/schema';
import { BASELINE_AGENTS } from './aggregates';
import type { Db } from './db';
import { DEFAULT_SEEDS_PER_GAME } from './scoring';
import { canonicalHash, intake, loadSubmission, storedAnswer, submissionStatus, type IntakeDeps } from './submissions';
import type { TrainedAgent } from '../gym/agents';
import { RunSubmission, type SubmissionStatus } from './submission-schema';
import { issueTicket, type TicketJson, ticketJson } from './tickets';

/** Seeds per baseline game: a ticket's default (DEFAULT_SEEDS_PER_GAME), part of a baseline's run id. */
export const BASELINE_SEED_COUNT = DEFAULT_SEEDS_PER_GAME;

/**
 * The fixed id of a baseline run: a new game build or budget gets a new run, and so does a new
 * seed count (a site seeded on fewer seeds gets a run of BASELINE_SEED_COUNT more).
 */
export function baselineRunId(agent: string, game: CatalogEntry): string {
  const m = game.manifest;
  return `baseline:${agent}:${m.id}:${m.version}:${game.verifierChecksum.slice(0, 16)}:${m.stepBudget}x${m.msPerStep}:ticketed:${BASELINE_SEED_COUNT}seeds`;
}

export interface BaselineJob {
  agent: string;
  game: CatalogEntry;
}

/** The (game, agent) baselines not stored yet, random before scripted (its mean is the random reference). */
export async function missingBaselines(
  db: Db,
  games: readonly CatalogEntry[],
  agents: readonly string[] = BASELINE_AGENTS,
): Promise<{ jobs: BaselineJob[]; skipped: number }> {
  const jobs: BaselineJob[] = [];
  let skipped = 0;
  for (const game of games) {
    for (const agent of agents) {
      const [done] = await db
        .select({ id: runs.id })
        .from(runs)
        .where(and(isNull(runs.tokenId), eq(runs.clientId, baselineRunId(agent, game))));
      if (done) skipped++;
      else jobs.push({ agent, game });
    }
  }
  return { jobs, skipped };
}

/** A server-owned ticket for one baseline: fresh seeds, like anyone's. */
export async function baselineTicket(db: Db, catalog: Catalog, job: BaselineJob): Promise<TicketJson> {
  return ticketJson(await issueTicket(db, catalog, { tokenId: null, purpose: 'baseline', game: job.game.manifest.id, seedsPerGame: BASELINE_SEED_COUNT }));
}

/**
 * Submits a finished baseline as the server itself (no token): 202 and its status, as for any run.
 * A trained baseline (ppo-generic) says how it was trained, as `train --submit` does; it reads the
 * verifier's vector, the others the state.
 */
export async function submitBaseline(
  deps: IntakeDeps,
  job: BaselineJob,
  ticketId: string,
  records: EpisodeRecord[],
  trained?: TrainedAgent,
): Promise<SubmissionStatus> {
  const clientId = baselineRunId(job.agent, job.game);
  const sub = RunSubmission.parse({
    id: clientId,
    agent: job.agent,
    kind: 'evaluation',
    settings: {
      observation: [trained ? 'vector' : 'state'],
      harness: `built-in ${job.agent} agent`,
      codeVersion: `runtime ${records[0]?.runtimeVersion ?? '?'}`,
      ...(trained ? { training: trained.training } : {}),
    },
    ...(trained ? { learningCurve: trained.learningCurve } : {}),
    ticket: ticketId,
    episodes: records,
  });
  // An earlier attempt that was refused (say, a crash mid-seed) must not block this one.
  await deps.db.delete(submissions).where(and(isNull(submissions.tokenId), eq(submissions.clientId, clientId), eq(submissions.status, 'rejected')));
  const principal = { tokenId: null, admin: true };
  const hash = canonicalHash(sub);
  const answer = (await storedAnswer(deps, principal, sub, hash)) ?? (await intake(deps, principal, sub, hash));
  return answer.body;
}

/** Waits for a submission to be settled (bounded), polling its row. */
export async function settled(deps: IntakeDeps, id: string, timeoutMs = 600_000): Promise<SubmissionStatus> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await loadSubmission(deps.db, id);
    if (!row) throw new Error(`submission ${id} vanished`);
    if (row.status === 'accepted' || row.status === 'rejected') return submissionStatus(row, deps.queue);
    if (Date.now() > until) throw new Error(`submission ${id} was not verified within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
