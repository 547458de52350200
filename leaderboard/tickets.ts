/**
 * Evaluation tickets. A client asks for one (a suite or a game); the server draws fresh seeds
 * (never put on a ticket before, so nobody has played them), records them with the official
 * settings and an expiry, and returns them. The run that plays them is submitted with the
 * ticket's id; a ticket is used by one submission only.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { Catalog, CatalogEntry } from '../gym/schema';
import { submissions, ticketSeeds, tickets, type TicketGameColumns } from '../drizzle/schema';
import { ApiError } from './api-error';
import type { Db } from './db';
import { refreshTokenAgents } from './aggregates';
import { isUniqueViolation } from './ingest';
import { OFFICIAL_DEVICE_SCALE_FACTOR } from './ranking';
import { DEFAULT_SEEDS_PER_GAME } from './scoring';
import { statusUrl } from './submission-schema';
import type { TicketJson } from './ticket-schema';

export { MAX_TICKET_SEEDS, TicketGame, TicketJson, TicketRequest } from './ticket-schema';

export const TICKET_PREFIX = 'tkt_';
/** Long enough for a model agent to play a whole suite (hours); ARCADE_TICKET_TTL_HOURS changes it. */
export const DEFAULT_TICKET_TTL_HOURS = 24;

export type TicketPurpose = 'evaluation' | 'human' | 'baseline';

export function ticketTtlMsFromEnv(value = process.env.ARCADE_TICKET_TTL_HOURS): number {
  const hours = Number(value);
  return (value && Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_TICKET_TTL_HOURS) * 3_600_000;
}

export type TicketRow = typeof tickets.$inferSelect;

/** Positions of a ticket's episodes, in play order: each game's seeds in turn. */
export function ticketEpisodes(t: Pick<TicketRow, 'games'>): { position: number; game: TicketGameColumns; seed: number }[] {
  return t.games.flatMap((game) => game.seeds.map((seed) => ({ game, seed }))).map((e, position) => ({ position, ...e }));
}

/** The game builds a ticket's episodes are played on. */
export function ticketBuilds(t: Pick<TicketRow, 'games'>): { gameId: string; gameVersion: string; verifierChecksum: string }[] {
  return t.games.map((g) => ({ gameId: g.gameId, gameVersion: g.gameVersion, verifierChecksum: g.verifierChecksum }));
}

/**
 * The ticket as the API shows it. A live ticket's seeds are left out until it is closed: the seed
 * decides the whole episode, so it must not reach the player while the episode can still be played.
 * `ended`: the positions of the live episodes that have ended.
 */
export function ticketJson(t: TicketRow, ended: ReadonlySet<number> = new Set()): TicketJson {
  // A policy run's seeds are hidden as a live ticket's: the checkpoint was handed over before they were drawn, and its holder may still send others.
  const hidden = t.mode !== 'seeds' && t.closedAt === null;
  const base = `/api/live/${t.id}`;
  return {
    id: t.id,
    purpose: t.purpose,
    mode: t.mode,
    scope: t.scope,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt.toISOString(),
    used: t.submissionId !== null,
    games: hidden ? t.games.map((g) => ({ ...g, seeds: [] })) : t.games,
    ...(t.mode === 'live' && t.live
      ? {
          live: {
            agent: t.live.agent,
            observation: t.live.observation,
            ...(t.live.pixels ? { pixels: t.live.pixels } : {}),
            episodes: ticketEpisodes(t).map((e) => ({ position: e.position, game: e.game.gameId, ended: ended.has(e.position) })),
            closed: t.closedAt !== null,
            // The worker playing the ticket, reached directly; the site's URLs below forward to it.
            ...(t.live.host && t.closedAt === null ? { endpoint: `${t.live.host.url}/live/${t.id}` } : {}),
            resetUrl: `${base}/reset`,
            stepUrl: `${base}/step`,
            claimsUrl: `${base}/claims`,
            closeUrl: `${base}/close`,
          },
        }
      : {}),
    ...(t.mode === 'policy' && t.live?.policy
      ? {
          policy: {
            agent: t.live.agent,
            checkpointSha256: t.live.policy.checkpointSha256,
            mode: t.live.policy.mode,
            state: t.live.policy.error ? ('failed' as const) : t.submissionId ? ('submitted' as const) : ('playing' as const),
            ...(t.live.policy.error ? { error: t.live.policy.error } : {}),
            ...(t.submissionId ? { statusUrl: statusUrl(t.submissionId) } : {}),
          },
        }
      : {}),
  };
}

