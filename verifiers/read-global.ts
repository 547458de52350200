import type { VerifierState } from '../gym/schema/records';

/**
 * A verifier's `read` for a game that publishes its state as one object on `window` under
 * `name` (every game here does): null while the game has not set it yet, else `f` of it.
 */
export function readGlobal<G, S extends VerifierState>(name: string, f: (s: G) => S): (win: Window & typeof globalThis) => S | null {
  return (win) => {
    const s = (win as unknown as Record<string, G | undefined>)[name];
    return s ? f(s) : null;
  };
}
