/**
 * The database side of the baselines: which (agent, game build) baselines are stored, and
 * storing one. Each is one run with a fixed id, stored in one transaction, so seeding skips work
 * already done and resumes where it stopped. (Running the agents is leaderboard/seed.ts.)
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { CatalogEntry } from '../gym/catalog-schema';
import type { EpisodeRecord } from '../gym/schema/records';
import { runs } from '../drizzle/schema';
import { BASELINE_AGENTS } from './aggregates';
import type { Db } from './db';
import { storeRun } from './ingest';

export const BASELINE_SEEDS = [0, 1, 2];

/** The fixed id of a baseline run: a new game build or budget gets a new run. */
export function baselineRunId(agent: string, game: CatalogEntry, seeds = BASELINE_SEEDS): string {
  const m = game.manifest;
  return `baseline:${agent}:${m.id}@${m.version}:${game.verifierChecksum.slice(0, 16)}:${m.stepBudget}x${m.msPerStep}:seeds=${seeds.join(',')}`;
}

export interface BaselineJob {
  agent: string;
  game: CatalogEntry;
}

/** The (game, agent) baselines not stored yet, random before scripted (its mean is the random reference). */
export async function missingBaselines(db: Db, games: readonly CatalogEntry[], agents: readonly string[] = BASELINE_AGENTS): Promise<{ jobs: BaselineJob[]; skipped: number }> {
  const jobs: BaselineJob[] = [];
  let skipped = 0;
  for (const game of games) {
    for (const agent of agents) {
      const [done] = await db.select({ id: runs.id }).from(runs).where(and(isNull(runs.tokenId), eq(runs.clientId, baselineRunId(agent, game))));
      if (done) skipped++;
      else jobs.push({ agent, game });
    }
  }
  return { jobs, skipped };
}

export async function storeBaseline(db: Db, job: BaselineJob, records: EpisodeRecord[], how: { verification: 'server-run' | 'verified'; reason: string }): Promise<void> {
  const id = baselineRunId(job.agent, job.game);
  await storeRun(db, {
    clientId: id,
    tokenId: null,
    agent: job.agent,
    kind: 'evaluation',
    settings: { observation: ['state'], harness: `built-in ${job.agent} agent`, codeVersion: `runtime ${records[0]?.runtimeVersion ?? '?'}` },
    bodyHash: id,
    episodes: records.map((record) => ({ record, ...how })),
  });
}
