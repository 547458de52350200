/**
 * The way in for every run, the server's own baselines included: `intake()` checks a submission
 * against the games the server has, claims its ticket, records it and queues it for verification
 * (verify-run.ts replays it and stores the result). `createSubmissionHandler()` is
 * `POST /api/runs` around it, as a function of a Web Request, so the route is a one-liner and
 * tests need no server: authenticate, read, answer a retry from the stored answer, and only then
 * rate-limit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Catalog, canonicalJson } from '../gym/schema';
import { submissions } from '../drizzle/schema';
import type { Db } from './db';
import { ApiError, jsonResponse } from './api-error';
import { isUniqueViolation, ownAgent } from './ingest';
import { type RateLimiter, takeTurn } from './rate-limit';
import { readSubmissionBody } from './submission-body';
import { MAX_SUBMISSION_BYTES } from './submission-limit';
import { RunSubmission, statusUrl, type SubmissionStatus } from './submission-schema';
import { claimTicket, ownTicket, reclaimTicket } from './tickets';
import { authenticate, type AuthenticatedToken } from './tokens';
import type { VerificationQueue } from './verification-queue';

/**
 * What one submission may cost to verify: at most `maxSteps` steps in all, and, once verification
 * starts, `baseMs` + `perStepMs` per step of wall-clock time (then it is stopped and rejected).
 */
export interface VerifyBudget {
  maxSteps: number;
  baseMs: number;
  perStepMs: number;
}

export const DEFAULT_VERIFY_BUDGET: VerifyBudget = { maxSteps: 200_000, baseMs: 60_000, perStepMs: 20 };

/** ARCADE_VERIFY_MAX_STEPS, ARCADE_VERIFY_BASE_S and ARCADE_VERIFY_MS_PER_STEP, each optional. */
export function verifyBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): VerifyBudget {
  const num = (v: string | undefined, fallback: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : fallback);
  return {
    maxSteps: num(env.ARCADE_VERIFY_MAX_STEPS, DEFAULT_VERIFY_BUDGET.maxSteps),
    baseMs: num(env.ARCADE_VERIFY_BASE_S, DEFAULT_VERIFY_BUDGET.baseMs / 1000) * 1000,
    perStepMs: num(env.ARCADE_VERIFY_MS_PER_STEP, DEFAULT_VERIFY_BUDGET.perStepMs),
  };
}

export const budgetMsFor = (b: VerifyBudget, steps: number) => Math.round(b.baseMs + b.perStepMs * steps);

export interface IntakeDeps {
  db: Db;
  /** The built games the server verifies against. */
  catalog: () => Catalog;
  queue: VerificationQueue;
  budget?: VerifyBudget;
}

export interface SubmissionDeps extends IntakeDeps {
  limiter: RateLimiter;
  maxBytes?: number;
}

/** Who submits: a token, or the server itself (tokenId null: the seeded baselines). */
export interface Principal {
  tokenId: number | null;
  admin: boolean;
  /** A visitor of /play handing in human reference play on a visitor ticket (visitor-play.ts). */
  visitor?: boolean;
}

export interface Answer {
  status: number;
  body: SubmissionStatus;
  headers: Record<string, string>;
}

const toResponse = (a: Answer) => jsonResponse(a.status, a.body, a.headers);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type SubmissionRow = typeof submissions.$inferSelect;

/** The status document of a submission (the answer to POST /api/runs and to its status URL). */
export async function submissionStatus(row: SubmissionRow, queue: VerificationQueue): Promise<SubmissionStatus> {
  const position = row.status === 'queued' ? await queue.status(row.id) : null;
  const result = row.result as Record<string, unknown> | null;
  return {
    submission: {
      id: row.id,
      clientId: row.clientId,
      status: row.status,
      statusUrl: statusUrl(row.id),
      ticket: row.ticketId,
      episodes: row.episodes,
      steps: row.steps,
      verified: row.verified,
      budgetMs: row.budgetMs,
      queuePosition: position?.state === 'queued' ? position.ahead : null,
      createdAt: row.createdAt.toISOString(),
      startedAt: iso(row.startedAt),
      finishedAt: iso(row.finishedAt),
    },
    ...(row.status === 'accepted' && result ? { result: result as SubmissionStatus['result'] } : {}),
    ...(row.status === 'rejected' && result?.error ? { error: result.error as SubmissionStatus['error'] } : {}),
  };
}

/** 202 while the submission waits or is verified, 200 once it is settled. */
async function answerFor(row: SubmissionRow, queue: VerificationQueue, replayed: boolean): Promise<Answer> {
  const pending = row.status === 'queued' || row.status === 'verifying';
  return {
    status: pending ? 202 : 200,
    body: await submissionStatus(row, queue),
    headers: { location: statusUrl(row.id), ...(replayed ? { 'idempotent-replayed': 'true' } : {}) },
  };
}

