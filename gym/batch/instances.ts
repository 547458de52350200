/** The batched vector env's bookkeeping: its sub-envs (instances), the steps in flight and its pages. */
import type { EpisodeAccount } from '../env/episode-account';
import type { Observation } from '../env/observation';
import type { PageSlot } from '../pool/browser-pool';
import type { EpisodeOutcome, FaultCause, PooledStepInfo, RecoveryEvent } from '../pool/outcome';
import type { SeededRandom } from '../random/seeded-random';
import type { Action, GuiAction } from '../schema/action';
import type { BatchedPage } from './batched-page';
import type { Seen } from './page-replay';

/** Sub-env i: where it lives, its seed sequence and its episode. */
export interface Instance {
  index: number;
  page: number;
  slot: number;
  seeds: SeededRandom;
  seeded: boolean;
  /** The seed of a reset that failed, reused by the next reset without a seed (as ArcadeEnv does). */
  pendingSeed: number | null;
  seed: number;
  episode: EpisodeAccount | null;
  /** The episode's actions (for replays) and what each step read, the reset's reading first. */
  actions: GuiAction[];
  seen: Seen[];
  recoveries: RecoveryEvent[];
  /** This episode's outcome has been reported. */
  reported: boolean;
  /** How the episode ended when the gym ended it (given up, abandoned). */
  endOutcome: EpisodeOutcome | null;
  lastObservation: Observation | undefined;
  lastInfo: PooledStepInfo | undefined;
}

/** A step on its way through the page, with its fault bookkeeping. */
export interface PendingStep {
  inst: Instance;
  recorded: Action;
  gui: GuiAction;
  /** Faults charged to this instance in this step. */
  faults: number;
  /** Times it had to be rebuilt in this step (its own faults, or its page's). */
  rebuilds: number;
  cause: FaultCause | null;
  started: number;
}

/** A sub-env's answer to one step. */
export interface Answer {
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: PooledStepInfo;
}

export interface PageHolder {
  index: number;
  slot: PageSlot | null;
  page: BatchedPage | null;
  instances: Instance[];
}
