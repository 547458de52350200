import { SeededRandom } from '../random/seeded-random';
import type { Env, StepResult } from './env';
import { whyNotContained, type Space } from './spaces';

/** One contract check: passed, failed (the env is broken), or a warning (suspicious, not wrong). */
export interface CheckResult {
  name: string;
  status: 'pass' | 'fail' | 'warn';
  message: string;
}

export interface CheckReport {
  ok: boolean;
  results: CheckResult[];
}

export interface CheckEnvOptions {
  /** Steps per test episode (episodes may end sooner). */
  steps?: number;
  /** The seeds of the determinism and isolation episodes. */
  seeds?: readonly [number, number];
  /** Actions to play: by default random ones drawn from a Discrete action space. */
  actions?: (step: number, random: () => number) => unknown;
  /** Extra checks on every reset and step result (for a family of envs, e.g. arcade games). */
  inspect?: (kind: 'reset' | 'step', result: { observation: unknown; info: unknown }) => string | null;
}

/** A comparable, deterministic form of any observation or info (typed arrays as arrays, Buffers as base64). */
export function canonical(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) => {
    if (v instanceof Uint8Array && typeof Buffer !== 'undefined' && Buffer.isBuffer(v)) return `bytes:${v.toString('base64')}`;
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
    return v;
  });
}

function spaceProblem(space: unknown, name: string): string | null {
  if (!space || typeof space !== 'object' || typeof (space as { type?: unknown }).type !== 'string') return `${name} is not a space (an object with a "type")`;
  return null;
}

type Trajectory = { reset: string; steps: string[]; ended: boolean };

/**
 * Gymnasium's env checker for any Env: spaces known before reset and honoured by every
 * observation; reset and step results of the right shape and types; the same seed and actions
 * give the same trajectory (determinism), also after an episode with another seed in between
 * (reset isolation); stepping an ended episode is refused or harmless. Never throws for a
 * broken env: every problem is a result in the report.
 */
export async function checkEnv<Obs, Act>(env: Env<Obs, Act>, options: CheckEnvOptions = {}): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const add = (name: string, problem: string | null, warnOnly = false) =>
    results.push({ name, status: problem === null ? 'pass' : warnOnly ? 'warn' : 'fail', message: problem ?? 'ok' });
  const steps = options.steps ?? 20;
  const [seedA, seedB] = options.seeds ?? [11, 12];

  const spaceIssue = spaceProblem(env.observationSpace, 'observationSpace') ?? spaceProblem(env.actionSpace, 'actionSpace');
  add('spaces are known before the first reset', spaceIssue);
  if (spaceIssue) return { ok: false, results };
  const obsSpace: Space = env.observationSpace;
  const actSpace: Space = env.actionSpace;

  const actionFor = (step: number, random: () => number): unknown => {
    if (options.actions) return options.actions(step, random);
    if (actSpace.type === 'Discrete') return Math.floor(random() * actSpace.n);
    throw new Error(`checkEnv: give options.actions for a ${actSpace.type} action space`);
  };
  const shapeProblems: string[] = [];
  const noteShape = (kind: 'reset' | 'step', r: Partial<StepResult<unknown>>) => {
    const at = `${kind} ${kind === 'step' ? shapeProblems.length : ''}`.trim();
    const why = whyNotContained(obsSpace, r.observation, `${at}: observation`);
    if (why) shapeProblems.push(why);
    if (!r.info || typeof r.info !== 'object') shapeProblems.push(`${at}: info is not an object`);
    if (kind === 'step') {
      if (typeof r.reward !== 'number' || !Number.isFinite(r.reward)) shapeProblems.push(`${at}: reward ${String(r.reward)} is not a finite number`);
      if (typeof r.terminated !== 'boolean') shapeProblems.push(`${at}: terminated is not a boolean`);
      if (typeof r.truncated !== 'boolean') shapeProblems.push(`${at}: truncated is not a boolean`);
    }
    const extra = options.inspect?.(kind, { observation: r.observation, info: r.info });
    if (extra) shapeProblems.push(`${at}: ${extra}`);
  };

  /** One episode from `seed` with actions from a generator seeded by `seed`. */
  const play = async (seed: number): Promise<Trajectory> => {
    const random = new SeededRandom(seed ^ 0xc4ec);
    const reset = await env.reset({ seed });
    noteShape('reset', reset);
    const t: Trajectory = { reset: canonical(reset), steps: [], ended: false };
    for (let i = 0; i < steps; i++) {
      const action = actionFor(i, () => random.next());
      const why = whyNotContained(actSpace, action, 'action');
      if (why && actSpace.type === 'Discrete') throw new Error(`checkEnv: the action generator made an action outside the action space: ${why}`);
      const r = await env.step(action as Act);
      noteShape('step', r);
      t.steps.push(canonical(r));
      if (r.terminated || r.truncated) {
        t.ended = true;
        break;
      }
    }
    return t;
  };

  let a1: Trajectory, b: Trajectory, a2: Trajectory;
  try {
    a1 = await play(seedA);
    b = await play(seedB);
    a2 = await play(seedA);
  } catch (e) {
    add('reset and step run', `${e instanceof Error ? e.message : String(e)}`);
    return { ok: false, results };
  }
  add('reset and step run', null);
  add('results have the Gymnasium shape and honour the spaces', shapeProblems.length ? shapeProblems.slice(0, 5).join('; ') : null);

  const firstDiff = (x: Trajectory, y: Trajectory): string | null => {
    if (x.reset !== y.reset) return 'the reset observations differ';
    const n = Math.max(x.steps.length, y.steps.length);
    for (let i = 0; i < n; i++) if (x.steps[i] !== y.steps[i]) return `step ${i + 1} differs`;
    return null;
  };
  const diff = firstDiff(a1, a2);
  add('determinism: the same seed and actions give the same episode, after another episode in between (reset isolation)', diff && `seed ${seedA}: ${diff}`);
  add(
    'the seed matters: another seed gives another episode',
    a1.reset === b.reset && a1.steps.join() === b.steps.join() ? `seeds ${seedA} and ${seedB} gave identical episodes` : null,
    true,
  );

  if (a2.ended) {
    try {
      await env.step(actionFor(0, () => 0) as Act);
      add('stepping an ended episode is refused', 'step() after the episode ended was accepted (Gymnasium leaves it undefined; the gym refuses it)', true);
    } catch {
      add('stepping an ended episode is refused', null);
    }
  }
  return { ok: results.every((r) => r.status !== 'fail'), results };
}

/** The report as lines for a person: failures and warnings first. */
export function formatCheckReport(report: CheckReport): string {
  const order = { fail: 0, warn: 1, pass: 2 } as const;
  return [...report.results]
    .sort((x, y) => order[x.status] - order[y.status])
    .map((r) => `${r.status === 'pass' ? 'ok  ' : r.status === 'warn' ? 'warn' : 'FAIL'}  ${r.name}${r.status === 'pass' ? '' : `: ${r.message}`}`)
    .join('\n');
}
