import { gzipSync } from 'node:zlib';
import { GZIP_FROM_BYTES } from '../leaderboard/submission-limit';

/**
 * The body and headers of `POST /api/runs` for a run's JSON: gzip-compressed from
 * GZIP_FROM_BYTES on, since episode records (long action lists, repeated keys) shrink to a
 * fraction and a run of hundreds of episodes would otherwise take tens of megabytes to upload.
 * The server's limit counts the JSON either way (leaderboard/submission-body.ts).
 */
export function runBody(json: string, headers: Record<string, string> = {}): { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> } {
  const common = { ...headers, 'content-type': 'application/json' };
  if (Buffer.byteLength(json) < GZIP_FROM_BYTES) return { headers: common, body: json };
  return { headers: { ...common, 'content-encoding': 'gzip' }, body: new Uint8Array(gzipSync(json)) };
}
