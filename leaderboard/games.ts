/**
 * Brings the games table in line with the built catalog the server verifies against. A game
 * whose version, verifier or budget changed keeps its old episodes, unranked: scores from a
 * different game are not comparable.
 */
import { and, eq, inArray, not, notInArray } from 'drizzle-orm';
import type { Catalog, CatalogEntry } from '../gym/schema';
import { agentGameStats, episodes, games } from '../drizzle/schema';
import type { Db } from './db';
import { refreshCells, refreshMissingIqm, refreshReferences, refreshSuites } from './aggregates';

/** Why an eligible episode stopped counting: its game is not the build it was played on. */
export const NEW_BUILD_REASON = 'The game changed since (version, verifier, step budget or ms per step): not comparable with the build the server runs now.';

export interface SyncReport {
  added: string[];
  changed: string[];
  deactivated: string[];
}

function gameRow(entry: CatalogEntry) {
  const m = entry.manifest;
  return {
    id: m.id,
    title: m.title,
    version: m.version,
    verifierChecksum: entry.verifierChecksum,
    stepBudget: m.stepBudget,
    msPerStep: m.msPerStep,
    suites: m.suites,
    manifestHumanReference: { score: m.humanReference.score, provenance: m.humanReference.provenance, stepBudget: m.humanReference.stepBudget },
    active: true,
    updatedAt: new Date(),
  };
}

/**
 * Whether an episode played under these settings is on the game as it is now (it then counts if
 * it is also eligible: see ranking.ts).
 */
export function isRanked(
  e: { gameVersion: string; verifierChecksum: string; stepBudget: number; msPerStep: number },
  g: { version: string; verifierChecksum: string; stepBudget: number; msPerStep: number },
): boolean {
  return e.gameVersion === g.version && e.verifierChecksum === g.verifierChecksum && e.stepBudget === g.stepBudget && e.msPerStep === g.msPerStep;
}

export async function syncGames(db: Db, catalog: Catalog): Promise<SyncReport> {
  return db.transaction(async (tx) => {
    const existing = new Map((await tx.select().from(games)).map((g) => [g.id, g]));
    const report: SyncReport = { added: [], changed: [], deactivated: [] };
    const ids = catalog.games.map((g) => g.manifest.id);
    for (const entry of catalog.games) {
      const row = gameRow(entry);
      const old = existing.get(row.id);
      if (!old) report.added.push(row.id);
      else if (
        !old.active ||
        !isRanked({ ...old, gameVersion: old.version }, row) ||
        JSON.stringify(old.suites) !== JSON.stringify(row.suites) ||
        JSON.stringify(old.manifestHumanReference) !== JSON.stringify(row.manifestHumanReference)
      )
        report.changed.push(row.id);
      else continue;
      await tx.insert(games).values(row).onConflictDoUpdate({ target: games.id, set: row });
    }
    const gone = [...existing.values()].filter((g) => g.active && !ids.includes(g.id)).map((g) => g.id);
    if (gone.length) await tx.update(games).set({ active: false, updatedAt: new Date() }).where(inArray(games.id, gone));
    report.deactivated = gone;

    const touched = [...report.added, ...report.changed];
    if (touched.length === 0 && gone.length === 0) {
      await refreshMissingIqm(tx);
      return report;
    }
    for (const id of report.changed) {
      const g = gameRow(catalog.games.find((e) => e.manifest.id === id)!);
      // Rank exactly the eligible episodes that match the game as it is now; the others keep their reasons.
      const eligible = and(eq(episodes.gameId, id), eq(episodes.eligible, true));
      // Played on the game as it is now: the same version, verifier, step budget and step length.
      const sameBuild = and(
        eq(episodes.gameVersion, g.version),
        eq(episodes.verifierChecksum, g.verifierChecksum),
        eq(episodes.stepBudget, g.stepBudget),
        eq(episodes.msPerStep, g.msPerStep),
      )!;
      await tx
        .update(episodes)
        .set({ ranked: false, unrankedReason: NEW_BUILD_REASON })
        .where(and(eligible, not(sameBuild)));
      await tx.update(episodes).set({ ranked: true, unrankedReason: null }).where(and(eligible, sameBuild));
      const agentIds = (await tx.selectDistinct({ id: episodes.agentId }).from(episodes).where(eq(episodes.gameId, id))).map((r) => r.id);
      await tx.delete(agentGameStats).where(and(eq(agentGameStats.gameId, id), agentIds.length ? notInArray(agentGameStats.agentId, agentIds) : undefined));
      await refreshCells(tx, agentIds, [id]);
    }
    await refreshReferences(tx, touched);
    // Suite membership changed: every agent's suite rows.
    await refreshSuites(tx);
    return report;
  });
}
