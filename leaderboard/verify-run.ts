/**
 * One verification job: replay every episode of a queued submission, hold each submitted record
 * against its replay, and store the run as replayed, or record why it was rejected. The status a
 * client polls is the submission's row; this is the only code that moves it past "queued".
 */
import { eq } from 'drizzle-orm';
import { FRAME_HASH_UNAVAILABLE, type VerificationResult } from '../gym/eval';
import { canonicalJson, type EpisodeRecord } from '../gym/schema';
import { submissions } from '../drizzle/schema';
import { ApiError } from './api-error';
import type { Db } from './db';
import { isUniqueViolation, storeRun } from './ingest';
import { RunSubmission, type AcceptedRun } from './submission-schema';
import { releaseTicketOnce } from './tickets';
import { batchedVerifier, type VerifierBrowsers } from './verifier-browser';
import { BudgetSpentError, type JobRunner } from './verification-queue';

/** Re-simulates one episode; the signal aborts it (the job's budget is spent). */
export type VerifyEpisode = (record: EpisodeRecord, signal?: AbortSignal) => Promise<VerificationResult>;

export interface VerifyRunDeps {
  db: Db;
  verify: VerifyEpisode;
  /** Episodes of one submission replayed at once (default 2: a small machine's two cores). */
  episodeConcurrency?: number;
}

/** What only the client can know: everything else in a record must be what the replay gives. */
const CLAIMED_ONLY: ReadonlySet<string> = new Set(['browser']);

/** The first field where a submitted record contradicts its replay (a dotted path), or null. */
export function contradiction(claimed: EpisodeRecord, replayed: EpisodeRecord): { field: string; claimed: unknown; replayed: unknown } | null {
  const walk = (a: unknown, b: unknown, path: string): { field: string; claimed: unknown; replayed: unknown } | null => {
    if (canonicalJson(a) === canonicalJson(b)) return null;
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        const d = walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
        if (d) return d;
      }
    }
    return { field: path, claimed: a, replayed: b };
  };
  for (const key of Object.keys(replayed).sort()) {
    if (CLAIMED_ONLY.has(key)) continue;
    // A client that could not hash its last frame (another browser draws other pixels) says so; the replay's is stored.
    if (key === 'finalFrameHash' && claimed.finalFrameHash === FRAME_HASH_UNAVAILABLE) continue;
    const d = walk((claimed as Record<string, unknown>)[key], (replayed as Record<string, unknown>)[key], key);
    if (d) return d;
  }
  return null;
}

const short = (x: unknown) => JSON.stringify(x)?.slice(0, 120);

async function replayAll(deps: VerifyRunDeps, sub: RunSubmission, signal: AbortSignal, onVerified: (n: number) => void): Promise<EpisodeRecord[]> {
  // A few episodes at a time; once one fails, only those before it are still checked, so the
  // error names the first bad episode.
  const results: (VerificationResult | undefined)[] = [];
  let next = 0;
  let firstFailure = Infinity;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < sub.episodes.length && i < firstFailure && !signal.aborted; i = next++) {
      const result = await deps.verify(sub.episodes[i], signal);
      results[i] = result;
      if (!result.ok) firstFailure = Math.min(firstFailure, i);
      else onVerified(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.episodeConcurrency ?? 2, sub.episodes.length) }, worker));
  if (signal.aborted) throw signal.reason instanceof BudgetSpentError ? signal.reason : new BudgetSpentError(0);
  if (firstFailure !== Infinity) {
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
  const replayed = results.map((r) => (r as Extract<VerificationResult, { ok: true }>).replayed);
  replayed.forEach((r, i) => {
    const c = contradiction(sub.episodes[i], r);
    if (!c) return;
    const record = sub.episodes[i];
    throw new ApiError(
      'VERIFICATION_FAILED',
      `Episode ${i} (${record.gameId}, seed ${record.seed}): "${c.field}" says ${short(c.claimed)}, the replay gives ${short(c.replayed)}`,
      {
        episode: i,
        gameId: record.gameId,
        seed: record.seed,
        field: c.field,
        claimed: c.claimed,
        replayed: c.replayed,
        firstMismatchStep: null,
      },
    );
  });
  return replayed;
}

function errorResult(e: ApiError) {
  return { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } };
}

/**
 * A rejection that is the server's doing (timeout, internal failure) is no verdict on the run:
 * its ticket is released once, so the same records can be sent again, and the message says
 * whether it was (`details.ticketReleased`).
 */
async function serverSideRejection(db: Db, row: { id: string; ticketId: string | null }, e: ApiError): Promise<ApiError> {
  if (!row.ticketId) return e;
  // The database may be what failed: then the rejection is still recorded, with the ticket kept.
  const released = await releaseTicketOnce(db, row.ticketId, row.id).catch(() => null);
  const note =
    released === true
      ? ` This was the server's doing, so ticket ${row.ticketId} was released (once per ticket): submit the same records again, under a new id.`
      : released === false
        ? ` Ticket ${row.ticketId} stays used: it was already released once after a server-side rejection.`
        : ` Ticket ${row.ticketId} could not be released just now and stays used.`;
  return new ApiError(e.code, e.message.replace(/\.?$/, '.') + note, { ...(e.details ?? {}), ticketReleased: released === true }, e.headers);
}

