import { RewardShaping as RewardShapingSchema, canonicalJson, type RewardShaping as RewardShapingConfig, type ShapingPotential } from '../../schema/records';
import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import type { VectorEnv, VectorResetOptions, VectorResetResult, VectorStepResult } from '../vector-env';
import { VectorWrapper, Wrapper, isResetOnly, unwrapState, wrapState } from './wrapper';

/**
 * The one reward-shaping config: `perStep` added to every step's reward (negative: a length
 * penalty), `terminal` added on the step that terminates the episode (not on truncation),
 * `noOp` added on a step that left the verifier state unchanged, and `potential`, a
 * potential-based term γΦ(s′) − Φ(s) from the verifier state.
 * The same schema is the env option `shaping` (and so part of every episode record) and the
 * trainer's `rewardShaping`.
 */
export { RewardShapingSchema, type RewardShapingConfig };

/** The verifier states around one step, for the terms that read them (noOp, potential). */
export interface ShapingTransition {
  before: unknown;
  after: unknown;
}

/** Whether the config has terms that read the verifier state (then shapeReward needs the transition). */
export function readsState(c: RewardShapingConfig): boolean {
  return c.noOp !== undefined || c.potential !== undefined;
}

function board(state: unknown): number[][] {
  const b = (state as { board?: unknown } | null)?.board;
  if (!Array.isArray(b) || !b.every((row) => Array.isArray(row))) {
    throw new Error("reward shaping: the 'stack' potential needs the verifier state's board (rows of cells), and this state has none");
  }
  return b as number[][];
}

/** The board's column heights (rows top first), holes (empty cells under a filled one) — Tetris's usual features. */
export function stackFeatures(rows: readonly (readonly number[])[]): { heights: number[]; holes: number; aggregateHeight: number; bumpiness: number } {
  const cols = rows.reduce((m, r) => Math.max(m, r.length), 0);
  const heights: number[] = new Array(cols).fill(0);
  let holes = 0;
  for (let x = 0; x < cols; x++) {
    for (let y = 0; y < rows.length; y++) {
      if (rows[y][x]) {
        if (heights[x] === 0) heights[x] = rows.length - y;
      } else if (heights[x] > 0) holes++;
    }
  }
  let bumpiness = 0;
  for (let x = 0; x + 1 < cols; x++) bumpiness += Math.abs(heights[x] - heights[x + 1]);
  return { heights, holes, aggregateHeight: heights.reduce((a, h) => a + h, 0), bumpiness };
}

/** A grid position [x, y] from the state's field `key`; the error names the field when it is not one. */
function position(state: unknown, key: string): [number, number] {
  const v = (state as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new Error(`reward shaping: the 'distance' potential needs the verifier state's ${key} as [x, y], got ${JSON.stringify(v)}`);
  }
  return v as [number, number];
}

/** Φ(state) of a potential: 0 is the best stack (an empty board), or the mover on its target. */
export function potentialOf(p: ShapingPotential, state: unknown): number {
  if (p.kind === 'distance') {
    const [ax, ay] = position(state, p.from);
    const [bx, by] = position(state, p.to);
    return -p.scale * (Math.abs(ax - bx) + Math.abs(ay - by));
  }
  const f = stackFeatures(board(state));
  return -(p.holes * f.holes + p.height * f.aggregateHeight + p.bumpiness * f.bumpiness);
}

/**
 * r' = r + perStep + [terminated]·terminal, then + noOp when the state did not change, then
 * + γΦ(s′) − Φ(s) (Φ(s′) = 0 when terminated), in that order (episode records depend on it).
 */
export function shapeReward(reward: number, terminated: boolean, c: RewardShapingConfig, t?: ShapingTransition): number {
  let r = reward + c.perStep + (terminated ? c.terminal : 0);
  if (!readsState(c)) return r;
  if (!t) throw new Error('reward shaping: noOp and potential need the verifier state before and after each step (info.state)');
  if (c.noOp !== undefined && canonicalJson(t.before) === canonicalJson(t.after)) r += c.noOp;
  if (c.potential) r += c.potential.gamma * (terminated ? 0 : potentialOf(c.potential, t.after)) - potentialOf(c.potential, t.before);
  return r;
}

