/**
 * `POST /api/runs`: authenticate, limit, parse, check every episode against the games the
 * server has, re-simulate every episode, and store the run only if all of it holds. A Web
 * Request in, a Web Response out, so the route handler is a one-liner and tests need no server.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Catalog } from '../gym/catalog-schema';
import { canonicalJson, type EpisodeRecord } from '../gym/schema/records';
import type { VerificationResult } from '../gym/verify/resimulate';
import { runs } from '../drizzle/schema';
import type { Db } from './db';
import { ApiError, jsonResponse } from './api-error';
import { isUniqueViolation, ownAgent, storeRun } from './ingest';
import { RateLimiter } from './rate-limit';
import { RunSubmission, type AcceptedRun } from './submission-schema';
import { authenticate, type AuthenticatedToken } from './tokens';

export const DEFAULT_MAX_SUBMISSION_BYTES = 32 * 1024 * 1024;

export interface SubmissionDeps {
  db: Db;
  /** The built games the server verifies against. */
  catalog: () => Catalog;
  /** Re-simulates one episode (verifyEpisode with the server's shared browser). */
  verify: (record: EpisodeRecord) => Promise<VerificationResult>;
  limiter: RateLimiter;
  maxBytes?: number;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const toResponse = (a: Answer) => jsonResponse(a.status, a.body, a.headers);
const answerOf = (e: ApiError): Answer => ({ status: e.status, body: { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } }, headers: e.headers });

async function readBody(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `A submission may be at most ${maxBytes} bytes; send fewer episodes per run`, { maxBytes });
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}

async function requireToken(db: Db, request: Request): Promise<AuthenticatedToken> {
  const header = request.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const challenge = { 'www-authenticate': 'Bearer realm="arcade-gym"' };
  if (!m) throw new ApiError('UNAUTHORIZED', 'Send an API token as "Authorization: Bearer <token>" (create one with `npx arcade-gym token create`)', undefined, challenge);
  const token = await authenticate(db, m[1]);
  if (!token) throw new ApiError('INVALID_TOKEN', 'The API token is unknown or revoked', undefined, challenge);
  return token;
}

