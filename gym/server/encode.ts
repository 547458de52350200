import type { Observation, Space } from '../env/observation';
import type { EpisodeOutcome } from '../pool/outcome';
import type { PooledStepResult } from '../pool/outcome';
import type { ResetResult } from '../env/env';

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

export function resetBody(r: ResetResult, sink: ByteSink) {
  const { seed, state, virtualTimeMs, actionMask } = r.info;
  return { observation: observationJson(r.observation, sink), info: { seed, state, virtualTimeMs, ...(actionMask ? { actionMask } : {}) } };
}

export function stepBody(r: PooledStepResult, sink: ByteSink) {
  const { outcome, ...info } = r.info;
  return {
    observation: observationJson(r.observation, sink),
    reward: r.reward,
    terminated: r.terminated,
    truncated: r.truncated,
    info: { ...info, ...(outcome ? { outcome: outcomeJson(outcome) } : {}) },
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
