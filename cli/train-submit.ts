/**
 * `arcade-gym train … --submit`: once training is done, the final policy plays a live ticket of the
 * game (play-live.ts: the server plays the seeds it keeps hidden, as `eval --live`), or with
 * --known-seeds a ticket whose seeds it gives (through the same evaluation `eval --server` runs,
 * play-evaluation.ts, in this process or as jobs with --queue). The run carries what only the
 * trainer knows: its learning curve (from metrics.jsonl), its resolved settings (config.json),
 * the backend and the checkpoint's sha256. The server replays the episodes; the rest it stores and
 * shows as claimed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ServerAuth } from '../leaderboard/client';
import {
  AgentName,
  type LearningCurvePoint,
  MAX_LEARNING_CURVE_POINTS,
  type AcceptedRun,
  type RunSubmissionInput,
  type TrainingSettings,
} from '../leaderboard/submission-schema';
import type { ObservationKind } from '../gym/schema';
import { type Command, intOption, QUEUE_FLAGS, stringOption, switchFlags, UsageError, valueFlags } from './command';
import { drawTicket, serverAuth, ticketGames, ticketSeedsOf } from './leaderboard-ticket';
import { playEvaluation, printEvaluation, type QueueChoice } from './play-evaluation';
import { playLive } from './play-live';
import { sendRun } from './send-run';

/** The flags `train` takes for --submit (merged into its options). */
export const TRAIN_SUBMIT_OPTIONS: Command['options'] = {
  ...switchFlags('submit', 'known-seeds'),
  ...valueFlags('server', 'token', 'agent', 'ticket-seeds'),
  ...QUEUE_FLAGS,
  ...valueFlags('wait-timeout'),
};

/** The flags that mean nothing without --submit. */
const NEEDS_SUBMIT = Object.keys(TRAIN_SUBMIT_OPTIONS).filter((k) => k !== 'submit');

export interface TrainSubmitPlan {
  auth: ServerAuth;
  agent: string;
  /** Seeds per game on the ticket (null: the server's default, 3). */
  ticketSeeds: number | null;
  /** Play a live ticket (the default); false: a ticket whose seeds the server gives (--known-seeds). */
  live: boolean;
  queue: QueueChoice | null;
  waitTimeoutS: number;
}

/**
 * The --submit plan from the flags, checked before training starts (a missing token found after an
 * hour of training would waste it); null without --submit.
 */
export function trainSubmitPlan(values: Record<string, unknown>, defaultAgent: string): TrainSubmitPlan | null {
  if (!values.submit) {
    const stray = NEEDS_SUBMIT.filter((k) => values[k] !== undefined);
    if (stray.length)
      throw new UsageError(
        `${stray.map((k) => `--${k}`).join(', ')} ${stray.length === 1 ? 'is' : 'are'} for --submit; add --submit or drop ${stray.length === 1 ? 'it' : 'them'}`,
      );
    return null;
  }
  if (!values.queue && (values.batch !== undefined || values.workers !== undefined))
    throw new UsageError('--batch and --workers are for --queue; add --queue or drop them');
  if (values.queue && !values['known-seeds'])
    throw new UsageError(
      "--queue plays a ticket whose seeds are known on the queue's workers; a live ticket is played on the server: add --known-seeds or drop --queue",
    );
  const auth = serverAuth(values, '--submit (the leaderboard draws a ticket for the evaluation and takes the run)');
  const agent = stringOption(values, 'agent') ?? defaultAgent;
  const name = AgentName.safeParse(agent);
  if (!name.success) throw new UsageError(`--agent "${agent}" is not an agent name: ${name.error.issues[0].message}`);
  return {
    auth,
    agent,
    ticketSeeds: values['ticket-seeds'] === undefined ? null : intOption(values, 'ticket-seeds', 3, 1),
    live: !values['known-seeds'],
    queue: values.queue
      ? { url: process.env.DATABASE_URL, batchSize: intOption(values, 'batch', 5, 1), localWorkers: intOption(values, 'workers', 2, 1) }
      : null,
    waitTimeoutS: intOption(values, 'wait-timeout', 3600, 1),
  };
}

/** The default agent name: the user's, the algorithm and the game (letters, digits, ".", "_", "-"). */
export function defaultTrainedAgentName(algo: string, game: string): string {
  const user =
    os
      .userInfo()
      .username.replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'agent';
  return `${user}-${algo}-${game}`.slice(0, 64);
}

/** A line of metrics.jsonl as far as the curve reads it (PPO's and GRPO's metrics share these names). */
const MetricsLine = z.looseObject({
  kind: z.string().optional(),
  update: z.number().int().min(0).optional(),
  globalStep: z.number().int().min(0),
  episodeReturnMean: z.number().nullable(),
  episodeLengthMean: z.number().nullable().optional(),
  policyLoss: z.number().nullable().optional(),
  valueLoss: z.number().nullable().optional(),
  entropy: z.number().nullable().optional(),
  approxKl: z.number().nullable().optional(),
  explainedVariance: z.number().nullable().optional(),
  learningRate: z.number().nullable().optional(),
});

