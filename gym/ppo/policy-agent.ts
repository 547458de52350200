import type { ActionSet } from '../actions';
import { ActorCritic } from '../nn/actor-critic';
import type { Backend } from '../nn/backend';
import { createBackend, type BackendChoice } from '../nn/factory';
import { ActingSession } from './acting';
import { CHECKPOINT_VERSION, encodeCheckpoint, requireBlob, type Checkpoint, type CheckpointHeader } from './checkpoint';
import { NetworkConfigSchema } from './config';
import { encoderFor, type ObsEncoder } from './obs-encoder';
import { RunningMeanStd, normalizeWith } from '../core/wrappers/running-mean-std';
import type { NormalizeObservationState } from '../core/wrappers/normalize';
import { encodeBatch, type BatchedObs } from './rollout';
import { writeActionMasks } from '../core/action-mask';

export type ActMode = 'greedy' | 'sample';

export interface PolicyAgentOptions {
  /** 'greedy' (default): argmax of the logits; 'sample': draw from the policy. */
  mode?: ActMode;
  /** Seed of the sampling stream in 'sample' mode. */
  seed?: number;
}

/** Whether a policy was trained under the env's action masks (configs from before masks have no `maskActions`: no). */
export function trainedWithMasks(config: object | undefined): boolean {
  return (config as { maskActions?: unknown } | undefined)?.maskActions === true;
}

/** Where a policy came from; stored in policy files. */
export interface PolicyProvenance {
  algorithm: 'ppo' | 'grpo';
  config: object;
  /** The actions the policy was trained over (absent: the game's preset). */
  actions?: ActionSet;
}

/**
 * A trained policy for evaluation: raw observation(s) in, action index(es) out. A policy
 * trained with observation normalisation keeps the statistics (frozen) and applies them.
 */
export class PolicyAgent {
  readonly mode: ActMode;
  private readonly sessions = new Map<number, ActingSession>();
  private readonly seed: number;
  private readonly rms: RunningMeanStd | null;

  constructor(
    readonly net: ActorCritic,
    readonly encoder: ObsEncoder,
    options: PolicyAgentOptions = {},
    readonly provenance: PolicyProvenance | null = null,
    readonly observationNormalization: NormalizeObservationState | null = null,
  ) {
    this.mode = options.mode ?? 'greedy';
    this.seed = options.seed ?? 0;
    this.rms = observationNormalization ? RunningMeanStd.fromState(observationNormalization.rms) : null;
  }

  /** Normalised as in training (a copy), or the observation itself. */
  private normalize(obs: ArrayLike<number>): ArrayLike<number> {
    return this.rms ? normalizeWith(this.rms, obs, this.observationNormalization!.epsilon) : obs;
  }

  private session(batch: number): ActingSession {
    let s = this.sessions.get(batch);
    if (!s) {
      s = new ActingSession(this.net, batch, this.seed);
      this.sessions.set(batch, s);
    }
    return s;
  }

  /** Whether it plays under the env's action masks, as it was trained (see PpoConfig.maskActions). */
  get masksActions(): boolean {
    return trainedWithMasks(this.provenance?.config);
  }

  /**
   * The action for one observation (shaped like the env's observation space). `mask`: the env's
   * action mask (info.actionMask), applied when the policy was trained under masks.
   */
  async act(obs: ArrayLike<number>, mask?: ArrayLike<number>): Promise<number> {
    const [a] = await this.actBatch([obs], mask ? [mask] : undefined);
    return a;
  }

  /** `masks`: one action mask per observation (or undefined), used as in act(). */
  async actBatch(obs: BatchedObs, masks?: readonly (ArrayLike<number> | undefined)[]): Promise<number[]> {
    const list = obs.length > 0 && typeof (obs as ArrayLike<unknown>)[0] === 'object';
    const batch = list ? obs.length : obs.length / this.encoder.envSize;
    if (!Number.isInteger(batch) || batch < 1) throw new Error('actBatch needs at least one whole observation');
    const encoded = new Float32Array(batch * this.encoder.netSize);
    if (this.rms) {
      const size = this.encoder.envSize;
      const rows = list
        ? (obs as readonly ArrayLike<number>[])
        : Array.from({ length: batch }, (_, r) => Array.prototype.slice.call(obs, r * size, (r + 1) * size) as number[]);
      encodeBatch(
        rows.map((o) => this.normalize(o)),
        batch,
        this.encoder,
        encoded,
      );
    } else {
      encodeBatch(obs, batch, this.encoder, encoded);
    }
    const session = this.session(batch);
    const A = this.net.numActions;
    let maskRows: Float32Array | null = null;
    if (masks && this.masksActions && masks.some((m) => m?.length === A)) {
      maskRows = new Float32Array(batch * A);
      writeActionMasks(
        Array.from({ length: batch }, (_, r) => (masks[r]?.length === A ? { actionMask: masks[r] } : undefined)),
        A,
        maskRows,
      );
    }
    if (this.mode === 'sample') return Array.from((await session.act(encoded, maskRows)).actions);
    const logits = await session.logits(encoded, maskRows);
    return Array.from({ length: batch }, (_, r) => {
      let best = 0;
      for (let j = 1; j < A; j++) if (logits[r * A + j] > logits[r * A + best]) best = j;
      return best;
    });
  }

