import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { defaultServerUrl, ticketSidecar } from '../../leaderboard/client';
import { AgentName, LearningCurve, type RunSubmissionInput } from '../../leaderboard/submission-schema';
import { TicketJson } from '../../leaderboard/ticket-schema';
import { ObservationKind, EpisodeRecord } from '../../gym/schema';
import { type Command, intOption, stringOption, switchFlags, UsageError, valueFlags } from '../command';
import { serverAuth } from '../leaderboard-ticket';
import { submitPolicyRun } from '../policy-run';
import { sendRun } from '../send-run';

/** The flags of a policy run (--checkpoint) and those of a run file, which exclude each other. */
const POLICY_FLAGS = ['game', 'suite', 'mode', 'seeds'];
const RUN_FILE_FLAGS = ['id', 'observation', 'harness', 'model', 'code-version', 'kind', 'learning-curve', 'ticket', 'detach'];

async function runPolicy(values: Record<string, unknown>, positionals: string[]): Promise<void> {
  if (positionals.length) throw new UsageError(`--checkpoint submits a policy, not run files (got ${positionals.join(' ')})`);
  const stray = RUN_FILE_FLAGS.filter((k) => values[k] !== undefined);
  if (stray.length) throw new UsageError(`${stray.map((k) => `--${k}`).join(', ')} ${stray.length === 1 ? 'is' : 'are'} for run files, not --checkpoint`);
  const gameId = stringOption(values, 'game');
  const suite = stringOption(values, 'suite');
  if (!gameId === !suite) throw new UsageError('--checkpoint needs exactly one of --game <id> or --suite <name>: what the server plays it on');
  const mode = stringOption(values, 'mode') ?? 'greedy';
  if (mode !== 'greedy' && mode !== 'sample') throw new UsageError(`--mode must be greedy or sample, got "${mode}"`);
  const agent = stringOption(values, 'agent') ?? os.userInfo().username;
  const name = AgentName.safeParse(agent);
  if (!name.success) throw new UsageError(`--agent "${agent}" is not an agent name: ${name.error.issues[0].message}`);
  await submitPolicyRun(serverAuth(values, 'submit --checkpoint'), {
    checkpoint: String(values.checkpoint),
    agent,
    ...(gameId ? { gameId } : { suite }),
    ...(values.seeds !== undefined ? { seedsPerGame: intOption(values, 'seeds', 3, 1) } : {}),
    mode,
    waitTimeoutS: intOption(values, 'wait-timeout', 3600, 1),
  });
}

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

export const submitCommand: Command = {
  name: 'submit',
  summary: 'Submit episode records (eval --out) to the leaderboard, where each is replayed and verified',
  usage:
    'arcade-gym submit --checkpoint policy.agckpt (--game ID | --suite S) [--agent NAME] [--mode greedy|sample] [--seeds N] [--server URL] [--token T] [--wait-timeout S]\n' +
    '  hands a trained policy to the server, whose workers play it on seeds it draws and shows only once the run is in.\n' +
    'arcade-gym submit run.jsonl [--server URL] [--token T] [--agent NAME] [--id ID] [--ticket ID] [--observation state,vector] [--harness H] [--model M] [--code-version V] [--kind evaluation|training|human] [--learning-curve curve.json] [--detach] [--wait-timeout S]\n' +
    '  --token defaults to $ARCADE_TOKEN, --server to $ARCADE_SERVER_URL or http://127.0.0.1:$PORT (3000), --agent to your user name,\n' +
    '  --id to a hash of the file (so submitting the same file twice stores it once), --ticket to the one `eval` wrote beside the file\n' +
    '  (without a ticket the run is stored unranked). It waits for the server to replay the run (--detach: only until it is queued)\n' +
    '  and exits 0 when it is accepted, 2 when it is refused, 3 when it is accepted but nothing of it is ranked (the reason on one line).',
  positionals: true,
  options: {
    ...valueFlags('server', 'token', 'agent', 'id', 'observation', 'harness', 'model', 'code-version', 'kind', 'learning-curve', 'ticket', 'wait-timeout'),
    ...valueFlags('checkpoint', 'game', 'suite', 'mode', 'seeds'),
    ...switchFlags('detach'),
  },
  async run({ values, positionals }) {
    if (values.checkpoint !== undefined) return runPolicy(values, positionals);
    const policyOnly = POLICY_FLAGS.filter((k) => values[k] !== undefined);
    if (policyOnly.length) throw new UsageError(`${policyOnly.map((k) => `--${k}`).join(', ')} ${policyOnly.length === 1 ? 'is' : 'are'} for --checkpoint`);
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
    let learningCurve: LearningCurve | undefined;
    const curveFile = stringOption(values, 'learning-curve');
    if (curveFile) {
      const parsed = LearningCurve.safeParse(JSON.parse(await readFile(curveFile, 'utf8')));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UsageError(`${curveFile}: expected a JSON array of { step, meanReturn, … } (at "${issue.path.join('.')}": ${issue.message})`);
      }
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
    await sendRun({ server, token }, input, { detach: values.detach === true, waitTimeoutS: intOption(values, 'wait-timeout', 3600, 1) });
  },
};