const finite = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/**
 * The learning curve from metrics.jsonl (the last run's: the lines after its config line): one
 * point per update that has a mean episode return (an update in which no episode has ended yet has
 * none), thinned evenly to at most `max` points, the first and last always kept.
 */
export function learningCurveFrom(metricsJsonl: string, max = MAX_LEARNING_CURVE_POINTS): LearningCurvePoint[] {
  let points: LearningCurvePoint[] = [];
  metricsJsonl.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new UsageError(`metrics.jsonl:${i + 1} is not JSON`);
    }
    // The file is appended to: a run trained again into the same folder starts at its own config line.
    if (json && typeof json === 'object' && (json as { kind?: unknown }).kind === 'config') {
      points = [];
      return;
    }
    const parsed = MetricsLine.safeParse(json);
    if (!parsed.success)
      throw new UsageError(`metrics.jsonl:${i + 1} is not an update's metrics (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message})`);
    const m = parsed.data;
    const meanReturn = finite(m.episodeReturnMean);
    if (meanReturn === undefined) return;
    const point: LearningCurvePoint = {
      step: m.globalStep,
      meanReturn,
      update: m.update,
      meanLength: finite(m.episodeLengthMean),
      policyLoss: finite(m.policyLoss),
      valueLoss: finite(m.valueLoss),
      entropy: finite(m.entropy),
      approxKl: finite(m.approxKl),
      explainedVariance: finite(m.explainedVariance),
      learningRate: finite(m.learningRate),
    };
    points.push(Object.fromEntries(Object.entries(point).filter(([, v]) => v !== undefined)) as LearningCurvePoint);
  });
  if (points.length <= max) return points;
  return Array.from({ length: max }, (_, k) => points[Math.round((k * (points.length - 1)) / (max - 1))]);
}

export interface TrainedRun {
  /** The run directory (config.json, metrics.jsonl, policy.agckpt). */
  out: string;
  game: string;
  algorithm: string;
  /** The backend the policy trained on, as resolved ("auto" made concrete). */
  backend: string;
  totalTimesteps: number;
  /** What the policy reads (vector or pixels). */
  observation: ObservationKind;
  /** Greedy or sampled actions, as the training's own evaluation plays. */
  mode: 'greedy' | 'sample';
  /** The policy acts through the game's own decisions (a game-specific preset). */
  gameSpecific: boolean;
}

/** Draws the ticket, plays it with the final policy, and sends the run with its training; the stored run once accepted. */
export async function submitTrainedPolicy(run: TrainedRun, plan: TrainSubmitPlan): Promise<AcceptedRun | null> {
  const policy = path.join(run.out, 'policy.agckpt');
  const checkpointSha256 = createHash('sha256')
    .update(await readFile(policy))
    .digest('hex');
  const config = JSON.parse(await readFile(path.join(run.out, 'config.json'), 'utf8')) as Record<string, unknown>;
  const learningCurve = learningCurveFrom(await readFile(path.join(run.out, 'metrics.jsonl'), 'utf8'));
  const training: TrainingSettings = {
    algorithm: run.algorithm,
    backend: run.backend,
    totalTimesteps: run.totalTimesteps,
    checkpointSha256,
    config,
    gameSpecific: run.gameSpecific,
  };
  const harness = `arcade-gym train (${run.algorithm})`;
  if (plan.live)
    return playLive(plan.auth, {
      gameId: run.game,
      ...(plan.ticketSeeds ? { seedsPerGame: plan.ticketSeeds } : {}),
      name: plan.agent,
      agent: 'ppo',
      agentOptions: { checkpoint: policy, mode: run.mode },
      observation: [run.observation],
      claims: { harness, training, learningCurve },
      waitTimeoutS: plan.waitTimeoutS,
    });

  // Drawn now, after training: the policy cannot have seen these seeds.
  const ticket = await drawTicket(plan.auth, { gameId: run.game, ...(plan.ticketSeeds ? { seedsPerGame: plan.ticketSeeds } : {}) });
  const outPath = path.join(run.out, 'submission.jsonl');
  const results = await playEvaluation({
    games: ticketGames(ticket),
    seedsOf: ticketSeedsOf(ticket),
    agent: 'ppo',
    agentOptions: { checkpoint: policy, mode: run.mode },
    observation: [run.observation],
    outPath,
    ticket,
    queue: plan.queue,
  });
  printEvaluation(results);
  const episodes = results.flatMap((r) => r.episodes);
  const input: RunSubmissionInput = {
    id: `train-${checkpointSha256.slice(0, 16)}-${ticket.id}`,
    agent: plan.agent,
    kind: 'training',
    settings: { observation: [run.observation], harness, training },
    learningCurve,
    ticket: ticket.id,
    episodes,
  };
  return sendRun(plan.auth, input, { waitTimeoutS: plan.waitTimeoutS });
}
