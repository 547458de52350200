import type { ResetInfo } from '../env/env';
import type { Observation, Space } from '../env/observation';
import type { EnvOptionsInput } from '../env/options';
import { resolveAction } from '../env/resolve-action';
import { getGame } from '../catalog';
import { ArcadeGymError } from '../errors';
import type { Action } from '../schema/action';
import { BrowserPool } from '../pool/browser-pool';
import type { PoolOptionsInput } from '../pool/options';
import { causeOf, type EpisodeOutcome, type FaultCause, type PooledStepInfo } from '../pool/outcome';
import { PooledEnv } from '../pool/pooled-env';

/**
 * Gymnasium's autoreset modes (gymnasium.vector.AutoresetMode):
 * - 'next-step' (Gymnasium 1.0's default): the step on which env i's episode ends returns its
 *   final observation with terminated/truncated set; on the *next* step() env i ignores its
 *   action, resets, and returns the first observation of the new episode with reward 0,
 *   terminated = truncated = false and `infos[i].autoreset = true`.
 * - 'same-step': env i resets within the step that ends its episode; that step returns the
 *   new episode's first observation, and the last one of the finished episode is in
 *   `infos[i].finalObservation` (with its info in `infos[i].finalInfo`).
 */
export type AutoresetMode = 'next-step' | 'same-step';

export interface VectorEnvOptions extends Omit<EnvOptionsInput, 'seed' | 'record'> {
  num: number;
  /** Env i's first episode uses seed + i; later ones continue each env's own seeded sequence. */
  seed?: number;
  autoreset?: AutoresetMode;
  /** A pool to share; by default the vector env makes its own, sized for `num` pages. */
  pool?: BrowserPool;
  poolOptions?: PoolOptionsInput;
  maxRecoveries?: number;
  /** Called with every finished episode: complete, recovered, or truncated with its cause. */
  onEpisode?: (index: number, outcome: EpisodeOutcome) => void;
}

export interface VectorInfo extends Partial<PooledStepInfo> {
  /** next-step mode: this env was reset on this step; its action was ignored. */
  autoreset?: boolean;
  /** same-step mode: the last observation and info of the episode that ended on this step. */
  finalObservation?: Observation;
  finalInfo?: PooledStepInfo;
  /** Set when this env could not even reset (no browser): it is retried on the next step. */
  resetFailure?: FaultCause;
  /** The reset info of the episode this observation starts (on autoreset). */
  resetInfo?: ResetInfo;
}

export interface VectorResetResult {
  observations: Observation[];
  infos: (ResetInfo | { resetFailure: FaultCause })[];
}

export interface VectorStepResult {
  observations: Observation[];
  rewards: Float64Array;
  terminated: boolean[];
  truncated: boolean[];
  infos: VectorInfo[];
}

/** Per-sub-env bookkeeping. */
interface Slot {
  env: PooledEnv | null;
  /** next-step mode: its episode ended on the previous step. */
  needsReset: boolean;
  lastObservation: Observation;
}

const DEFAULT_PAGES_PER_BROWSER = 8;

/**
 * `num` copies of one game, stepped concurrently (one page each, in pooled browsers) with
 * batched results. One env's fault never breaks the batch: the pooled env rebuilds it, or
 * ends its episode as truncated with the cause in its info, and it resets as usual.
 */