export async function loadSubmission(db: Db, id: string): Promise<SubmissionRow | null> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  return row ?? null;
}

const isInternalFailure = (row: SubmissionRow) =>
  row.status === 'rejected' && row.body !== null && (row.result as { error?: { code?: string } } | null)?.error?.code === 'INTERNAL';

/**
 * The answer already given under this (principal, id), or null if the id is new. A different
 * body under a used id is a conflict; a retry of a run the server failed on is queued again.
 */
export async function storedAnswer(deps: IntakeDeps, principal: Principal, sub: RunSubmission, bodyHash: string): Promise<Answer | null> {
  const [row] = await deps.db
    .select()
    .from(submissions)
    .where(and(principal.tokenId === null ? isNull(submissions.tokenId) : eq(submissions.tokenId, principal.tokenId), eq(submissions.clientId, sub.id)));
  if (!row) return null;
  if (row.bodyHash !== bodyHash) {
    throw new ApiError('IDEMPOTENCY_CONFLICT', `Run id "${sub.id}" was already used for a different submission; use a new id`, { id: sub.id });
  }
  if (isInternalFailure(row)) {
    const [again] = await deps.db.transaction(async (tx) => {
      // The failure released its ticket (verify-run.ts): queued again, the run holds it again.
      if (row.ticketId) await reclaimTicket(tx, row.ticketId, row.id);
      return tx
        .update(submissions)
        .set({ status: 'queued', result: null, startedAt: null, finishedAt: null, verified: 0 })
        .where(eq(submissions.id, row.id))
        .returning();
    });
    await deps.queue.enqueue({ submissionId: row.id, owner: ownerKey(principal), budgetMs: row.budgetMs });
    return answerFor(again, deps.queue, true);
  }
  return answerFor(row, deps.queue, true);
}

const ownerKey = (p: Principal) => (p.visitor ? 'visitors' : p.tokenId === null ? 'server' : `token:${p.tokenId}`);

/** The cheap checks first: an episode from another game build cannot verify, and says why. */
function checkAgainstCatalog(sub: RunSubmission, catalog: Catalog): void {
  sub.episodes.forEach((r, i) => {
    const where = { episode: i, gameId: r.gameId, seed: r.seed };
    const game = catalog.games.find((g) => g.manifest.id === r.gameId);
    if (!game) throw new ApiError('UNKNOWN_GAME', `Episode ${i}: the server has no game "${r.gameId}"`, where);
    if (r.gameVersion !== game.manifest.version) {
      throw new ApiError('GAME_VERSION_MISMATCH', `Episode ${i}: recorded on ${r.gameId} ${r.gameVersion}, the server has ${game.manifest.version}`, {
        ...where,
        expected: game.manifest.version,
      });
    }
    if (r.verifierChecksum !== game.verifierChecksum) {
      throw new ApiError(
        'VERIFIER_CHECKSUM_MISMATCH',
        `Episode ${i}: recorded with a different ${r.gameId} verifier (${r.verifierChecksum.slice(0, 12)}…, the server has ${game.verifierChecksum.slice(0, 12)}…)`,
        { ...where, expected: game.verifierChecksum },
      );
    }
    if (r.runtimeVersion !== catalog.runtimeVersion) {
      throw new ApiError('RUNTIME_VERSION_MISMATCH', `Episode ${i}: recorded with runtime ${r.runtimeVersion}, the server has ${catalog.runtimeVersion}`, {
        ...where,
        expected: catalog.runtimeVersion,
      });
    }
  });
}

export const canonicalHash = (sub: RunSubmission) => createHash('sha256').update(canonicalJson(sub)).digest('hex');

/**
 * Checks a new submission, records it with its ticket claimed, and queues it: the answer is
 * 202 with the status URL. (A known id is answered by storedAnswer before this is called.)
 */
