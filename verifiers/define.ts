import type { VerifierState } from '../gym/schema/records';

/**
 * A verifier reads a game's own runtime variables from the live page, and imports no game code.
 * It runs in the page, bundled into a standalone script whose sha256 is the verifier checksum
 * (gym/build/verifier-bundle.ts); the build reads its id and feature names from that script.
 */
export interface Verifier<S extends VerifierState = VerifierState> {
  gameId: string;
  /**
   * Read the game's state; null while the game has not started yet. A state has at least
   * `score` (a finite number; rewards are its changes) and `gameOver` (a boolean; it ends the
   * episode): the gym refuses a reading without them (gym/schema/verifier-state.ts).
   */
  read(win: Window & typeof globalThis): S | null;
  /** A fixed-length numeric encoding of the state, for agents that want a vector. */
  features: {
    names: readonly string[];
    encode(state: S): number[];
  };
  /**
   * Optional: which of the manifest's preset actions may change the game from this state, one
   * entry per preset action in its order, 1 where it may and 0 where the game would ignore it
   * (a wall bumped, a swap that makes no line, a tap on an empty cell). Agents read it as
   * `info.actionMask` (Gymnasium's `action_mask`); it must never rule out an action the game
   * would accept, and never be all zeros while the game is running.
   */
  actionMask?(state: S): number[];
}

export function defineVerifier<S extends VerifierState>(verifier: Verifier<S>): Verifier<S> {
  return verifier;
}

/** Flattens a grid row by row into `out`, mapping each cell through `f`. */
export function flattenGrid<T>(grid: readonly (readonly T[])[], f: (cell: T) => number, out: number[] = []): number[] {
  for (const row of grid) for (const cell of row) out.push(f(cell));
  return out;
}