function parseSubmission(text: string): RunSubmission {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ApiError('INVALID_JSON', `The body is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  const parsed = RunSubmission.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.');
    throw new ApiError('INVALID_SUBMISSION', `Invalid submission at "${where || '(root)'}": ${issue.message}`, { path: issue.path.map(String) });
  }
  return parsed.data;
}

/** The cheap checks first: an episode from another game build cannot verify, and says why. */
function checkAgainstCatalog(sub: RunSubmission, catalog: Catalog): void {
  sub.episodes.forEach((r, i) => {
    const where = { episode: i, gameId: r.gameId, seed: r.seed };
    const game = catalog.games.find((g) => g.manifest.id === r.gameId);
    if (!game) throw new ApiError('UNKNOWN_GAME', `Episode ${i}: the server has no game "${r.gameId}"`, where);
    if (r.gameVersion !== game.manifest.version) {
      throw new ApiError('GAME_VERSION_MISMATCH', `Episode ${i}: recorded on ${r.gameId} ${r.gameVersion}, the server has ${game.manifest.version}`, { ...where, expected: game.manifest.version });
    }
    if (r.verifierChecksum !== game.verifierChecksum) {
      throw new ApiError('VERIFIER_CHECKSUM_MISMATCH', `Episode ${i}: recorded with a different ${r.gameId} verifier (${r.verifierChecksum.slice(0, 12)}…, the server has ${game.verifierChecksum.slice(0, 12)}…)`, { ...where, expected: game.verifierChecksum });
    }
    if (r.runtimeVersion !== catalog.runtimeVersion) {
      throw new ApiError('RUNTIME_VERSION_MISMATCH', `Episode ${i}: recorded with runtime ${r.runtimeVersion}, the server has ${catalog.runtimeVersion}`, { ...where, expected: catalog.runtimeVersion });
    }
  });
}

/** Episodes of a submission re-simulated at once: two pages keep a small machine's two cores busy. */
const VERIFY_CONCURRENCY = 2;

export function createSubmissionHandler(deps: SubmissionDeps): (request: Request) => Promise<Response> {
  const maxBytes = deps.maxBytes ?? DEFAULT_MAX_SUBMISSION_BYTES;
  /** Submissions in progress, by token and id: a concurrent retry waits for the first. */
  const inFlight = new Map<string, { bodyHash: string; answer: Promise<Answer> }>();
  /** One verification at a time: they share one browser on a small machine. */
  let verifying: Promise<unknown> = Promise.resolve();

  async function previousAnswer(tokenId: number, sub: RunSubmission, bodyHash: string): Promise<Answer | null> {
    const [run] = await deps.db
      .select({ bodyHash: runs.bodyHash, response: runs.response })
      .from(runs)
      .where(and(eq(runs.tokenId, tokenId), eq(runs.clientId, sub.id)));
    if (!run) return null;
    if (run.bodyHash !== bodyHash) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', `Run id "${sub.id}" was already used for a different submission; use a new id`, { id: sub.id });
    }
    return { status: 201, body: run.response, headers: { 'idempotent-replayed': 'true' } };
  }

  async function verifyAll(sub: RunSubmission): Promise<void> {
    // A few episodes at a time (each on its own page of the shared browser); once one fails,
    // only those before it are still checked, so the error names the first bad episode.
    const results: (VerificationResult | undefined)[] = [];
    let next = 0;
    let firstFailure = Infinity;
    const worker = async () => {
      for (let i = next++; i < sub.episodes.length && i < firstFailure; i = next++) {
        const result = await deps.verify(sub.episodes[i]);
        results[i] = result;
        if (!result.ok) firstFailure = Math.min(firstFailure, i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, sub.episodes.length) }, worker));
    if (firstFailure === Infinity) return;
    const record = sub.episodes[firstFailure];
    const result = results[firstFailure] as Extract<VerificationResult, { ok: false }>;
    throw new ApiError('VERIFICATION_FAILED', `Episode ${firstFailure} (${record.gameId}, seed ${record.seed}) does not replay as recorded: ${result.reason}`, {
      episode: firstFailure,
      gameId: record.gameId,
      seed: record.seed,
      firstMismatchStep: result.firstMismatchStep ?? null,
      reason: result.reason,
    });
  }

  async function accept(token: AuthenticatedToken, sub: RunSubmission, bodyHash: string): Promise<Answer> {
    const earlier = await previousAnswer(token.id, sub, bodyHash);
    if (earlier) return earlier;
    checkAgainstCatalog(sub, deps.catalog());
    // Fail fast on a name this token may not use (storeRun checks again, atomically).
    if (sub.kind !== 'human') await ownAgent(deps.db, sub.agent, token.id);
    const turn = verifying.then(() => verifyAll(sub));
    verifying = turn.catch(() => undefined);
    await turn;
    try {
      const accepted: AcceptedRun = await storeRun(deps.db, {
        clientId: sub.id,
        tokenId: token.id,
        agent: sub.agent,
        kind: sub.kind,
        settings: sub.settings,
        learningCurve: sub.learningCurve,
        bodyHash,
        episodes: sub.episodes.map((record) => ({ record, verification: 'verified', reason: `Replayed by the server: all ${record.steps.length} steps and the totals match the record.` })),
      });
      return { status: 201, body: accepted };
    } catch (e) {
      // Another process stored the same id meanwhile: answer as a retry would be answered.
      if (isUniqueViolation(e)) {
        const again = await previousAnswer(token.id, sub, bodyHash);
        if (again) return again;
        // The other unique key a run can collide on: a new agent name claimed by another token meanwhile.
        throw new ApiError('AGENT_NAME_TAKEN', `The agent name "${sub.agent}" was just taken by another token; choose another name`);
      }
      throw e;
    }
  }

  return async function handle(request: Request): Promise<Response> {
    try {
      const token = await requireToken(deps.db, request);
      const rate = deps.limiter.take(String(token.id));
      if (!rate.ok) {
        throw new ApiError('RATE_LIMITED', `Too many submissions for this token; retry in ${rate.retryAfterS} s`, { retryAfterS: rate.retryAfterS }, { 'retry-after': String(rate.retryAfterS) });
      }
      const type = request.headers.get('content-type') ?? '';
      if (!/^application\/json\b/i.test(type)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the run as application/json (got "${type || 'no content type'}")`);
      const sub = parseSubmission(await readBody(request, maxBytes));
      if (sub.kind === 'human' && !token.admin) throw new ApiError('FORBIDDEN', 'Human reference play changes every score of its game: it needs an admin token (`arcade-gym token create --admin`)');
      const bodyHash = createHash('sha256').update(canonicalJson(sub)).digest('hex');
      const key = `${token.id}\u0000${sub.id}`;
      const running = inFlight.get(key);
      if (running && running.bodyHash !== bodyHash) {
        throw new ApiError('IDEMPOTENCY_CONFLICT', `Run id "${sub.id}" is being used by a different submission right now; use a new id`, { id: sub.id });
      }
      let answer = running?.answer;
      if (!answer) {
        answer = accept(token, sub, bodyHash).catch((e: unknown) => {
          if (e instanceof ApiError) return answerOf(e);
          throw e;
        });
        inFlight.set(key, { bodyHash, answer });
        answer.finally(() => inFlight.delete(key)).catch(() => undefined);
      }
      return toResponse(await answer);
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/runs failed:', e);
      return new ApiError('INTERNAL', 'The server failed to store the run; nothing was stored. Retry with the same id.').toResponse();
    }
  };
}