/** The job: a submission that is not queued (or was left verifying by a stopped server) is left alone. */
export async function verifySubmission(deps: VerifyRunDeps, submissionId: string, signal: AbortSignal): Promise<void> {
  const { db } = deps;
  const [row] = await db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!row || (row.status !== 'queued' && row.status !== 'verifying')) return;
  const finish = async (set: Partial<typeof submissions.$inferInsert>) => {
    await db
      .update(submissions)
      .set({ ...set, finishedAt: new Date() })
      .where(eq(submissions.id, submissionId));
  };
  const parsed = RunSubmission.safeParse(row.body);
  if (!parsed.success) {
    await finish({
      status: 'rejected',
      body: null,
      result: errorResult(
        await serverSideRejection(db, row, new ApiError('INTERNAL', 'The stored submission could not be read back; submit it again under a new id.')),
      ),
    });
    return;
  }
  const sub = parsed.data;
  await db.update(submissions).set({ status: 'verifying', startedAt: new Date(), verified: 0 }).where(eq(submissions.id, submissionId));
  try {
    const replayed = await replayAll(deps, sub, signal, (n) => {
      void db
        .update(submissions)
        .set({ verified: n })
        .where(eq(submissions.id, submissionId))
        .catch(() => undefined);
    });
    if (signal.aborted) throw signal.reason;
    const accepted: AcceptedRun = await storeRun(db, {
      clientId: sub.id,
      tokenId: row.tokenId,
      agent: sub.agent,
      kind: sub.kind,
      settings: sub.settings,
      learningCurve: sub.learningCurve,
      bodyHash: row.bodyHash,
      ticketId: row.ticketId,
      receivedAt: row.createdAt,
      episodes: replayed.map((record, i) => ({
        record,
        claimed: { browser: sub.episodes[i].browser },
        reason: `Replayed by the server (${record.browser.name} ${record.browser.version}): all ${record.steps.length} steps, the totals and the final frame match the record, which is stored as replayed.`,
      })),
    });
    await finish({ status: 'accepted', body: null, verified: replayed.length, runId: accepted.run.id, result: accepted });
  } catch (e) {
    if (signal.aborted && !(signal.reason instanceof BudgetSpentError)) {
      // The queue is shutting down, not judging: back to the queue, to be verified after a restart.
      await db.update(submissions).set({ status: 'queued', startedAt: null, verified: 0 }).where(eq(submissions.id, submissionId));
      return;
    }
    // A spent budget closes the job's browser, so what the replay throws may be that closing (a page
    // gone while it measured or stepped) rather than the budget's own error: the budget is the cause.
    const budget = e instanceof BudgetSpentError ? e : signal.reason instanceof BudgetSpentError ? signal.reason : null;
    if (budget) {
      const err = new ApiError(
        'VERIFICATION_TIMEOUT',
        `Verification took longer than this submission's budget of ${(budget.budgetMs / 1000).toFixed(1)} s; send fewer or shorter episodes per submission`,
        { budgetMs: budget.budgetMs },
      );
      await finish({ status: 'rejected', body: null, result: errorResult(await serverSideRejection(db, row, err)) });
    } else if (e instanceof ApiError) {
      await finish({ status: 'rejected', body: null, result: errorResult(e) });
    } else if (isUniqueViolation(e)) {
      // The other unique key a run can collide on: a new agent name claimed by another token meanwhile.
      await finish({
        status: 'rejected',
        body: null,
        result: errorResult(new ApiError('AGENT_NAME_TAKEN', `The agent name "${sub.agent}" was just taken by another token; choose another name`)),
      });
    } else {
      // Kept (body and all): a retry of the same submission queues it again.
      console.error(`verification of submission ${submissionId} failed:`, e);
      await finish({
        status: 'rejected',
        result: errorResult(
          await serverSideRejection(
            db,
            row,
            new ApiError('INTERNAL', 'The server failed while verifying the run; nothing was stored. Retry with the same id.'),
          ),
        ),
      });
    }
  }
}

/**
 * Episodes a browser job asks for at once: batchedVerifier replays the calls of one turn
 * together on batched pages (several episodes per page, pages side by side), so a job keeps
 * that many in flight; the first failing episode is still the one named.
 */
const BATCHED_EPISODE_CONCURRENCY = 32;

/**
 * The queue's job runner: each job replays in a browser of its own, which goes down with the job
 * if its budget runs out, on batched pages (gym/verify/verify-many.ts through `batchedVerifier`).
 */
export function browserJobRunner(db: Db, browsers: VerifierBrowsers, episodeConcurrency = BATCHED_EPISODE_CONCURRENCY): JobRunner {
  return (job, signal) =>
    browsers.run(signal, (browser) => verifySubmission({ db, verify: batchedVerifier(browser), episodeConcurrency }, job.submissionId, signal));
}