export class VectorEnv {
  readonly num: number;
  readonly autoresetMode: AutoresetMode;
  readonly actionSpace: Space;
  readonly pool: BrowserPool;
  private readonly ownsPool: boolean;
  private readonly slots: Slot[];
  private opened: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: VectorEnvOptions) {
    const { num } = options;
    if (!Number.isInteger(num) || num < 1) throw new ArcadeGymError('INVALID_OPTIONS', `makeVectorEnv: num must be a positive integer, got ${num}`);
    const manifest = getGame(options.game).manifest;
    this.num = num;
    this.autoresetMode = options.autoreset ?? 'next-step';
    this.actionSpace = { type: 'Discrete', n: manifest.preset.length, names: manifest.preset.map((p) => p.name) };
    this.ownsPool = !options.pool;
    const pagesPerBrowser = options.poolOptions?.pagesPerBrowser ?? DEFAULT_PAGES_PER_BROWSER;
    this.pool = options.pool ?? new BrowserPool({ pagesPerBrowser, maxBrowsers: Math.ceil(num / pagesPerBrowser), ...options.poolOptions });
    this.slots = Array.from({ length: num }, () => ({ env: null, needsReset: false, lastObservation: {} }));
  }

  private envOptions(i: number): EnvOptionsInput {
    const { num: _n, seed, autoreset: _a, pool: _p, poolOptions: _po, maxRecoveries: _m, onEpisode: _o, ...env } = this.options;
    return { ...env, seed: ((seed ?? 0) + i) >>> 0 };
  }

  /** Leases a page per env (all or nothing). */
  private open(): Promise<void> {
    this.opened ??= (async () => {
      const envs = await Promise.allSettled(
        this.slots.map((_, i) =>
          PooledEnv.open(this.pool, this.envOptions(i), { maxRecoveries: this.options.maxRecoveries, onEpisodeEnd: (o) => this.options.onEpisode?.(i, o) }),
        ),
      );
      const failed = envs.find((r) => r.status === 'rejected');
      if (failed) {
        await Promise.all(envs.map((r) => (r.status === 'fulfilled' ? r.value.close() : null)));
        this.opened = null;
        throw (failed as PromiseRejectedResult).reason;
      }
      envs.forEach((r, i) => (this.slots[i].env = (r as PromiseFulfilledResult<PooledEnv>).value));
    })();
    return this.opened;
  }

  /** Sub-env i (null before the first reset): for inspection, watching its page, or fault drills. */
  subEnv(i: number): PooledEnv | null {
    return this.slots[i]?.env ?? null;
  }

  /** The single env's observation space (every sub-env has the same). */
  get singleObservationSpace(): Space | null {
    return this.slots[0].env?.env.observationSpace ?? null;
  }

  /**
   * Resets every env. A number seeds env i with seed + i (Gymnasium's convention), an array
   * gives each its own; without, each continues its own seeded sequence.
   */
  async reset(opts: { seed?: number | readonly number[] } = {}): Promise<VectorResetResult> {
    this.assertOpen();
    await this.open();
    const seedOf = (i: number): number | undefined => {
      if (opts.seed === undefined) return undefined;
      if (typeof opts.seed === 'number') return (opts.seed + i) >>> 0;
      if (opts.seed.length !== this.num) throw new ArcadeGymError('INVALID_OPTIONS', `reset: ${opts.seed.length} seeds for ${this.num} envs`);
      return opts.seed[i];
    };
    const seeds = this.slots.map((_, i) => seedOf(i));
    const results = await Promise.all(this.slots.map((s, i) => this.resetOne(s, seeds[i])));
    return { observations: results.map((r) => r.observation), infos: results.map((r) => ('failure' in r ? { resetFailure: r.failure } : r.info)) };
  }

  private async resetOne(slot: Slot, seed?: number): Promise<{ observation: Observation; info: ResetInfo } | { observation: Observation; failure: FaultCause }> {
    try {
      const r = await slot.env!.reset(seed === undefined ? {} : { seed });
      slot.needsReset = false;
      slot.lastObservation = r.observation;
      return r;
    } catch (e) {
      if (e instanceof ArcadeGymError && e.code === 'INVALID_OPTIONS') throw e;
      slot.needsReset = true;
      return { observation: slot.lastObservation, failure: causeOf(e) };
    }
  }

  /** One action per env (a preset index or a GUI action); all are validated before any env steps. */
  async step(actions: readonly (Action | number)[]): Promise<VectorStepResult> {
    this.assertOpen();
    if (!this.opened) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() first');
    await this.opened;
    if (actions.length !== this.num) throw new ArcadeGymError('INVALID_ACTION', `step: ${actions.length} actions for ${this.num} envs`);
    const manifest = this.slots[0].env!.manifest;
    actions.forEach((a) => resolveAction(manifest, a));

    const out: VectorStepResult = {
      observations: new Array(this.num),
      rewards: new Float64Array(this.num),
      terminated: new Array(this.num).fill(false),
      truncated: new Array(this.num).fill(false),
      infos: new Array(this.num),
    };
    await Promise.all(this.slots.map((slot, i) => this.stepOne(slot, actions[i], i, out)));
    return out;
  }

  private async stepOne(slot: Slot, action: Action | number, i: number, out: VectorStepResult): Promise<void> {
    if (slot.needsReset) {
      const r = await this.resetOne(slot);
      out.observations[i] = r.observation;
      if ('failure' in r) {
        out.truncated[i] = true;
        out.infos[i] = { resetFailure: r.failure };
      } else {
        out.infos[i] = { autoreset: true, resetInfo: r.info };
      }
      return;
    }
    let r;
    try {
      r = await slot.env!.step(action);
    } catch (e) {
      // A reset that failed earlier leaves no episode to step: try it again next time.
      if (e instanceof ArcadeGymError && e.code === 'RESET_NEEDED') {
        slot.needsReset = true;
        out.observations[i] = slot.lastObservation;
        out.truncated[i] = true;
        out.infos[i] = { resetFailure: { code: 'RESET_NEEDED', message: 'this env has no episode (its last reset failed): it resets on the next step' } };
        return;
      }
      throw e;
    }
    out.rewards[i] = r.reward;
    out.terminated[i] = r.terminated;
    out.truncated[i] = r.truncated;
    slot.lastObservation = r.observation;
    const ended = r.terminated || r.truncated;
    if (!ended) {
      out.observations[i] = r.observation;
      out.infos[i] = r.info;
      return;
    }
    if (this.autoresetMode === 'next-step') {
      slot.needsReset = true;
      out.observations[i] = r.observation;
      out.infos[i] = r.info;
      return;
    }
    const next = await this.resetOne(slot);
    out.observations[i] = next.observation;
    out.infos[i] = { finalObservation: r.observation, finalInfo: r.info, ...('failure' in next ? { resetFailure: next.failure } : { resetInfo: next.info }) };
  }

  private assertOpen(): void {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This vector env has been closed');
  }

  /** Closes every env (episodes still running are reported as truncated, CLOSED) and the pool if it made one. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.opened?.catch(() => undefined);
    await Promise.all(this.slots.map((s) => s.env?.close()));
    if (this.ownsPool) await this.pool.close();
  }
}

/** Creates a vector env; browsers start on the first reset. */
export function makeVectorEnv(options: VectorEnvOptions): VectorEnv {
  return new VectorEnv(options);
}
