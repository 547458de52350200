import type { VectorResetOptions, VectorResetResult, VectorStepResult } from '../core/vector-env';
import { VectorWrapper } from '../core/wrappers/wrapper';

/**
 * Holds a vector env's steps while paused: the trainer waits inside its rollout and goes on
 * exactly where it stopped, so a paused run is the same run as one never paused.
 */
export class PauseGate<Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo> {
  private waiting: Promise<void> | null = null;
  private release: (() => void) | null = null;

  get paused(): boolean {
    return this.waiting !== null;
  }

  pause(): void {
    if (this.waiting) return;
    this.waiting = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  resume(): void {
    const release = this.release;
    this.waiting = null;
    this.release = null;
    release?.();
  }

  /** Transparent in checkpoints: the env's state is the wrapped env's, as if the gate were not there. */
  override getState(): unknown {
    return this.env.getState ? this.env.getState() : null;
  }

  override setState(state: unknown): void {
    if (!this.env.setState) throw new Error('PauseGate: the wrapped env cannot restore a state');
    this.env.setState(state);
  }

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, RInfo>> {
    while (this.waiting) await this.waiting;
    return super.reset(options);
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    while (this.waiting) await this.waiting;
    return super.step(actions);
  }
}