function officialGame(entry: CatalogEntry, seeds: number[]): TicketGameColumns {
  const m = entry.manifest;
  return {
    gameId: m.id,
    gameVersion: m.version,
    verifierChecksum: entry.verifierChecksum,
    stepBudget: m.stepBudget,
    msPerStep: m.msPerStep,
    viewport: { width: m.canvas.width, height: m.canvas.height },
    deviceScaleFactor: OFFICIAL_DEVICE_SCALE_FACTOR,
    seeds,
  };
}

/** The catalog games a request names, or a 422 saying what does not exist. */
function gamesFor(catalog: Catalog, req: { suite?: string; game?: string }): { scope: string; games: CatalogEntry[] } {
  if (req.game !== undefined) {
    const g = catalog.games.find((e) => e.manifest.id === req.game);
    if (!g) throw new ApiError('UNKNOWN_GAME', `The server has no game "${req.game}"`, { game: req.game });
    return { scope: `game ${req.game}`, games: [g] };
  }
  const games = req.suite === 'all' ? catalog.games : catalog.games.filter((e) => e.manifest.suites.includes(req.suite!));
  if (games.length === 0) {
    const suites = [...new Set(catalog.games.flatMap((e) => e.manifest.suites))].sort();
    throw new ApiError('UNKNOWN_GAME', `The server has no suite "${req.suite}" (suites: ${[...suites, 'all'].join(', ')})`, { suite: req.suite });
  }
  return { scope: `suite ${req.suite}`, games };
}

const drawSeed = () => randomInt(0, 2 ** 32);

export interface IssueOptions {
  tokenId: number | null;
  purpose: TicketPurpose;
  suite?: string;
  game?: string;
  seedsPerGame?: number;
  ttlMs?: number;
  now?: Date;
  mode?: 'seeds' | 'live' | 'policy';
  /** A live or policy ticket's agent and observation (and a policy run's checkpoint). */
  live?: NonNullable<TicketRow['live']>;
}

/**
 * Gives a live ticket's episodes at `positions` fresh seeds, drawn as at issue (never drawn before for
 * their game): for episodes a worker cut off when it stopped or died. Their player saw part of them,
 * so playing their seeds again would be a rewind, and leaving them unplayed would cost the player the
 * ticket for the server's fault. The seeds replaced are kept in `live.redrawn`, with why.
 */
export async function redrawSeeds(db: Db, ticketId: string, positions: readonly number[], reason: string): Promise<TicketRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
        const games = row.games.map((g) => ({ ...g, seeds: [...g.seeds] }));
        const at = games.flatMap((g, gi) => g.seeds.map((_, si) => ({ gi, si })));
        const redrawn = positions.map((position) => {
          const { gi, si } = at[position];
          const seed = games[gi].seeds[si];
          let fresh = drawSeed();
          while (games[gi].seeds.includes(fresh)) fresh = drawSeed();
          games[gi].seeds[si] = fresh;
          return { position, gameId: games[gi].gameId, seed, fresh };
        });
        await tx.insert(ticketSeeds).values(redrawn.map((r) => ({ gameId: r.gameId, seed: r.fresh, ticketId })));
        const live = row.live!;
        const [updated] = await tx
          .update(tickets)
          .set({
            games,
            live: {
              ...live,
              started: (live.started ?? []).filter((p) => !positions.includes(p)),
              redrawn: [...(live.redrawn ?? []), ...redrawn.map(({ position, seed }) => ({ position, seed, reason }))],
            },
          })
          .where(eq(tickets.id, ticketId))
          .returning();
        return updated;
      });
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}

/**
 * Draws fresh seeds for the games asked for and records the ticket. A seed is never drawn twice
 * for a game (ticket_seeds' primary key): a collision (about one in 2^32) draws again.
 */
