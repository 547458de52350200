/**
 * Ticket shopping, made visible and made worthless. A token could draw tickets for a game, play
 * them all and submit only the best: each submitted run is honest, the choice among them is not.
 * So every ticket a token draws counts for its agent, whether submitted or not:
 *
 * - A ticket belongs to the agent whose run was stored on it; a ticket with no stored run (not
 *   submitted yet, refused, or never to be) belongs to every agent of the token on that game — the
 *   server cannot know which one played it, and a token that runs one agent per game loses nothing.
 * - Of an agent's tickets on a game, those that gave no ranked episodes of it on that game are
 *   forfeited: each of their seeds counts as one seed of the agent's score at the forfeit score,
 *   the lower of 0 and the agent's worst ranked score there (forfeiting never beats playing).
 *   An unsubmitted ticket forfeits from the moment it is drawn until a ranked run on it is stored.
 * - Only tickets for the game build the server has now count (a new build starts the game afresh,
 *   as it does for episodes); the server's own baselines (no token) draw what they play.
 *
 * The agent and run pages show the counts; aggregates.ts puts the forfeited seeds in the cells.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { agents, episodes, games, runs, tickets } from '../drizzle/schema';
import type { Db } from './db';

export interface TicketDraws {
  gameId: string;
  /** Tickets the token drew for this game that count for this agent (see above). */
  drawn: number;
  /** Of those, tickets with a run of this agent stored on them. */
  submitted: number;
  /** Of those, tickets that gave ranked episodes of this agent on this game. */
  ranked: number;
  /** Seeds of this game on the tickets that did not (drawn − ranked tickets): scored at the forfeit score. */
  forfeitedSeeds: number[];
}

/** The lowest score a forfeited seed may be given: 0, or the agent's worst ranked score if that is lower. */
export const forfeitScore = (rankedScores: readonly number[]) => Math.min(0, ...rankedScores);

/** Per game (only games with tickets of the current build), the draws of one agent; empty for baselines. */
export async function ticketDraws(db: Db, agentId: number, gameIds?: readonly string[]): Promise<TicketDraws[]> {
  const [agent] = await db.select({ tokenId: agents.tokenId }).from(agents).where(eq(agents.id, agentId));
  if (!agent || agent.tokenId === null) return [];
  const drawnTickets = await db
    .select({ id: tickets.id, games: tickets.games })
    .from(tickets)
    .where(and(eq(tickets.tokenId, agent.tokenId), eq(tickets.purpose, 'evaluation')));
  if (drawnTickets.length === 0) return [];
  const ids = drawnTickets.map((t) => t.id);
  const [builds, storedRuns, rankedOn] = await Promise.all([
    db.select({ id: games.id, version: games.version, verifierChecksum: games.verifierChecksum }).from(games),
    db.select({ ticketId: runs.ticketId, agentId: runs.agentId }).from(runs).where(inArray(runs.ticketId, ids)),
    db
      .selectDistinct({ ticketId: episodes.ticketId, gameId: episodes.gameId })
      .from(episodes)
      .where(and(eq(episodes.agentId, agentId), eq(episodes.ranked, true), inArray(episodes.ticketId, ids))),
  ]);
  const build = new Map(builds.map((g) => [g.id, g]));
  const runAgents = new Map<string, Set<number | null>>();
  for (const r of storedRuns) runAgents.set(r.ticketId!, (runAgents.get(r.ticketId!) ?? new Set()).add(r.agentId));
  const ranked = new Set(rankedOn.map((e) => `${e.ticketId}\u0000${e.gameId}`));
  const byGame = new Map<string, TicketDraws>();
  for (const t of drawnTickets) {
    const holders = runAgents.get(t.id);
    // Stored under another agent: that agent's ticket, not this one's.
    if (holders && !holders.has(agentId)) continue;
    for (const g of t.games) {
      const current = build.get(g.gameId);
      if (!current || current.version !== g.gameVersion || current.verifierChecksum !== g.verifierChecksum) continue;
      if (gameIds && !gameIds.includes(g.gameId)) continue;
      const d = byGame.get(g.gameId) ?? { gameId: g.gameId, drawn: 0, submitted: 0, ranked: 0, forfeitedSeeds: [] };
      d.drawn++;
      if (holders) d.submitted++;
      if (ranked.has(`${t.id}\u0000${g.gameId}`)) d.ranked++;
      else d.forfeitedSeeds.push(...g.seeds);
      byGame.set(g.gameId, d);
    }
  }
  return [...byGame.values()].sort((a, b) => a.gameId.localeCompare(b.gameId));
}

/** The agents a token's draws can change: its own agents (a ticket without a run counts for each). */
export async function agentsOfToken(db: Db, tokenId: number | null): Promise<number[]> {
  if (tokenId === null) return [];
  return (await db.select({ id: agents.id }).from(agents).where(eq(agents.tokenId, tokenId))).map((a) => a.id);
}
