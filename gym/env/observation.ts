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

/** Gymnasium-style space descriptions, for agents and for `arcade-gym games`. */
export type Space =
  | { type: 'Discrete'; n: number; names: string[] }
  | { type: 'Box'; shape: number[]; dtype: 'float32' | 'uint8'; low: number; high: number; names?: string[] }
  | { type: 'Json'; description: string }
  | { type: 'Image'; format: 'png' | 'jpeg' }
  | { type: 'Dict'; spaces: Record<string, Space> }
  | { type: 'GuiAction'; description: string };

export function decodePixels(base64: string, width: number, height: number, grayscale: boolean): PixelObservation {
  return { width, height, channels: grayscale ? 1 : 3, data: new Uint8Array(Buffer.from(base64, 'base64')) };
}
