/**
 * Stores a verified run, its episodes and full records, and the aggregates they change, in one
 * transaction: a failure anywhere leaves nothing behind. What counts is decided here, by the
 * rules of ranking.ts, against the games as the server has them and the run's ticket.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { EpisodeRecord } from '../gym/schema';
import {
  agents,
  episodeRecords,
  episodes,
  games,
  humanEpisodes,
  runs,
  tickets,
  type ClaimedEpisodeColumns,
  type LearningCurvePointColumns,
  type ReplayIdentityColumns,
  type RunSettingsColumns,
} from '../drizzle/schema';
import type { Db } from './db';
import { ApiError } from './api-error';
import { canonicalAgentName } from './agent-names';
import { BASELINE_AGENTS, RANDOM_AGENT, refreshCells, refreshReferences, refreshSuites, refreshTokenAgents } from './aggregates';
import { isRanked, NEW_BUILD_REASON } from './games';
import { episodeUnrankedReason, runUnrankedReason } from './ranking';
import type { AcceptedRun, RunSettings } from './submission-schema';
import { playerForRun } from './human-players';

export interface StoredEpisode {
  /** The record as the server replayed it: every field the replay reproduces is the replay's. */
  record: EpisodeRecord;
  /** What only the client knows (its browser), stored as claimed. */
  claimed: ClaimedEpisodeColumns;
  /** How it was verified, in words. */
  reason: string;
}

export interface StoreRunInput {
  clientId: string;
  /** Null for runs the server makes itself (the seeded baselines). */
  tokenId: number | null;
  agent: string;
  kind: 'evaluation' | 'training' | 'human';
  settings: RunSettings;
  /** A training run's learning curve and (in settings.training) how it trained: stored as claimed. */
  learningCurve?: LearningCurvePointColumns[];
  bodyHash: string;
  /** The evaluation ticket the run played (null: self-seeded, never ranked). */
  ticketId: string | null;
  /** When the submission arrived: a ticket must not have expired by then. */
  receivedAt: Date;
  episodes: StoredEpisode[];
}

const replayIdentity = (r: EpisodeRecord): ReplayIdentityColumns => ({
  browser: r.browser,
  runtimeVersion: r.runtimeVersion,
  verifierChecksum: r.verifierChecksum,
});

const INSERT_CHUNK = 200;
const RECORD_CHUNK = 25;

function actionSpace(records: readonly EpisodeRecord[]): RunSettingsColumns['actionSpace'] {
  const kinds = new Set(records.flatMap((r) => r.actions.map((a) => (typeof a === 'number' ? 'discrete' : 'gui'))));
  return kinds.size === 1 ? ([...kinds][0] as 'discrete' | 'gui') : kinds.size === 0 ? 'discrete' : 'mixed';
}

const single = <T>(xs: readonly T[]): T | null => (new Set(xs).size === 1 ? xs[0] : null);

