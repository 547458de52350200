import type { VectorResetResult, VectorStepResult, VectorInfo } from '../core/vector-env';
import type { Observation, Space } from '../env/observation';
import type { EpisodeOutcome, PooledStepInfo } from '../pool/outcome';
import type { PooledStepResult } from '../pool/outcome';
import type { ResetInfo, ResetResult } from '../env/env';
import type { InfoExtra } from './schemas';

/**
 * Turns env results into response bodies. JSON responses carry pixels and screenshots as
 * base64; binary responses (a client sending `Accept: application/octet-stream`) carry them
 * raw after a JSON header, in this frame:
 *
 *   bytes 0–3   "AGYM" (magic)
 *   bytes 4–7   header length H, unsigned 32-bit big-endian
 *   next H      the JSON body, UTF-8, where each byte field reads
 *               { "encoding": "binary", "offset": O, "length": L }
 *   the rest    the payload; a field's bytes are payload[O, O + L)
 */
export const FRAME_MAGIC = 'AGYM';
export const BINARY_TYPE = 'application/octet-stream';

/** Collects raw byte fields while a body is encoded (binary mode), or inlines them as base64. */
class ByteSink {
  readonly chunks: Uint8Array[] = [];
  private size = 0;
  constructor(readonly binary: boolean) {}
  put(bytes: Uint8Array): { encoding: 'base64'; data: string } | { encoding: 'binary'; offset: number; length: number } {
    if (!this.binary) return { encoding: 'base64', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
    const offset = this.size;
    this.chunks.push(bytes);
    this.size += bytes.byteLength;
    return { encoding: 'binary', offset, length: bytes.byteLength };
  }
}

function observationJson(o: Observation, sink: ByteSink) {
  const out: Record<string, unknown> = {};
  if (o.state) out.state = o.state;
  if (o.vector) out.vector = Array.from(o.vector);
  if (o.pixels) out.pixels = { width: o.pixels.width, height: o.pixels.height, channels: o.pixels.channels, dtype: 'uint8', ...sink.put(o.pixels.data) };
  if (o.screenshot) out.screenshot = { format: o.screenshot[1] === 0x50 ? 'png' : 'jpeg', ...sink.put(o.screenshot) };
  return out;
}

export function outcomeJson(o: EpisodeOutcome) {
  return { status: o.status, recoveries: o.recoveries, ...(o.cause ? { cause: o.cause } : {}) };
}

/** What infos carry beyond the step's numbers (CreateSessionBody.include). */
export type Extras = ReadonlySet<InfoExtra>;
export const ALL_EXTRAS: Extras = new Set(['state', 'record']);

function resetInfoJson(info: ResetInfo, extras: Extras) {
  const { seed, state, virtualTimeMs, actionMask } = info;
  return { seed, ...(extras.has('state') ? { state } : {}), virtualTimeMs, ...(actionMask ? { actionMask } : {}) };
}

function stepInfoJson(info: PooledStepInfo, extras: Extras) {
  const { outcome, state, episode, ...rest } = info;
  return {
    ...rest,
    ...(extras.has('state') ? { state } : {}),
    ...(episode && extras.has('record') ? { episode } : {}),
    ...(outcome ? { outcome: outcomeJson(outcome) } : {}),
  };
}

export function resetBody(r: ResetResult, sink: ByteSink, extras: Extras = ALL_EXTRAS) {
  return { observation: observationJson(r.observation, sink), info: resetInfoJson(r.info, extras) };
}

export function stepBody(r: PooledStepResult, sink: ByteSink, extras: Extras = ALL_EXTRAS) {
  return {
    observation: observationJson(r.observation, sink),
    reward: r.reward,
    terminated: r.terminated,
    truncated: r.truncated,
    info: stepInfoJson(r.info, extras),
  };
}

/**
 * A vector session's observations, each kind in one block: vectors as one numEnvs × n float32
 * array and pixels as one numEnvs × h × w × c byte array, so a client reads each with one call
 * (numpy.frombuffer) instead of parsing numbers or joining frames.
 */
function vectorObservationsJson(observations: readonly (Observation | undefined)[], sink: ByteSink) {
  const out: Record<string, unknown> = {};
  // A sub-env whose very first reset failed has no observation yet: zeros (null state) stand in.
  const first = observations.find((o) => o !== undefined);
  if (!first) return out;
  if (first.state) out.state = observations.map((o) => o?.state ?? null);
  if (first.vector) {
    const n = first.vector.length;
    const bytes = new Uint8Array(observations.length * n * 4);
    const view = new DataView(bytes.buffer);
    observations.forEach((o, i) => {
      const v = o?.vector;
      if (v) for (let j = 0; j < n; j++) view.setFloat32((i * n + j) * 4, v[j], true);
    });
    out.vector = { dtype: 'float32', byteOrder: 'little', shape: [observations.length, n], ...sink.put(bytes) };
  }
  if (first.pixels) {
    const { width, height, channels } = first.pixels;
    const frame = width * height * channels;
    const bytes = new Uint8Array(observations.length * frame);
    observations.forEach((o, i) => o?.pixels && bytes.set(o.pixels.data, i * frame));
    out.pixels = { dtype: 'uint8', shape: [observations.length, height, width, channels], ...sink.put(bytes) };
  }
  if (first.screenshot) {
    out.screenshot = observations.map((o) => {
      const shot = o?.screenshot ?? new Uint8Array(0);
      return { format: shot[1] === 0x50 ? 'png' : 'jpeg', ...sink.put(shot) };
    });
  }
  return out;
}

type AnyVectorInfo = VectorInfo<Observation, PooledStepInfo, ResetInfo> | ResetInfo | { resetFailure: unknown };

/** A sub-env's info, flat: its step info, or on a reset its reset info (with Gymnasium's autoreset flags). */
function vectorInfoJson(info: AnyVectorInfo, sink: ByteSink, extras: Extras) {
  const i = info as Partial<VectorInfo<Observation, PooledStepInfo, ResetInfo>> & Partial<ResetInfo> & Partial<PooledStepInfo>;
  if (i.finalObservation || i.finalInfo) {
    return {
      ...(i.resetInfo ? resetInfoJson(i.resetInfo, extras) : {}),
      ...(i.resetFailure ? { resetFailure: i.resetFailure } : {}),
      ...(i.finalObservation ? { finalObservation: observationJson(i.finalObservation, sink) } : {}),
      ...(i.finalInfo ? { finalInfo: stepInfoJson(i.finalInfo, extras) } : {}),
    };
  }
  if (i.autoreset) return { ...resetInfoJson(i.resetInfo!, extras), autoreset: true };
  if (i.resetFailure) return { resetFailure: i.resetFailure };
  if (typeof i.step === 'number') return stepInfoJson(info as PooledStepInfo, extras);
  return resetInfoJson(info as ResetInfo, extras);
}

export function vectorResetBody(r: VectorResetResult<Observation, ResetInfo>, sink: ByteSink, extras: Extras) {
  return { observations: vectorObservationsJson(r.observations, sink), infos: r.infos.map((info) => vectorInfoJson(info, sink, extras)) };
}

export function vectorStepBody(r: VectorStepResult<Observation, PooledStepInfo, ResetInfo>, sink: ByteSink, extras: Extras) {
  return {
    observations: vectorObservationsJson(r.observations, sink),
    rewards: Array.from(r.rewards),
    terminated: r.terminated.map(Boolean),
    truncated: r.truncated.map(Boolean),
    infos: r.infos.map((info) => vectorInfoJson(info, sink, extras)),
  };
}

/** Spaces as JSON: infinite Box bounds become "-inf"/"inf" (JSON has no infinities). */
export function spaceJson(space: Space): unknown {
  return JSON.parse(JSON.stringify(space, (_k, v: unknown) => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v)));
}

export interface Encoded {
  contentType: string;
  body: Buffer;
}

/** Encodes `build(sink)` as JSON, or as a binary frame when `binary`. */
export function encode(binary: boolean, build: (sink: ByteSink) => unknown): Encoded {
  const sink = new ByteSink(binary);
  const json = Buffer.from(JSON.stringify(build(sink)), 'utf8');
  if (!binary) return { contentType: 'application/json; charset=utf-8', body: json };
  const head = Buffer.alloc(8);
  head.write(FRAME_MAGIC, 0, 'latin1');
  head.writeUInt32BE(json.byteLength, 4);
  return { contentType: BINARY_TYPE, body: Buffer.concat([head, json, ...sink.chunks]) };
}

/** Reads a binary frame back (for tests and Node clients). */
export function decodeFrame(frame: Buffer): { json: unknown; payload: Buffer } {
  if (frame.subarray(0, 4).toString('latin1') !== FRAME_MAGIC) throw new Error('not an arcade-gym frame');
  const n = frame.readUInt32BE(4);
  return { json: JSON.parse(frame.subarray(8, 8 + n).toString('utf8')), payload: frame.subarray(8 + n) };
}

export type { ByteSink };
