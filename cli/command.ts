/**
 * A CLI command: its name, one-line summary, usage text, and a run function taking parsed
 * arguments. Commands live one per file in cli/commands/ and are listed in main.ts.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Whether positional arguments are allowed. */
  positionals?: boolean;
  run(args: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] }): Promise<void>;
}

export class UsageError extends Error {
  /** The command's exit status: 2, a refusal or a mistake in how it was called. */
  readonly exitCode: number = 2;
}

/**
 * The run was accepted and stored, but nothing of it is ranked (an expired ticket, no ticket,
 * seeds left unplayed): not a refusal, and not a success either, so scripts can tell (exit 3).
 */
export class NotRankedError extends UsageError {
  override readonly exitCode = 3;
}

/** Flags that take a value, `{ name: { type: 'string' } }` each: numbers among them are read with `intOption`. */
export function valueFlags(...names: string[]): Command['options'] {
  return Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
}

/** Flags that take no value (`--force`, `--no-build`). */
export function switchFlags(...names: string[]): Command['options'] {
  return Object.fromEntries(names.map((n) => [n, { type: 'boolean' as const }]));
}

/** Evaluation batches on the job queue (jobs/), for `eval --queue` and `train --submit --queue`. */
export const QUEUE_FLAGS: Command['options'] = { ...switchFlags('queue'), ...valueFlags('batch', 'workers') };

export function parseCommandArgs(cmd: Command, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: cmd.options, allowPositionals: cmd.positionals ?? false, strict: true });
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : e}\n\nUsage: ${cmd.usage}`);
  }
}

export function intOption(values: Record<string, unknown>, name: string, fallback: number, min = 0): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

export function stringOption(values: Record<string, unknown>, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}
