import { SyncVectorEnv } from '../core/sync-vector-env';
import type { AutoresetMode, VectorResetOptions, VectorResetResult } from '../core/vector-env';
import type { ResetInfo } from '../env/env';
import type { Observation } from '../env/observation';
import type { EnvOptionsInput } from '../env/options';
import { resolveAction } from '../env/resolve-action';
import { getGame } from '../catalog';
import { ArcadeGymError } from '../errors';
import type { Action } from '../schema/action';
import { BrowserPool } from '../pool/browser-pool';
import type { PoolOptionsInput } from '../pool/options';
import { causeOf, type EpisodeOutcome, type PooledStepInfo } from '../pool/outcome';
import { PooledEnv } from '../pool/pooled-env';
import { batchProblem } from '../batch/batched-page';
import { BatchedVectorEnv } from '../batch/batched-vector-env';
import { resolveEnvOptions } from '../env/resolve-options';
import type { PooledStepInfo as StepInfoOfPool } from '../pool/outcome';
import type { VectorEnv } from '../core/vector-env';
import type { Env } from '../core/env';

export type { AutoresetMode };
export { BatchedVectorEnv };

export interface VectorEnvOptions extends Omit<EnvOptionsInput, 'seed' | 'record'> {
  numEnvs: number;
  /** Env i's first episode uses seed + i; later ones continue each env's own seeded sequence. */
  seed?: number;
  /** Default 'next-step' (Gymnasium 1.0's). */
  autoreset?: AutoresetMode;
  /** A pool to share; by default the vector env makes its own, sized for `numEnvs` pages. */
  pool?: BrowserPool;
  poolOptions?: PoolOptionsInput;
  maxRecoveries?: number;
  /** Called with every finished episode: complete, recovered, or truncated with its cause. */
  onEpisode?: (index: number, outcome: EpisodeOutcome) => void;
  /**
   * Several game instances per browser page, stepped by one call (gym/batch): the default
   * wherever the options allow it (not for screenshots or painted pages). false: a page per env.
   */
  batched?: boolean;
  /** With `batched`: instances per page; by default the game's measured size. */
  instancesPerPage?: number;
  /**
   * A page per env, each wrapped (e.g. in gym/core's MacroAction, whose decisions take a varying
   * number of steps, which envs stepped together in one page cannot). The wrapper's actions are
   * then the vector env's, checked by `validateAction` (the wrapper's own check by default).
   */
  wrapEnv?: (env: PooledEnv, index: number) => Env<Observation, Action | number, ResetInfo, PooledStepInfo>;
  validateAction?: (action: Action | number, index: number) => void;
}

/** What makeVectorEnv gives: either kind is a gym/core VectorEnv over the same observations, actions and infos. */
export type ArcadeVectorEnv = VectorEnv<Observation, Action | number, ResetInfo, StepInfoOfPool> & {
  readonly pool: BrowserPool;
  close(): Promise<void>;
};

const DEFAULT_PAGES_PER_BROWSER = 8;

/**
 * `numEnvs` copies of one game, one page each in pooled browsers: a SyncVectorEnv of
 * PooledEnvs, so autoreset and batching are gym/core's. Pages are leased at the first reset,
 * all or none. One env's fault never breaks the batch: the pooled env rebuilds it, or ends
 * its episode as truncated with the cause in its info; an env that cannot even reset is
 * reported truncated with `resetFailure` and tried again on the next step.
 */
export class PooledVectorEnv extends SyncVectorEnv<Observation, Action | number, ResetInfo, PooledStepInfo> {
  readonly pool: BrowserPool;
  private readonly ownsPool: boolean;
  private leased = false;
  /** The pooled envs (under any wrapEnv wrappers). */
  private readonly pooled: PooledEnv[];