/** A unique-key violation, whichever driver raised it (drizzle wraps driver errors in `cause`). */
export function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e; x && typeof x === 'object'; x = (x as { cause?: unknown }).cause) {
    if ((x as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const SAME_NAME_RULE = 'names are compared ignoring case, look-alike characters and separators or punctuation at the ends';

/**
 * The agent row `tokenId` may submit under `name` (undefined if the name is new), or an
 * AGENT_NAME_TAKEN error: names belong to the token that first used them, the baselines' names to
 * the server, and each in every spelling with the same canonical form (agent-names.ts).
 */
export async function ownAgent(db: Db, name: string, tokenId: number | null) {
  const canonical = canonicalAgentName(name);
  const baseline = BASELINE_AGENTS.find((b) => canonicalAgentName(b) === canonical);
  if (tokenId !== null && baseline) {
    const spelled = baseline === name ? '' : ` (it reads as "${baseline}": ${SAME_NAME_RULE})`;
    throw new ApiError(
      'AGENT_NAME_TAKEN',
      `The agent name "${name}" is reserved for the built-in baseline "${baseline}" the server runs itself${spelled}; choose another name`,
      { agent: name, clashesWith: baseline },
    );
  }
  const [existing] = await db.select().from(agents).where(eq(agents.canonicalName, canonical));
  if (!existing) return undefined;
  if (existing.tokenId !== tokenId) {
    const spelled = existing.name === name ? '' : ` (it reads as "${existing.name}": ${SAME_NAME_RULE})`;
    throw new ApiError(
      'AGENT_NAME_TAKEN',
      `The agent name "${name}" belongs to ${existing.kind === 'baseline' ? 'a built-in baseline' : 'another token'}${spelled}; choose another name`,
      { agent: name, clashesWith: existing.name },
    );
  }
  if (existing.name !== name) {
    // The same token's own agent, spelled otherwise: one agent, one spelling, so its page and its rows stay one.
    throw new ApiError(
      'AGENT_NAME_TAKEN',
      `The agent name "${name}" reads as this token's agent "${existing.name}" (${SAME_NAME_RULE}); submit as "${existing.name}" or choose another name`,
      { agent: name, clashesWith: existing.name },
    );
  }
  return existing;
}

export async function storeRun(db: Db, input: StoreRunInput): Promise<AcceptedRun> {
  const records = input.episodes.map((e) => e.record);
  const gameIds = [...new Set(records.map((r) => r.gameId))].sort();
  return db.transaction(async (tx) => {
    const gameRows = new Map((await tx.select().from(games).where(inArray(games.id, gameIds))).map((g) => [g.id, g]));
    for (const id of gameIds) {
      if (!gameRows.get(id)?.active) throw new ApiError('UNKNOWN_GAME', `The server has no game "${id}"`);
    }
    const [ticket] = input.ticketId ? await tx.select().from(tickets).where(eq(tickets.id, input.ticketId)) : [];
    if (input.ticketId && !ticket) throw new ApiError('TICKET_NOT_FOUND', `No ticket "${input.ticketId}"`);
    const runReason = runUnrankedReason(ticket ?? null, records, input.receivedAt);
    // The episode's own reason first (it says most), then the run's; then whether the build is still the server's.
    const reasons = records.map((r) => {
      const g = gameRows.get(r.gameId)!;
      const spec = ticket?.games.find((t) => t.gameId === r.gameId);
      return episodeUnrankedReason(r, { stepBudget: g.stepBudget, msPerStep: g.msPerStep, viewport: spec?.viewport }) ?? runReason;
    });
    const eligible = reasons.map((why) => why === null);
    const ranked = records.map((r, i) => eligible[i] && isRanked(r, gameRows.get(r.gameId)!));
    const unrankedReasons = reasons.map((why, i) => (ranked[i] ? null : (why ?? NEW_BUILD_REASON)));
    const settings: RunSettingsColumns = {
      observation: input.settings.observation,
      actionSpace: actionSpace(records),
      stepBudget: single(records.map((r) => r.stepBudget)),
      msPerStep: single(records.map((r) => r.msPerStep)),
      official: records.every((r) => r.stepBudget === gameRows.get(r.gameId)!.stepBudget && r.msPerStep === gameRows.get(r.gameId)!.msPerStep),
      harness: input.settings.harness ?? null,
      model: input.settings.model ?? null,
      codeVersion: input.settings.codeVersion ?? null,
      gameSpecific: input.settings.training?.gameSpecific === true,
    };

    let agentId: number | null = null;
    if (input.kind !== 'human') {
      const existing = await ownAgent(tx, input.agent, input.tokenId);
      agentId = existing
        ? existing.id
        : (
            await tx
              .insert(agents)
              .values({
                name: input.agent,
                canonicalName: canonicalAgentName(input.agent),
                kind: input.tokenId === null ? 'baseline' : 'submitted',
                tokenId: input.tokenId,
              })
              .returning({ id: agents.id })
          )[0].id;
      await tx.update(agents).set({ settings }).where(eq(agents.id, agentId));
    }

    const runId = randomUUID();
    await tx.insert(runs).values({
      id: runId,
      clientId: input.clientId,
      tokenId: input.tokenId,
      agentId,
      player: input.kind === 'human' ? input.agent : null,
      kind: input.kind,
      ...settings,
      ticketId: input.ticketId,
      unrankedReason: runReason,
      gameIds,
      learningCurve: input.learningCurve ?? null,
      training: input.settings.training ?? null,
      bodyHash: input.bodyHash,
      response: {},
      episodeCount: records.length,
    });

    const accepted: AcceptedRun['episodes'] = [];
    if (input.kind === 'human') {
      // A token here is an admin's (intake refuses others), which vouches for the player; a visitor's run has none.
      const player = await playerForRun(tx, input.agent, input.tokenId !== null);
      for (let i = 0; i < input.episodes.length; i += RECORD_CHUNK) {
        const part = input.episodes.slice(i, i + RECORD_CHUNK);
        const ids = await tx
          .insert(humanEpisodes)
          .values(
            part.map(({ record: r, reason, claimed }, j) => ({
              runId,
              gameId: r.gameId,
              player: input.agent,
              playerId: player.id,
              gameVersion: r.gameVersion,
              seed: r.seed,
              score: r.totals.score,
              length: r.totals.length,
              stepBudget: r.stepBudget,
              msPerStep: r.msPerStep,
              verification: 'verified' as const,
              verificationReason: reason,
              ticketId: input.ticketId,
              ranked: ranked[i + j],
              unrankedReason: unrankedReasons[i + j],
              replay: replayIdentity(r),
              claimed,
              record: r,
            })),
          )
          .returning({ id: humanEpisodes.id });
        ids.forEach(({ id }, j) => accepted.push(acceptedEpisode(id, part[j], ranked[i + j], unrankedReasons[i + j], input.ticketId, true)));
      }
      await refreshReferences(tx, gameIds);
    } else {
      for (let i = 0; i < input.episodes.length; i += INSERT_CHUNK) {
        const part = input.episodes.slice(i, i + INSERT_CHUNK);
        const ids = await tx
          .insert(episodes)
          .values(
            part.map(({ record: r, reason, claimed }, j) => ({
              runId,
              agentId: agentId!,
              gameId: r.gameId,
              gameVersion: r.gameVersion,
              verifierChecksum: r.verifierChecksum,
              seed: r.seed,
              score: r.totals.score,
              length: r.totals.length,
              terminated: r.totals.terminated,
              truncated: r.totals.truncated,
              stepBudget: r.stepBudget,
              msPerStep: r.msPerStep,
              ticketId: input.ticketId,
              eligible: eligible[i + j],
              ranked: ranked[i + j],
              unrankedReason: unrankedReasons[i + j],
              verification: 'verified' as const,
              verificationReason: reason,
              replay: replayIdentity(r),
              claimed,
            })),
          )
          .returning({ id: episodes.id });
        ids.forEach(({ id }, j) => accepted.push(acceptedEpisode(id, part[j], ranked[i + j], unrankedReasons[i + j], input.ticketId)));
        for (let k = 0; k < part.length; k += RECORD_CHUNK) {
          await tx.insert(episodeRecords).values(part.slice(k, k + RECORD_CHUNK).map((e, j) => ({ episodeId: ids[k + j].id, record: e.record })));
        }
      }
      const rankedGames = gameIds.filter((g) => records.some((r, i) => ranked[i] && r.gameId === g));
      await refreshCells(tx, [agentId!], rankedGames);
      // The random baseline's means are the games' random references: everything on them moves.
      if (input.agent === RANDOM_AGENT && input.tokenId === null) await refreshReferences(tx, rankedGames);
      await refreshSuites(tx, [agentId!]);
      // A run on a ticket settles whose that ticket is: no longer forfeited by the token's other agents, nor by this one where it ranks.
      const ticketGames = ticket ? ticket.games.map((g) => g.gameId) : [];
      if (ticketGames.length) await refreshTokenAgents(tx, input.tokenId, ticketGames);
    }

    const response: AcceptedRun = {
      run: {
        id: runId,
        clientId: input.clientId,
        url: `/runs/${runId}`,
        agent: input.agent,
        kind: input.kind,
        ticket: input.ticketId,
        episodes: accepted.length,
        ranked: ranked.filter(Boolean).length,
        unrankedReason: runReason,
        games: gameIds,
      },
      episodes: accepted,
    };
    await tx.update(runs).set({ response }).where(eq(runs.id, runId));
    return response;
  });
}

/** Human reference episodes live in their own table, so their replay ids are marked apart. */
function acceptedEpisode(
  id: number,
  e: StoredEpisode,
  ranked: boolean,
  unrankedReason: string | null,
  ticketId: string | null,
  human = false,
): AcceptedRun['episodes'][number] {
  const r = e.record;
  return {
    id,
    gameId: r.gameId,
    seed: r.seed,
    score: r.totals.score,
    length: r.totals.length,
    ranked,
    unrankedReason,
    ticketed: ticketId !== null,
    verification: 'verified',
    replayUrl: `/replay/${human ? 'human-' : ''}${id}`,
  };
}
