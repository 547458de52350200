import { z } from 'zod';
import { ActionSet } from '../actions';
import type { NetworkSpec } from '../nn/actor-critic';
import type { ParamEntry } from '../nn/params';
import type { NormalizeObservationState } from '../core/wrappers/normalize';
import type { NormalizationState } from './rollout';

/**
 * The portable checkpoint format (documented in CHECKPOINT.md): a fixed preamble, a UTF-8
 * JSON header, then little-endian float32 blobs. Works on bytes, so it runs in browsers too;
 * checkpoint-files.ts adds the Node file I/O.
 */
export const CHECKPOINT_MAGIC = 'AGYMCKPT';
export const CHECKPOINT_VERSION = 1;
const PREAMBLE_BYTES = 16;
const DATA_ALIGN = 8;

export interface BlobEntry {
  name: string;
  /** Offset from the start of the data section, in bytes (a multiple of 4). */
  byteOffset: number;
  /** Number of float32 values. */
  length: number;
}

export interface TrainingProgress {
  update: number;
  globalStep: number;
  valuePretrainIterations: number;
  valuePretrainDone: boolean;
}

export interface OptimizerHeader {
  type: 'adam';
  step: number;
  beta1: number;
  beta2: number;
  eps: number;
  maxGradNorm: number;
}

export interface CollectorHeader {
  pendingReset: boolean[];
  episodeReturn: number[];
  episodeLength: number[];
  samplingCounter: number;
  recentReturns: number[];
  recentLengths: number[];
  episodesTotal: number;
}

export interface CheckpointHeader {
  format: 'arcade-gym-checkpoint';
  version: number;
  /** 'training': everything needed to resume; 'policy': network only, for evaluation. */
  kind: 'training' | 'policy';
  algorithm: 'ppo' | 'grpo';
  createdAt: string;
  /** The parsed PpoConfig / GrpoConfig of the run. */
  config: Record<string, unknown>;
  network: NetworkSpec;
  obsShape: number[];
  numActions: number;
  /** Where each named parameter sits inside the "params" blob. */
  paramLayout: ParamEntry[];
  progress?: TrainingProgress;
  optimizer?: OptimizerHeader;
  /** sfc32 state of the minibatch-shuffle RNG and the sampling seed. */
  rng?: { shuffle: [number, number, number, number]; samplingSeed: number };
  collector?: CollectorHeader;
  /** The vector env's getState() when it has one, else null. */
  env?: unknown;
  /** Training: the normalisation wrappers' statistics (absent in checkpoints from before they existed, or with none on). */
  normalization?: NormalizationState;
  /** Policy: the observation statistics the policy was trained with, frozen (absent: raw observations). */
  observationNormalization?: NormalizeObservationState;
  /** The actions the policy picks among when they are not the game's preset keys (macro decisions, gym/actions); absent: the preset. */
  actions?: ActionSet;
  blobs: BlobEntry[];
}

export interface Checkpoint {
  header: CheckpointHeader;
  blobs: Map<string, Float32Array>;
}

const HeaderSchema = z
  .object({
    format: z.literal('arcade-gym-checkpoint'),
    version: z.number().int(),
    kind: z.enum(['training', 'policy']),
    algorithm: z.enum(['ppo', 'grpo']),
    config: z.record(z.string(), z.unknown()),
    network: z.object({ kind: z.enum(['mlp', 'cnn', 'keypoints', 'scorer']) }).passthrough(),
    obsShape: z.array(z.number().int().positive()),
    numActions: z.number().int().positive(),
    paramLayout: z.array(z.object({ name: z.string(), shape: z.array(z.number().int()), offset: z.number().int(), size: z.number().int() })),
    actions: ActionSet.optional(),
    blobs: z.array(z.object({ name: z.string(), byteOffset: z.number().int().nonnegative(), length: z.number().int().nonnegative() })),
  })
  .passthrough();

export function encodeCheckpoint(header: Omit<CheckpointHeader, 'blobs'>, blobs: Record<string, Float32Array>): Uint8Array {
  const entries: BlobEntry[] = [];
  let dataBytes = 0;
  for (const [name, data] of Object.entries(blobs)) {
    entries.push({ name, byteOffset: dataBytes, length: data.length });
    dataBytes += data.length * 4;
  }
  const json = new TextEncoder().encode(JSON.stringify({ ...header, blobs: entries }));
  const dataStart = Math.ceil((PREAMBLE_BYTES + json.length) / DATA_ALIGN) * DATA_ALIGN;
  const bytes = new Uint8Array(dataStart + dataBytes);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(CHECKPOINT_MAGIC), 0);
  view.setUint32(8, CHECKPOINT_VERSION, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, PREAMBLE_BYTES);
  entries.forEach((entry) => {
    const data = blobs[entry.name];
    const base = dataStart + entry.byteOffset;
    for (let i = 0; i < data.length; i++) view.setFloat32(base + i * 4, data[i], true);
  });
  return bytes;
}

export function decodeCheckpoint(bytes: Uint8Array): Checkpoint {
  if (bytes.length < PREAMBLE_BYTES) throw new Error('not an arcade-gym checkpoint (file too short)');
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== CHECKPOINT_MAGIC) throw new Error(`not an arcade-gym checkpoint (magic "${magic}")`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== CHECKPOINT_VERSION) throw new Error(`unsupported checkpoint version ${version} (this build reads ${CHECKPOINT_VERSION})`);
  const headerLength = view.getUint32(12, true);
  const raw: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength)));
  const parsed = HeaderSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid checkpoint header:\n${z.prettifyError(parsed.error)}`);
  const header = raw as CheckpointHeader;
  const dataStart = Math.ceil((PREAMBLE_BYTES + headerLength) / DATA_ALIGN) * DATA_ALIGN;
  const blobs = new Map<string, Float32Array>();
  for (const entry of header.blobs) {
    const base = dataStart + entry.byteOffset;
    if (base + entry.length * 4 > bytes.length) throw new Error(`checkpoint blob ${entry.name} is truncated`);
    const data = new Float32Array(entry.length);
    for (let i = 0; i < entry.length; i++) data[i] = view.getFloat32(base + i * 4, true);
    blobs.set(entry.name, data);
  }
  return { header, blobs };
}

export function requireBlob(ckpt: Checkpoint, name: string, length?: number): Float32Array {
  const blob = ckpt.blobs.get(name);
  if (!blob) throw new Error(`checkpoint has no "${name}" blob`);
  if (length !== undefined && blob.length !== length) throw new Error(`checkpoint blob "${name}" has ${blob.length} values, expected ${length}`);
  return blob;
}
