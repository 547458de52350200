import type { VerifierState } from '../schema/records';

export interface PixelObservation {
  width: number;
  height: number;
  channels: 1 | 3;
  /** Row-major, height × width × channels bytes. */
  data: Uint8Array;
}

export interface Observation {
  state?: VerifierState;
  vector?: Float32Array;
  pixels?: PixelObservation;
  screenshot?: Buffer;
}

/** Gymnasium-style space descriptions (gym/core/spaces.ts), for agents and for `arcade-gym games`. */
export type { Space } from '../core/spaces';
