import { ArcadeGymError } from '../errors';
import { shapeReward } from '../core/wrappers/reward-shaping';
import type { Action } from '../schema/action';
import { SCHEMA_VERSION, type EpisodeRecord, type RewardShaping, type StepRecord, type VerifierState } from '../schema/records';
import type { StickyActions } from '../schema/settings';
import { episodeStream, repeatsAt } from './sticky-actions';
import { verifierStateProblems } from '../schema/verifier-state';

/**
 * The bookkeeping of one episode: rewards, termination, truncation, step and episode records.
 * Pure and browser-safe, so the headless gym and a visitor's browser (replay, play) turn the
 * same verifier readings into the same records.
 */

/** Virtual time a reset advances: one animation frame, so the first observation shows a drawn frame. */
export const RESET_ADVANCE_MS = 1000 / 60;

export interface GameIdentity {
  gameId: string;
  gameVersion: string;
  verifierChecksum: string;
  runtimeVersion: string;
}

export interface EpisodeSettings {
  identity: GameIdentity;
  seed: number;
  stepBudget: number;
  msPerStep: number;
  shaping: RewardShaping;
  /** Sticky actions' p and stream seed (the episode draws from it with its own seed); absent when off. */
  sticky?: StickyActions;
}

export interface StepOutcome {
  record: StepRecord;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  done: boolean;
}

const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

/** The common case of `VerifierState.safeParse(state).success`, without zod's walk over every field (it runs on every step). */
function plainlyValid(state: unknown): boolean {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return false;
  const s = state as Record<string, unknown>;
  return finite(s.score) && typeof s.gameOver === 'boolean' && (s.level === undefined || finite(s.level)) && (s.lives === undefined || finite(s.lives));
}

/** Every reading passes here: a verifier missing `gameOver` would never end an episode, and its records would not parse. */
function checkState(gameId: string, state: unknown, when: string): void {
  if (plainlyValid(state)) return;
  const problems = verifierStateProblems(state);
  if (problems.length) throw new ArcadeGymError('INVALID_VERIFIER_STATE', `${gameId}: the verifier's state ${when} is invalid: ${problems.join('; ')}`);
}

export class EpisodeAccount {
  private score: number;
  /** The last verifier reading (shaping terms that compare states read it). */
  private lastState: VerifierState;
  private totalReward = 0;
  private stepCount = 0;
  private readonly actions: Action[] = [];
  /** What the game received last (sticky actions repeat it). */
  private lastAction: Action | null = null;
  private readonly stream: StickyActions | null;
  private readonly stepRecords: StepRecord[] = [];
  terminated = false;
  truncated = false;

  constructor(
    readonly settings: EpisodeSettings,
    initialState: VerifierState,
    /** false: count and score, but keep no step records (long training runs). */
    private readonly keepRecords = true,
  ) {
    checkState(settings.identity.gameId, initialState, 'at reset');
    this.stream = settings.sticky ? episodeStream(settings.sticky, settings.seed) : null;
    this.score = initialState.score;
    this.lastState = initialState;
  }

  get length(): number {
    return this.stepCount;
  }

  get done(): boolean {
    return this.terminated || this.truncated;
  }

  get steps(): readonly StepRecord[] {
    return this.stepRecords;
  }

  get currentScore(): number {
    return this.score;
  }

  /**
   * Under sticky actions, the action the next step gives the game instead of the one offered
   * (the previous one), or null when the offered one plays. Every step path asks here before
   * sending, and then records what the game received.
   */
  repeatedAction(): Action | null {
    return this.repeatsNext() ? this.lastAction : null;
  }

  /** Whether the next step repeats the previous action (sticky actions). */
  private repeatsNext(): boolean {
    return this.stream !== null && this.lastAction !== null && repeatsAt(this.stream, this.stepCount);
  }

  /** Accounts for one step: the action the game received and the verifier reading after it. */
  record(action: Action, state: VerifierState, virtualTimeMs: number): StepOutcome {
    if (this.done) throw new Error('EpisodeAccount: the episode has already ended');
    checkState(this.settings.identity.gameId, state, `after step ${this.stepCount + 1}`);
    const { shaping, stepBudget } = this.settings;
    const repeated = this.repeatsNext();
    const index = this.stepCount++;
    this.lastAction = action;
    const terminated = state.gameOver === true;
    const truncated = !terminated && index + 1 >= stepBudget;
    const reward = shapeReward(state.score - this.score, terminated, shaping, { before: this.lastState, after: state });
    this.score = state.score;
    this.lastState = state;
    this.totalReward += reward;
    this.terminated = terminated;
    this.truncated = truncated;
    const record: StepRecord = {
      schemaVersion: SCHEMA_VERSION,
      kind: 'step',
      ...this.settings.identity,
      step: index,
      action,
      reward,
      score: state.score,
      terminated,
      truncated,
      virtualTimeMs,
      ...(repeated ? { repeated: true as const } : {}),
      info: { state },
    };
    if (this.keepRecords) {
      this.actions.push(action);
      this.stepRecords.push(record);
    }
    return { record, reward, terminated, truncated, done: terminated || truncated };
  }

  /** Ends the episode as truncated from outside (its page was lost, or the caller stops). */
  abandon(): void {
    if (this.done) return;
    this.terminated = false;
    this.truncated = true;
  }

  episodeRecord(env: {
    viewport: { width: number; height: number };
    deviceScaleFactor: number;
    browser: { name: string; version: string };
    finalFrameHash: string;
  }): EpisodeRecord {
    const s = this.settings;
    return {
      schemaVersion: SCHEMA_VERSION,
      kind: 'episode',
      ...s.identity,
      seed: s.seed,
      stepBudget: s.stepBudget,
      msPerStep: s.msPerStep,
      viewport: env.viewport,
      deviceScaleFactor: env.deviceScaleFactor,
      ...(s.sticky ? { stickyActions: s.sticky } : {}),
      browser: env.browser,
      shaping: s.shaping,
      actions: [...this.actions],
      steps: [...this.stepRecords],
      totals: { score: this.score, reward: this.totalReward, length: this.stepCount, terminated: this.terminated, truncated: this.truncated },
      finalFrameHash: env.finalFrameHash,
    };
  }
}