  /** Action probabilities for one observation (for inspection and tests). */
  async probabilities(obs: ArrayLike<number>): Promise<number[]> {
    const encoded = new Float32Array(this.encoder.netSize);
    this.encoder.encode(this.normalize(obs), encoded, 0);
    const logits = Array.from(await this.session(1).logits(encoded));
    const max = Math.max(...logits);
    const exp = logits.map((z) => Math.exp(z - max));
    const total = exp.reduce((a, b) => a + b, 0);
    return exp.map((e) => e / total);
  }
}

/** Builds the network a checkpoint describes on `backend` and loads its parameters. */
export function networkFromCheckpoint(ckpt: Checkpoint, backend: Backend): ActorCritic {
  const net = new ActorCritic(backend, ckpt.header.network, null);
  const layout = ckpt.header.paramLayout;
  const mismatch = net.store.entries.find((e, i) => e.name !== layout[i]?.name || e.size !== layout[i]?.size);
  if (mismatch || layout.length !== net.store.entries.length) throw new Error('checkpoint parameter layout does not match its network spec');
  backend.write(net.store.params, requireBlob(ckpt, 'params', net.store.size));
  return net;
}

export function encoderFromHeader(header: CheckpointHeader): ObsEncoder {
  const network = NetworkConfigSchema.parse((header.config as { network?: unknown }).network ?? {});
  return encoderFor(header.obsShape, network);
}

/** A PolicyAgent from a checkpoint (training or policy kind) or its path. */
export async function loadPolicy(
  source: Checkpoint | string,
  backend: Backend | BackendChoice = 'auto',
  options: PolicyAgentOptions = {},
): Promise<PolicyAgent> {
  const ckpt = typeof source === 'string' ? await (await import('./checkpoint-files')).loadCheckpoint(source) : source;
  const b = typeof backend === 'string' ? await createBackend(backend) : backend;
  const provenance = { algorithm: ckpt.header.algorithm, config: ckpt.header.config, ...(ckpt.header.actions ? { actions: ckpt.header.actions } : {}) };
  return new PolicyAgent(networkFromCheckpoint(ckpt, b), encoderFromHeader(ckpt.header), options, provenance, ckpt.header.observationNormalization ?? null);
}

/** A policy-only checkpoint (network + parameters, no optimizer or env state). */
export async function policyCheckpoint(agent: PolicyAgent): Promise<Checkpoint> {
  const net = agent.net;
  const enc = agent.encoder;
  const config = agent.provenance?.config ?? { network: { obsScale: enc.scale, pixelLayout: enc.pixelLayout } };
  const header: CheckpointHeader = {
    format: 'arcade-gym-checkpoint',
    version: CHECKPOINT_VERSION,
    kind: 'policy',
    algorithm: agent.provenance?.algorithm ?? 'ppo',
    createdAt: new Date().toISOString(),
    config: config as Record<string, unknown>,
    network: net.spec,
    obsShape: [...enc.obsShape],
    numActions: net.numActions,
    paramLayout: net.store.entries,
    ...(agent.observationNormalization ? { observationNormalization: agent.observationNormalization } : {}),
    ...(agent.provenance?.actions ? { actions: agent.provenance.actions } : {}),
    blobs: [],
  };
  return { header, blobs: new Map([['params', await net.backend.read(net.store.params)]]) };
}

/** Encodes a PolicyAgent's network as policy checkpoint bytes (browser-safe). */
export async function encodePolicy(agent: PolicyAgent): Promise<Uint8Array> {
  const { header, blobs } = await policyCheckpoint(agent);
  const { blobs: _layout, ...rest } = header;
  void _layout;
  return encodeCheckpoint(rest, Object.fromEntries(blobs));
}

/** Writes a policy checkpoint file (Node). */
export async function savePolicy(file: string, agent: PolicyAgent): Promise<void> {
  const { writeFileAtomic } = await import('./checkpoint-files');
  await writeFileAtomic(file, await encodePolicy(agent));
}
