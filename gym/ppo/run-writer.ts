import type { Checkpoint } from './checkpoint';
import type { PolicyAgent } from './policy-agent';

/**
 * Where a training run's outputs go, injected so the trainers stay plain algorithms that run
 * in a browser as well as in Node. Each part is optional; `runDirectoryWriter(dir)` in
 * run-directory.ts writes metrics.jsonl, checkpoint.agckpt and policy.agckpt.
 */
export interface RunWriter {
  /** One call per update, with that update's metrics. */
  metrics?(m: object): void | Promise<void>;
  /** A resumable training checkpoint (every `checkpointEvery` updates and at the end). */
  checkpoint?(ckpt: Checkpoint): void | Promise<void>;
  /** The final policy. */
  policy?(agent: PolicyAgent): void | Promise<void>;
}
