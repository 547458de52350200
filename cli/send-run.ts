/**
 * Sending a run to the leaderboard and following it to its verdict: checked locally with the
 * server's own schema, posted to `POST /api/runs`, then its status URL polled while the server
 * replays it. `submit` and `train --submit` both send runs through here; a refusal is a
 * UsageError, so the command exits 2; a run accepted with nothing ranked exits 3 (NotRankedError).
 */
import { callApi, ApiCallError, type ServerAuth } from '../leaderboard/client';
import { RunSubmission, SubmissionStatus, type AcceptedRun, type RunSubmissionInput } from '../leaderboard/submission-schema';
import { NotRankedError, UsageError } from './command';
import { runBody } from './run-body';

const POLL_MS = 1_000;

/** Follows a submission's status URL until it is settled, showing progress; bounded by `timeoutS`. */
async function waitForVerdict(server: string, first: SubmissionStatus, timeoutS: number): Promise<SubmissionStatus> {
  let status = first;
  const until = Date.now() + timeoutS * 1000;
  const tty = process.stderr.isTTY;
  let last = '';
  while (status.submission.status === 'queued' || status.submission.status === 'verifying') {
    const s = status.submission;
    const line =
      s.status === 'queued'
        ? `queued${s.queuePosition !== null ? ` (${s.queuePosition} ahead)` : ''}…`
        : `verifying: ${s.verified}/${s.episodes} episodes replayed…`;
    if (line !== last) process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    last = line;
    if (Date.now() > until) {
      if (tty) process.stderr.write('\n');
      throw new UsageError(
        `still ${s.status} after ${timeoutS} s; follow it at ${server}${s.statusUrl} (submitting the same file again shows where it stands)`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
    status = SubmissionStatus.parse((await callApi<unknown>(`${server}${s.statusUrl}`, { method: 'GET' })).body);
  }
  if (tty && last) process.stderr.write('\r\x1b[K');
  return status;
}

export interface SendRunOptions {
  /** Return once the run is queued, without waiting for the verdict. */
  detach?: boolean;
  /** How long to wait for the verdict (seconds). */
  waitTimeoutS: number;
}

/** Sends the run; resolves with the stored run once accepted (null when detached), throws a UsageError when refused. */
export async function sendRun(auth: ServerAuth, input: RunSubmissionInput, opts: SendRunOptions): Promise<AcceptedRun | null> {
  const { server, token } = auth;
  // Check locally what the server would refuse anyway, with the same schema.
  const checked = RunSubmission.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UsageError(`invalid submission at "${issue.path.join('.')}": ${issue.message}`);
  }
  const ticketNote = checked.data.ticket ? `on ticket ${checked.data.ticket}` : 'without a ticket (it will be stored unranked)';
  console.error(
    `Submitting ${checked.data.episodes.length} episode${checked.data.episodes.length === 1 ? '' : 's'} as "${checked.data.agent}" (run id ${checked.data.id}) ${ticketNote} to ${server}…`,
  );
  let status: SubmissionStatus;
  try {
    const { body, headers } = await callApi<unknown>(`${server}/api/runs`, {
      method: 'POST',
      ...runBody(JSON.stringify(checked.data), { authorization: `Bearer ${token}` }),
    });
    status = SubmissionStatus.parse(body);
    if (headers.get('idempotent-replayed') === 'true') console.error(`Already submitted (${status.submission.status}).`);
    if (opts.detach) {
      console.log(`Queued: ${server}${status.submission.statusUrl}`);
      return null;
    }
  } catch (e) {
    if (!(e instanceof ApiCallError)) throw e;
    throw refused(e.code, e.status, e.message, e.details);
  }
  return followRun(server, status, opts.waitTimeoutS);
}

function refused(code: string, status: number, message: string, details: unknown): UsageError {
  const d = details as { firstMismatchStep?: number | null; field?: string } | undefined;
  const where = d?.field ? ` [field: ${d.field}]` : d?.firstMismatchStep != null ? ` [first differing step: ${d.firstMismatchStep}]` : '';
  return new UsageError(`rejected${status ? ` (${status} ${code})` : ` (${code})`}: ${message}${where}`);
}

/**
 * Follows a submission the server holds (sent by `sendRun`, or by the server itself for a live
 * ticket) to its verdict and reports it: the stored run once accepted; a UsageError when refused;
 * NotRankedError when stored with nothing ranked.
 */
export async function followRun(server: string, first: SubmissionStatus, waitTimeoutS: number): Promise<AcceptedRun> {
  let status: SubmissionStatus;
  try {
    status = await waitForVerdict(server, first, waitTimeoutS);
  } catch (e) {
    if (!(e instanceof ApiCallError)) throw e;
    throw refused(e.code, e.status, e.message, e.details);
  }
  if (status.error) throw refused(status.error.code, 0, status.error.message, status.error.details);
  const run = status.result!.run;
  console.log(`Accepted: run ${run.id}, ${run.episodes} episodes verified by replay, ${run.ranked} ranked on ${run.games.join(', ')}`);
  if (run.unrankedReason) console.log(`Not ranked: ${run.unrankedReason}`);
  else {
    const reasons = [...new Set(status.result!.episodes.map((e) => e.unrankedReason).filter((r): r is string => !!r))];
    for (const r of reasons.slice(0, 3)) console.log(`Not ranked (some episodes): ${r}`);
  }
  console.log(`${server}${run.url}`);
  // Stored but counting for nothing is not what a submitter wants to hear as a success: say why, in one line, and exit non-zero.
  if (run.ranked === 0) {
    const why = run.unrankedReason ?? status.result!.episodes.find((e) => e.unrankedReason)?.unrankedReason ?? 'no episode is ranked';
    throw new NotRankedError(`run ${run.id} was stored, but none of its ${run.episodes} episodes is ranked: ${why}`);
  }
  return status.result!;
}