export async function issueTicket(db: Db, catalog: Catalog, opts: IssueOptions): Promise<TicketRow> {
  const { scope, games } = gamesFor(catalog, opts);
  const perGame = opts.seedsPerGame ?? (opts.purpose === 'human' ? 1 : DEFAULT_SEEDS_PER_GAME);
  const now = opts.now ?? new Date();
  for (let attempt = 0; ; attempt++) {
    const id = TICKET_PREFIX + randomBytes(18).toString('base64url');
    const spec = games.map((g) => {
      const seeds = new Set<number>();
      while (seeds.size < perGame) seeds.add(drawSeed());
      return officialGame(g, [...seeds]);
    });
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(tickets)
          .values({
            id,
            tokenId: opts.tokenId,
            purpose: opts.purpose,
            scope,
            games: spec,
            mode: opts.mode ?? 'seeds',
            live: opts.mode === 'live' || opts.mode === 'policy' ? (opts.live ?? null) : null,
            createdAt: now,
            expiresAt: new Date(now.getTime() + (opts.ttlMs ?? ticketTtlMsFromEnv())),
          })
          .returning();
        await tx.insert(ticketSeeds).values(spec.flatMap((g) => g.seeds.map((seed) => ({ gameId: g.gameId, seed, ticketId: id }))));
        // A drawn ticket counts against the token's agents until a ranked run on it is stored (ticket-draws.ts).
        if (opts.purpose === 'evaluation')
          await refreshTokenAgents(
            tx,
            opts.tokenId,
            spec.map((g) => g.gameId),
          );
        return row;
      });
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}

/** The ticket `tokenId` owns, or a 404 (another token's ticket is not told apart from none). */
export async function ownTicket(db: Db, id: string, tokenId: number | null): Promise<TicketRow> {
  const [row] = await db.select().from(tickets).where(eq(tickets.id, id));
  if (!row || row.tokenId !== tokenId)
    throw new ApiError('TICKET_NOT_FOUND', `No ticket "${id}" for this token (ask for one with POST /api/tickets)`, { ticket: id });
  return row;
}

/** Marks the ticket used by this submission, inside the caller's transaction; a used ticket is a 409. */
export async function claimTicket(
  db: Db,
  id: string,
  tokenId: number | null,
  submissionId: string,
  kind: 'evaluation' | 'training' | 'human',
): Promise<TicketRow> {
  const ticket = await ownTicket(db, id, tokenId);
  const allowed = ticket.purpose === 'human' ? kind === 'human' : ticket.purpose === 'baseline' ? tokenId === null && kind === 'evaluation' : kind !== 'human';
  if (!allowed)
    throw new ApiError('TICKET_MISMATCH', `Ticket ${id} is for ${ticket.purpose} play, not a run of kind "${kind}"`, { ticket: id, purpose: ticket.purpose });
  const [claimed] = await db
    .update(tickets)
    .set({ submissionId, usedAt: new Date() })
    .where(and(eq(tickets.id, id), isNull(tickets.submissionId)))
    .returning();
  if (!claimed) throw new ApiError('TICKET_USED', `Ticket ${id} was already used by another submission; ask for a new ticket`, { ticket: id });
  return claimed;
}

/**
 * After a rejection that was the server's doing (the replay ran out of its budget, the server
 * failed), gives the ticket back so the same honest records can be submitted again, but only
 * once per ticket: a ticket that some other submission already held is not released again, so a
 * run cannot keep a ticket alive by getting itself rejected. The rejected submission keeps its
 * ticket id (that is how "once" is counted). True when the ticket was released.
 */
export async function releaseTicketOnce(db: Db, ticketId: string, submissionId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [{ others }] = await tx
      .select({ others: count() })
      .from(submissions)
      .where(and(eq(submissions.ticketId, ticketId), ne(submissions.id, submissionId)));
    if (others > 0) return false;
    const released = await tx
      .update(tickets)
      .set({ submissionId: null, usedAt: null })
      .where(and(eq(tickets.id, ticketId), eq(tickets.submissionId, submissionId)))
      .returning({ id: tickets.id });
    return released.length === 1;
  });
}

/**
 * Claims the ticket again for a submission queued again under its own id (a retry after an
 * INTERNAL failure released it). A ticket taken meanwhile by another submission is a 409.
 */
export async function reclaimTicket(db: Db, ticketId: string, submissionId: string): Promise<void> {
  const [row] = await db.select({ submissionId: tickets.submissionId }).from(tickets).where(eq(tickets.id, ticketId));
  if (row?.submissionId === submissionId) return;
  const [claimed] = await db
    .update(tickets)
    .set({ submissionId, usedAt: new Date() })
    .where(and(eq(tickets.id, ticketId), isNull(tickets.submissionId)))
    .returning({ id: tickets.id });
  if (!claimed)
    throw new ApiError(
      'TICKET_USED',
      `Ticket ${ticketId} was released after the server failed on this run, and another submission has used it since; ask for a new ticket`,
      {
        ticket: ticketId,
      },
    );
}
