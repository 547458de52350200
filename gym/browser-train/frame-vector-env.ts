import { SyncVectorEnv } from '../core/sync-vector-env';
import type { AutoresetMode } from '../core/vector-env';
import type { MacroPlanner } from '../core/wrappers/macro-action';
import { withDecisions } from '../actions';
import type { CatalogEntry } from '../catalog-schema';
import { CartPoleVectorEnv } from '../cartpole';
import type { TrainingEnv } from '../ppo/rollout';
import { wrapTrainingEnv } from '../ppo/training-env';
import type { RewardShaping } from '../schema/records';
import { FrameEnv } from './frame-env';

export interface FrameVectorEnvOptions {
  game: CatalogEntry;
  numEnvs: number;
  /** Env i's own seed is seed + i (as makeVectorEnv's sub-envs). */
  seed: number;
  autoreset: AutoresetMode;
  /** Where the instances' frames go (created here, one per env). */
  container: HTMLElement;
  maxSteps?: number;
  shaping?: RewardShaping;
  /** The preset's action set (gym/actions), as `arcade-gym train` wraps its pages with it; null: the game's keys. */
  planner?: MacroPlanner<number> | null;
}

/**
 * `numEnvs` game instances as same-origin iframes of this page, in Gymnasium's SyncVectorEnv
 * (the autoreset modes, seeds and infos the gym's batched vector env also has), seen through
 * the verifier's feature vector (or the planner's decisions and their afterstates) by the same
 * wrappers `arcade-gym train` puts over its pages; `env.primitiveSteps` counts the keys pressed.
 */
export function frameVectorEnv(o: FrameVectorEnvOptions): { env: TrainingEnv & { primitiveSteps: number }; frames: FrameEnv[] } {
  const frames: FrameEnv[] = [];
  const venv = new SyncVectorEnv(
    Array.from({ length: o.numEnvs }, (_, i) => () => {
      const iframe = o.container.ownerDocument.createElement('iframe');
      iframe.title = `${o.game.manifest.title} instance ${i}`;
      iframe.dataset.instance = String(i);
      o.container.appendChild(iframe);
      const env = new FrameEnv(iframe, o.game, { seed: (o.seed + i) >>> 0, maxSteps: o.maxSteps, shaping: o.shaping });
      frames.push(env);
      return o.planner ? withDecisions(env, o.planner) : env;
    }),
    { autoreset: o.autoreset },
  );
  // The CLI's wrapper stack; the in-page trainer reads single feature vectors (no frame stacking).
  return { env: wrapTrainingEnv(venv, { observation: 'vector', frameStack: 1 }) as TrainingEnv & { primitiveSteps: number }, frames };
}

/** CartPole, the environment that needs no game page: as gym/ppo's tests and benchmarks build it. */
export function cartPoleVectorEnv(numEnvs: number, seed: number, autoreset: AutoresetMode): TrainingEnv {
  return new CartPoleVectorEnv(numEnvs, { seed, autoreset });
}