  constructor(options: VectorEnvOptions) {
    const { numEnvs } = options;
    if (!Number.isInteger(numEnvs) || numEnvs < 1)
      throw new ArcadeGymError('INVALID_OPTIONS', `makeVectorEnv: numEnvs must be a positive integer, got ${numEnvs}`);
    const manifest = getGame(options.game).manifest;
    const pagesPerBrowser = options.poolOptions?.pagesPerBrowser ?? DEFAULT_PAGES_PER_BROWSER;
    const pool = options.pool ?? new BrowserPool({ pagesPerBrowser, maxBrowsers: Math.ceil(numEnvs / pagesPerBrowser), ...options.poolOptions });
    const {
      numEnvs: _n,
      seed,
      autoreset,
      pool: _p,
      poolOptions: _po,
      maxRecoveries,
      onEpisode,
      batched: _b,
      instancesPerPage: _i,
      wrapEnv,
      validateAction,
      ...env
    } = options;
    const pooled: PooledEnv[] = [];
    super(
      Array.from({ length: numEnvs }, (_, i) => () => {
        const e = new PooledEnv(pool, { ...env, seed: ((seed ?? 0) + i) >>> 0 }, { maxRecoveries, onEpisodeEnd: (o) => onEpisode?.(i, o) });
        pooled.push(e);
        return wrapEnv ? wrapEnv(e, i) : e;
      }),
      {
        autoreset,
        validateAction: validateAction ?? (wrapEnv ? undefined : (a) => void resolveAction(manifest, a)),
        // Invalid options are the caller's to fix; anything else (no page, no browser) is retried on the next step.
        resetFailure: (e) => (e instanceof ArcadeGymError && e.code === 'INVALID_OPTIONS' ? null : causeOf(e)),
      },
    );
    this.pool = pool;
    this.ownsPool = !options.pool;
    this.pooled = pooled;
  }

  /** Sub-env i (under its wrapEnv wrapper, if any): for inspection, watching its page, or fault drills. */
  subEnv(i: number): PooledEnv | null {
    return this.pooled[i] ?? null;
  }

  /** Leases a page per env, all or none (a partial lease gives its pages back). */
  private async leaseAll(): Promise<void> {
    if (this.leased) return;
    const envs = this.pooled;
    const leases = await Promise.allSettled(envs.map((e) => e.lease()));
    const failed = leases.find((r) => r.status === 'rejected');
    if (failed) {
      await Promise.all(envs.map((e) => e.release().catch(() => undefined)));
      throw (failed as PromiseRejectedResult).reason;
    }
    this.leased = true;
  }

  override async reset(options: VectorResetOptions = {}): Promise<VectorResetResult<Observation, ResetInfo>> {
    await this.leaseAll();
    return super.reset(options);
  }

  /** Closes every env (episodes still running are reported as truncated, CLOSED) and the pool if it made one. */
  override async close(): Promise<void> {
    await super.close();
    if (this.ownsPool) await this.pool.close();
  }
}

/**
 * Creates a vector env; browsers start on the first reset. Batched (several instances per page,
 * gym/batch) unless `batched: false` or the options need a page per env (screenshots, painting).
 */
export function makeVectorEnv(options: VectorEnvOptions & { batched: false }): PooledVectorEnv;
export function makeVectorEnv(options: VectorEnvOptions): ArcadeVectorEnv;
export function makeVectorEnv(options: VectorEnvOptions): ArcadeVectorEnv {
  if (options.batched === false || options.wrapEnv) {
    if (options.batched && options.wrapEnv) throw new ArcadeGymError('INVALID_OPTIONS', 'makeVectorEnv: wrapEnv needs a page per env (batched: false)');
    return new PooledVectorEnv(options);
  }
  const { numEnvs: _n, seed, autoreset: _a, pool: _p, poolOptions: _po, maxRecoveries: _m, onEpisode: _o, batched, instancesPerPage: _i, ...env } = options;
  const single = resolveEnvOptions({ ...env, seed: seed ?? 0 });
  const problem = batchProblem(single.game, single.options);
  if (problem) {
    if (batched) throw new ArcadeGymError('INVALID_OPTIONS', `makeVectorEnv: ${single.game.manifest.id} cannot run batched: ${problem}`);
    return new PooledVectorEnv(options);
  }
  const { batched: _batched, ...rest } = options;
  return new BatchedVectorEnv(rest);
}
