import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { z } from 'zod';
import { ApiCallError, callApi, defaultServerUrl, ticketSidecar } from '../../leaderboard/client';
import { LearningCurvePoint, RunSubmission, SubmissionStatus, type RunSubmissionInput } from '../../leaderboard/submission-schema';
import { TicketJson } from '../../leaderboard/ticket-schema';
import { ObservationKind } from '../../gym/env/options';
import { EpisodeRecord } from '../../gym/schema/records';
import { intOption, stringOption, UsageError, type Command } from '../command';

/** Reads `arcade-gym eval --out` output: one episode record per line. */
async function readRecords(file: string): Promise<{ records: EpisodeRecord[]; hash: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${e instanceof Error ? e.message : e}`);
  }
  const records = text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new UsageError(`${file}:${i + 1} is not JSON`);
    }
    const parsed = EpisodeRecord.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${file}:${i + 1} is not an episode record ("${issue.path.join('.')}": ${issue.message})`);
    }
    return [parsed.data];
  });
  if (records.length === 0) throw new UsageError(`${file} holds no episode records`);
  return { records, hash: createHash('sha256').update(text).digest('hex') };
}

/** The ticket a run file was played on: --ticket, else the one `eval` wrote beside the file. */
async function ticketOf(file: string, given: string | undefined): Promise<string | undefined> {
  if (given) return given;
  const sidecar = ticketSidecar(file);
  if (!existsSync(sidecar)) return undefined;
  const parsed = TicketJson.safeParse(JSON.parse(await readFile(sidecar, 'utf8')));
  if (!parsed.success) throw new UsageError(`${sidecar} is not a ticket (${parsed.error.issues[0].message})`);
  return parsed.data.id;
}

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

export const submitCommand: Command = {
  name: 'submit',
  summary: 'Submit episode records (eval --out) to the leaderboard, where each is replayed and verified',
  usage:
    'arcade-gym submit run.jsonl [--server URL] [--token T] [--agent NAME] [--id ID] [--ticket ID] [--observation state,vector] [--harness H] [--model M] [--code-version V] [--kind evaluation|training|human] [--learning-curve curve.json] [--detach] [--wait-timeout S]\n' +
    '  --token defaults to $ARCADE_TOKEN, --server to $ARCADE_SERVER_URL or http://127.0.0.1:$PORT (3000), --agent to your user name,\n' +
    '  --id to a hash of the file (so submitting the same file twice stores it once), --ticket to the one `eval` wrote beside the file\n' +
    '  (without a ticket the run is stored unranked). It waits for the server to replay the run (--detach: only until it is queued)\n' +
    '  and exits 0 when it is accepted, 2 when it is refused.',
  positionals: true,
  options: {
    server: { type: 'string' },
    token: { type: 'string' },
    agent: { type: 'string' },
    id: { type: 'string' },
    observation: { type: 'string' },
    harness: { type: 'string' },
    model: { type: 'string' },
    'code-version': { type: 'string' },
    kind: { type: 'string' },
    'learning-curve': { type: 'string' },
    ticket: { type: 'string' },
    detach: { type: 'boolean' },
    'wait-timeout': { type: 'string' },
  },
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError(`give one run file\n\nUsage: ${submitCommand.usage}`);
    const file = positionals[0];
    const token = stringOption(values, 'token') ?? process.env.ARCADE_TOKEN;
    if (!token) throw new UsageError('no API token: pass --token or set ARCADE_TOKEN (create one with `npx arcade-gym token create`)');
    const server = (stringOption(values, 'server') ?? defaultServerUrl()).replace(/\/+$/, '');
    const { records, hash } = await readRecords(file);
    const observation = (stringOption(values, 'observation') ?? 'state,vector').split(',').map((k) => {
      const parsed = ObservationKind.safeParse(k.trim());
      if (!parsed.success) throw new UsageError(`unknown observation kind "${k}" (state, vector, pixels, screenshot)`);
      return parsed.data;
    });
    let learningCurve: z.infer<typeof LearningCurvePoint>[] | undefined;
    const curveFile = stringOption(values, 'learning-curve');
    if (curveFile) {
      const parsed = z.array(LearningCurvePoint).safeParse(JSON.parse(await readFile(curveFile, 'utf8')));
      if (!parsed.success) throw new UsageError(`${curveFile}: expected a JSON array of { step, meanReturn }`);
      learningCurve = parsed.data;
    }
    const input: RunSubmissionInput = {
      id: stringOption(values, 'id') ?? `run-${hash.slice(0, 32)}`,
      agent: stringOption(values, 'agent') ?? os.userInfo().username,
      kind: (stringOption(values, 'kind') ?? 'evaluation') as RunSubmissionInput['kind'],
      settings: {
        observation,
        harness: stringOption(values, 'harness'),
        model: stringOption(values, 'model'),
        codeVersion: stringOption(values, 'code-version'),
      },
      learningCurve,
      ticket: await ticketOf(file, stringOption(values, 'ticket')),
      episodes: records,
    };
    // Check locally what the server would refuse anyway, with the same schema.
    const checked = RunSubmission.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new UsageError(`invalid submission at "${issue.path.join('.')}": ${issue.message}`);
    }
    const waitTimeoutS = intOption(values, 'wait-timeout', 3600, 1);
    const ticketNote = checked.data.ticket ? `on ticket ${checked.data.ticket}` : 'without a ticket (it will be stored unranked)';
    console.error(
      `Submitting ${records.length} episode${records.length === 1 ? '' : 's'} as "${checked.data.agent}" (run id ${checked.data.id}) ${ticketNote} to ${server}…`,
    );
    const refused = (code: string, status: number, message: string, details: unknown) => {
      const d = details as { firstMismatchStep?: number | null; field?: string } | undefined;
      const where = d?.field ? ` [field: ${d.field}]` : d?.firstMismatchStep != null ? ` [first differing step: ${d.firstMismatchStep}]` : '';
      return new UsageError(`rejected${status ? ` (${status} ${code})` : ` (${code})`}: ${message}${where}`);
    };
    let status: SubmissionStatus;
    try {
      const { body, headers } = await callApi<unknown>(`${server}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(checked.data),
      });
      status = SubmissionStatus.parse(body);
      if (headers.get('idempotent-replayed') === 'true') console.error(`Already submitted (${status.submission.status}).`);
      if (values.detach === true) {
        console.log(`Queued: ${server}${status.submission.statusUrl}`);
        return;
      }
      status = await waitForVerdict(server, status, waitTimeoutS);
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
  },
};