export function isShaping(c: RewardShapingConfig): boolean {
  return c.perStep !== 0 || c.terminal !== 0 || readsState(c);
}

/** The verifier state an env's info carries (the arcade envs put it in `info.state`). */
function stateOf(info: unknown, where: string): unknown {
  const s = (info as { state?: unknown } | undefined)?.state;
  if (s === undefined) throw new Error(`reward shaping: noOp and potential read info.state, which the env's ${where} info does not have`);
  return s;
}

/** Shapes the rewards of an env (for envs whose episode records should stay unshaped, shape here rather than in the env). */
export class ShapeReward<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, Act, RInfo, SInfo> {
  readonly config: RewardShapingConfig;
  /** The verifier state before the next step (only kept when the config reads states). */
  private last: unknown = undefined;

  constructor(env: Env<Obs, Act, RInfo, SInfo>, config: Partial<RewardShapingConfig>) {
    super(env);
    this.config = RewardShapingSchema.parse(config);
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    const r = await this.env.reset(options);
    if (readsState(this.config)) this.last = stateOf(r.info, 'reset');
    return r;
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    const r = await this.env.step(action);
    if (!readsState(this.config)) return { ...r, reward: shapeReward(r.reward, r.terminated, this.config) };
    const after = stateOf(r.info, 'step');
    const reward = shapeReward(r.reward, r.terminated, this.config, { before: this.last, after });
    this.last = after;
    return { ...r, reward };
  }

  override getState(): unknown {
    return readsState(this.config) ? wrapState(this.env, { last: this.last }) : super.getState();
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as { last?: unknown } | null;
    if (readsState(this.config)) this.last = own?.last;
  }
}

/** Shapes every sub-env's rewards; next-step autoreset steps (no transition) keep reward 0. */
export class VectorShapeReward<Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo> {
  readonly config: RewardShapingConfig;
  /** Each sub-env's verifier state before its next step (only kept when the config reads states). */
  private last: unknown[] = [];

  constructor(env: VectorEnv<Obs, Act, RInfo, SInfo>, config: Partial<RewardShapingConfig>) {
    super(env);
    this.config = RewardShapingSchema.parse(config);
  }

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, RInfo>> {
    const r = await this.env.reset(options);
    if (readsState(this.config)) this.last = r.infos.map((info) => (info as { state?: unknown }).state);
    return r;
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    if (!readsState(this.config)) {
      const rewards = Float64Array.from(r.rewards, (x, i) => (isResetOnly(r.infos[i]) ? x : shapeReward(x, r.terminated[i], this.config)));
      return { ...r, rewards };
    }
    const rewards = new Float64Array(r.rewards.length);
    for (let i = 0; i < rewards.length; i++) {
      const info = r.infos[i] as { autoreset?: boolean; state?: unknown; finalInfo?: unknown; resetInfo?: { state?: unknown } };
      if (isResetOnly(info)) {
        // A reset (next-step autoreset, or a failed one): no transition; the new episode starts here.
        rewards[i] = r.rewards[i];
        this.last[i] = info.resetInfo?.state;
        continue;
      }
      // Same-step autoreset: the step's own info is finalInfo, and the next episode starts at resetInfo.
      const ended = info.finalInfo !== undefined;
      const after = stateOf(ended ? info.finalInfo : info, 'step');
      rewards[i] = shapeReward(r.rewards[i], r.terminated[i], this.config, { before: this.last[i], after });
      this.last[i] = ended ? info.resetInfo?.state : after;
    }
    return { ...r, rewards };
  }

  override getState(): unknown {
    return readsState(this.config) ? wrapState(this.env, { last: this.last }) : super.getState();
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as { last?: unknown[] } | null;
    if (readsState(this.config)) this.last = own?.last ?? [];
  }
}
