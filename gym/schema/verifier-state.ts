import { VerifierState } from './records';

/**
 * What a verifier's `read(win)` must return, in words, for messages. The shape itself is
 * `VerifierState` (gym/schema/records.ts): termination reads `gameOver`, rewards read `score`.
 */
export const VERIFIER_STATE_SHAPE = '{ score: number, gameOver: boolean, level?: number, lives?: number, ...anything else }';

const EXPECTED: Record<string, string> = { number: 'a finite number', boolean: 'a boolean' };
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'number' ? String(v) : `a ${typeof v}`);

/**
 * Why `value` is not a verifier state, one sentence per field, each naming the field; empty
 * when it is one. A missing field is told apart from a mistyped one, and the fields the state
 * does have are listed, so `over` in place of `gameOver` is plain to see.
 */
export function verifierStateProblems(value: unknown): string[] {
  const parsed = VerifierState.safeParse(value);
  if (parsed.success) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`the state is ${kindOf(value)}, not an object ${VERIFIER_STATE_SHAPE}`];
  const state = value as Record<string, unknown>;
  const fields = Object.keys(state);
  return parsed.error.issues.map((issue) => {
    const key = String(issue.path[0]);
    const expected = 'expected' in issue ? (EXPECTED[String(issue.expected)] ?? String(issue.expected)) : 'another value';
    if (!(key in state)) return `\`${key}\` is missing (${expected}); the state has ${fields.length ? fields.map((f) => `\`${f}\``).join(', ') : 'no fields'}`;
    return `\`${key}\` is ${kindOf(state[key])}, expected ${expected}`;
  });
}
