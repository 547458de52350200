/**
 * How large a run may be, in one place for every layer that handles its body: the route handler
 * (leaderboard/submission-body.ts), next.config.ts (what the proxy may buffer), the protocol's
 * documentation and `arcade-gym submit`. It imports nothing, so next.config.ts can import it.
 *
 * 32 MiB holds the episode cap (500 per run) of the games' longer records with room to spare;
 * the limit counts the JSON as the server parses it, so a gzip body counts decompressed.
 */
export const MAX_SUBMISSION_BYTES = 32 * 1024 * 1024;

/** ARCADE_MAX_SUBMISSION_BYTES (a positive whole number of bytes), else the default. */
export function maxSubmissionBytesFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ARCADE_MAX_SUBMISSION_BYTES;
  if (raw === undefined || raw === '') return MAX_SUBMISSION_BYTES;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`ARCADE_MAX_SUBMISSION_BYTES is "${raw}": give a positive whole number of bytes`);
  return n;
}

/** Runs at least this large are sent gzip-compressed by the CLI (records compress about tenfold). */
export const GZIP_FROM_BYTES = 64 * 1024;
