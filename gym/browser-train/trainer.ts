import type { AutoresetMode } from '../core/vector-env';
import type { CatalogEntry } from '../catalog-schema';
import type { Backend } from '../nn/backend';
import { createBackend, type BackendChoice } from '../nn/factory';
import { parsePpoConfig, type PpoConfig, type PpoConfigInput } from '../ppo/config';
import type { PolicyAgent } from '../ppo/policy-agent';
import type { TrainingEnv } from '../ppo/rollout';
import { train, type TrainResult, type UpdateMetrics } from '../ppo/train';
import { actionOptions, type TrainingActionOptions } from '../ppo/training-env';
import type { FrameEnv } from './frame-env';
import { MemoryRunWriter } from './memory-writer';
import { PauseGate } from './pause-gate';
import { cartPoleVectorEnv, frameVectorEnv } from './frame-vector-env';
import { ActionSet, gameSpecificActions, macroPlannerFor } from '../actions';
import type { MacroPlanner } from '../core/wrappers/macro-action';

/**
 * What a run needs, as `arcade-gym train` resolves it (resolveTraining, gym/ppo/training-run.ts): the command's
 * settings, the preset file they started from and the algorithm's config. They are written
 * as the first line of metrics.jsonl, as the CLI writes them.
 */
export interface BrowserRunSettings {
  command: { game: string; numEnvs: number; seed: number; autoreset: AutoresetMode; observation: string; actions?: ActionSet; [k: string]: unknown };
  preset: string | null;
  /** Where the settings started: the game's preset, or the generic agent (gym/ppo/generic-agent.ts). */
  agent: 'preset' | 'generic';
  ppo: PpoConfigInput;
}

export interface BrowserTrainOptions {
  settings: BrowserRunSettings;
  /** The game's catalog entry; null trains CartPole (no game page). */
  game: CatalogEntry | null;
  /** Where the instances' frames go (games only). */
  container?: HTMLElement;
  backend?: BackendChoice;
  /** Called after each update (after its metrics line is written). */
  onUpdate?: (m: UpdateMetrics) => void;
}

export type RunStatus = 'starting' | 'running' | 'paused' | 'stopping' | 'finished' | 'failed';

/**
 * A PPO run in this page: gym/ppo's `train()` on an in-page vector env (game frames or
 * CartPole), on WebGPU (`navigator.gpu`) or the CPU backend, writing to memory.
 * Pause holds the env between steps; stop ends the run after the current update and
 * still writes the final checkpoint and policy, as a budget's end does.
 * `BrowserTrainingRun.start` makes one.
 */
export class BrowserTrainingRun {
  readonly config: PpoConfig;
  readonly writer: MemoryRunWriter;
  readonly frames: FrameEnv[];
  readonly done: Promise<TrainResult>;
  status: RunStatus = 'starting';
  backend: Backend | null = null;
  /** Why the CPU backend runs when WebGPU was asked for with 'auto' (null: it was not). */
  backendNotice: string | null = null;
  error: unknown = null;
  private readonly gate: PauseGate<ArrayLike<number>, number>;
  private stopRequested = false;
  /** The preset's action set on a game (gym/actions), as `arcade-gym train` trains it; null: the game's keys. */
  private readonly actions: { set: ActionSet; planner: MacroPlanner<number>; keysPressed: () => number } | null = null;
  /** Whether the policy acts through the game's own decisions (a game-specific preset): in the config line and the submission. */
  readonly gameSpecific: boolean;

  /**
   * Starts a run. When the run's action set is one of the game's own (a game-specific preset),
   * the game's decisions script (its catalog entry's `decisions.script`) is loaded into this page
   * first, once per page.
   */
  static async start(options: BrowserTrainOptions): Promise<BrowserTrainingRun> {
    const { settings, game } = options;
    if (game && settings.command.observation !== 'vector') {
      throw new Error(`in-page training reads feature vectors; observation "${settings.command.observation}" is not supported here`);
    }
    const set = game ? ActionSet.optional().parse(settings.command.actions) : undefined;
    const planner = game ? await macroPlannerFor(set, game) : null;
    return new BrowserTrainingRun(options, set && planner ? { set, planner } : null);
  }

  private constructor(
    readonly options: BrowserTrainOptions,
    decisions: { set: ActionSet; planner: MacroPlanner<number> } | null,
  ) {
    const { settings, game } = options;
    const c = settings.command;
    this.config = parsePpoConfig(settings.ppo);
    this.gameSpecific = gameSpecificActions(decisions?.set);
    // The CLI's config line (configRecord in gym/ppo/training-run.ts), field for field.
    this.writer = new MemoryRunWriter({
      kind: 'config',
      command: c,
      preset: settings.preset,
      agent: settings.agent,
      gameSpecific: this.gameSpecific,
      ppo: this.config,
    });
    let env: TrainingEnv;
    if (game) {
      if (!options.container) throw new Error('training on a game needs a container element for its frames');
      const planner = decisions?.planner ?? null;
      const made = frameVectorEnv({ game, numEnvs: c.numEnvs, seed: c.seed, autoreset: c.autoreset, container: options.container, planner });
      if (decisions) this.actions = { ...decisions, keysPressed: () => made.env.primitiveSteps };
      env = made.env;
      this.frames = made.frames;
    } else {
      env = cartPoleVectorEnv(c.numEnvs, c.seed, c.autoreset);
      this.frames = [];
    }
    this.gate = new PauseGate(env);
    this.done = this.run(game);
  }

  private async run(game: CatalogEntry | null): Promise<TrainResult> {
    try {
      this.backend = await createBackend(this.options.backend ?? 'auto', {
        notice: (message) => {
          this.backendNotice = message;
        },
      });
      const n = game ? game.featureNames.length : 4;
      this.status = this.gate.paused ? 'paused' : 'running';
      // The CLI's trainer options for the action set: over macro decisions the budget is in keys pressed.
      const a = this.actions;
      const c = this.options.settings.command;
      const keys = {
        get primitiveSteps() {
          return a?.keysPressed() ?? 0;
        },
      };
      const { stopWhen, obsShape, ...actions }: TrainingActionOptions = game
        ? actionOptions({ actions: a?.set, totalTimesteps: c.totalTimesteps as number }, game, a?.planner ?? null, keys)
        : { numActions: 2 };
      const result = await train({
        env: this.gate,
        obsShape: obsShape ?? [n],
        ...actions,
        backend: this.backend,
        config: this.config,
        writer: this.writer,
        onUpdate: (m) => this.options.onUpdate?.(m),
        stopWhen: () => this.stopRequested || (stopWhen?.() ?? false),
      });
      this.status = 'finished';
      return result;
    } catch (e) {
      this.status = 'failed';
      this.error = e;
      throw e;
    } finally {
      await this.gate.close();
    }
  }

  get paused(): boolean {
    return this.gate.paused;
  }

  pause(): void {
    if (this.status === 'finished' || this.status === 'failed') return;
    this.gate.pause();
    if (this.status === 'running') this.status = 'paused';
  }

  resume(): void {
    this.gate.resume();
    if (this.status === 'paused') this.status = 'running';
  }

  /** Ends the run after the current update (the final checkpoint and policy are still written). */
  stop(): void {
    if (this.status === 'finished' || this.status === 'failed') return;
    this.stopRequested = true;
    this.status = 'stopping';
    this.gate.resume();
  }

  /** The trained policy (once finished). */
  get policy(): PolicyAgent | null {
    return this.writer.policyAgent;
  }
}
