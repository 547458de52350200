import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { z } from 'zod';
import { ApiCallError, callApi, defaultServerUrl } from '../../leaderboard/client';
import { LearningCurvePoint, RunSubmission, type AcceptedRun, type RunSubmissionInput } from '../../leaderboard/submission-schema';
import { ObservationKind } from '../../gym/env/options';
import { EpisodeRecord } from '../../gym/schema/records';
import { stringOption, UsageError, type Command } from '../command';

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

export const submitCommand: Command = {
  name: 'submit',
  summary: 'Submit episode records (eval --out) to the leaderboard, where each is replayed and verified',
  usage:
    'arcade-gym submit run.jsonl [--server URL] [--token T] [--agent NAME] [--id ID] [--observation state,vector] [--harness H] [--model M] [--code-version V] [--kind evaluation|training|human] [--learning-curve curve.json]\n' +
    '  --token defaults to $ARCADE_TOKEN, --server to $ARCADE_SERVER_URL or http://127.0.0.1:$PORT (3000), --agent to your user name,\n' +
    '  --id to a hash of the file (so submitting the same file twice stores it once).',
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
      episodes: records,
    };
    // Check locally what the server would refuse anyway, with the same schema.
    const checked = RunSubmission.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new UsageError(`invalid submission at "${issue.path.join('.')}": ${issue.message}`);
    }
    console.error(`Submitting ${records.length} episode${records.length === 1 ? '' : 's'} as "${checked.data.agent}" (run id ${checked.data.id}) to ${server}; the server replays every one, which takes a while…`);
    try {
      const { body, headers } = await callApi<AcceptedRun>(`${server}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(checked.data),
      });
      const replayed = headers.get('idempotent-replayed') === 'true';
      console.log(`${replayed ? 'Already submitted' : 'Accepted'}: run ${body.run.id}, ${body.run.episodes} episodes verified, ${body.run.ranked} ranked on ${body.run.games.join(', ')}`);
      console.log(`${server}${body.run.url}`);
    } catch (e) {
      if (!(e instanceof ApiCallError)) throw e;
      const d = e.details as { firstMismatchStep?: number | null } | undefined;
      throw new UsageError(`rejected${e.status ? ` (${e.status} ${e.code})` : ''}: ${e.message}${d?.firstMismatchStep != null ? ` [first differing step: ${d.firstMismatchStep}]` : ''}`);
    }
  },
};