export async function intake(deps: IntakeDeps, principal: Principal, sub: RunSubmission, bodyHash: string): Promise<Answer> {
  if (sub.kind === 'human' && !principal.admin && !principal.visitor)
    throw new ApiError('FORBIDDEN', 'Human reference play changes every score of its game: it needs an admin token (`arcade-gym token create --admin`)');
  checkAgainstCatalog(sub, deps.catalog());
  // Fail fast on a name this token may not use (storing checks again, atomically).
  if (sub.kind !== 'human') await ownAgent(deps.db, sub.agent, principal.tokenId);
  const budget = deps.budget ?? DEFAULT_VERIFY_BUDGET;
  const steps = sub.episodes.reduce((a, r) => a + r.actions.length, 0);
  if (steps > budget.maxSteps) {
    throw new ApiError(
      'BUDGET_EXCEEDED',
      `The run has ${steps} steps to replay; one submission may have at most ${budget.maxSteps}. Send fewer episodes per submission.`,
      { steps, maxSteps: budget.maxSteps },
    );
  }
  const id = randomUUID();
  const budgetMs = budgetMsFor(budget, steps);
  let row: SubmissionRow;
  try {
    row = await deps.db.transaction(async (tx) => {
      // The ticket must exist (and be this token's) before the row that references it is written:
      // otherwise an unknown ticket surfaces as a foreign-key violation, a 500 that no retry cures,
      // instead of the 404 it is. It is claimed after the insert, so a concurrent retry of the same
      // id still meets the unique key first and is answered as a retry.
      if (sub.ticket) await ownTicket(tx, sub.ticket, principal.tokenId);
      const [inserted] = await tx
        .insert(submissions)
        .values({
          id,
          tokenId: principal.tokenId,
          clientId: sub.id,
          bodyHash,
          ticketId: sub.ticket ?? null,
          status: 'queued',
          body: sub as unknown as Record<string, unknown>,
          episodes: sub.episodes.length,
          steps,
          budgetMs,
        })
        .returning();
      if (sub.ticket) await claimTicket(tx, sub.ticket, principal.tokenId, id, sub.kind);
      return inserted;
    });
  } catch (e) {
    // The same id stored meanwhile (a concurrent retry): answer as a retry is answered.
    if (isUniqueViolation(e)) {
      const again = await storedAnswer(deps, principal, sub, bodyHash);
      if (again) return again;
    }
    throw e;
  }
  await deps.queue.enqueue({ submissionId: id, owner: ownerKey(principal), budgetMs });
  return answerFor(row, deps.queue, false);
}

export async function requireToken(db: Db, request: Request): Promise<AuthenticatedToken> {
  return requireBearer(db, request.headers.get('authorization'));
}

/** The token of an Authorization header's value (`Bearer <token>`), or the 401 saying what is wrong. */
export async function requireBearer(db: Db, authorization: string | null): Promise<AuthenticatedToken> {
  const header = authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const challenge = { 'www-authenticate': 'Bearer realm="arcade-gym"' };
  if (!m)
    throw new ApiError(
      'UNAUTHORIZED',
      'Send an API token as "Authorization: Bearer <token>" (create one with `npx arcade-gym token create`)',
      undefined,
      challenge,
    );
  const token = await authenticate(db, m[1]);
  if (!token) throw new ApiError('INVALID_TOKEN', 'The API token is unknown or revoked', undefined, challenge);
  return token;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError('INVALID_JSON', `The body is not JSON: ${e instanceof Error ? e.message : e}`);
  }
}

function parseSubmission(text: string): RunSubmission {
  const parsed = RunSubmission.safeParse(parseJson(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.');
    throw new ApiError('INVALID_SUBMISSION', `Invalid submission at "${where || '(root)'}": ${issue.message}`, { path: issue.path.map(String) });
  }
  return parsed.data;
}

export function createSubmissionHandler(deps: SubmissionDeps): (request: Request) => Promise<Response> {
  const maxBytes = deps.maxBytes ?? MAX_SUBMISSION_BYTES;
  return async function handle(request: Request): Promise<Response> {
    try {
      const token = await requireToken(deps.db, request);
      const type = request.headers.get('content-type') ?? '';
      if (!/^application\/json\b/i.test(type))
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the run as application/json (got "${type || 'no content type'}")`);
      const sub = parseSubmission(await readSubmissionBody(request, maxBytes));
      const principal: Principal = { tokenId: token.id, admin: token.admin };
      const bodyHash = canonicalHash(sub);
      // A retry is answered from what is stored, before any rate limit: retrying never costs a turn.
      const earlier = await storedAnswer(deps, principal, sub, bodyHash);
      if (earlier) return toResponse(earlier);
      takeTurn(deps.limiter, String(token.id), 'submissions for this token');
      return toResponse(await intake(deps, principal, sub, bodyHash));
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/runs failed:', e);
      return new ApiError('INTERNAL', 'The server failed to take the run; nothing was stored. Retry with the same id.').toResponse();
    }
  };
}

/**
 * Queues again what a stopped server left queued or half-verified (the in-process queue does not
 * outlive its process; the submissions table does). Oldest first.
 */
export async function requeuePending(db: Db, queue: VerificationQueue): Promise<number> {
  const rows = await db
    .update(submissions)
    .set({ status: 'queued', startedAt: null, verified: 0 })
    .where(inArray(submissions.status, ['queued', 'verifying']))
    .returning({ id: submissions.id, tokenId: submissions.tokenId, budgetMs: submissions.budgetMs, createdAt: submissions.createdAt });
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const r of rows) await queue.enqueue({ submissionId: r.id, owner: ownerKey({ tokenId: r.tokenId, admin: false }), budgetMs: r.budgetMs });
  return rows.length;
}
