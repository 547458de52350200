import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { ClientAbortedError } from './failure-log';
import { HttpError } from './http-errors';

/** After this much past the limit, an oversized body is not drained any more: the connection is dropped. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Reads a request body of at most `limit` bytes. A longer one is drained (so the client,
 * still sending, can read the 413) and refused; one far longer closes the connection. A client
 * that hangs up before the body is complete is a ClientAbortedError, not a server failure.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > limit + DRAIN_LIMIT) req.destroy();
    });
    req.on('end', () => {
      if (tooLarge) reject(new HttpError(413, 'BODY_TOO_LARGE', `The request body is larger than ${limit} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ECONNRESET' || req.destroyed ? new ClientAbortedError(size, Number.isFinite(declared) ? declared : null) : e),
    );
  });
}

/**
 * Parses and validates a JSON body; an empty body counts as `{}`. A body must say it is JSON:
 * a web page can send text/plain (or no type) to another origin without a CORS preflight,
 * but not application/json.
 */
export async function readJson<T extends z.ZodType>(req: IncomingMessage, schema: T, limit: number): Promise<z.infer<T>> {
  const type = req.headers['content-type'];
  const raw = await readBody(req, limit);
  const isJson = type !== undefined && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);
  if ((type !== undefined || raw.byteLength > 0) && !isJson) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `Send JSON bodies with Content-Type: application/json (got ${type ? type : 'no Content-Type'})`);
  }
  let value: unknown = {};
  if (raw.byteLength > 0) {
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      throw new HttpError(400, 'INVALID_JSON', `The body is not valid JSON: ${e instanceof Error ? e.message : e}`);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, inAction(issue, value) ? 'INVALID_ACTION' : 'INVALID_BODY', describeIssue(issue));
  }
  return parsed.data;
}

/**
 * Whether the problem is inside an action that was sent (`action`, `steps.3.action`): that is
 * INVALID_ACTION, as the env calls the same action; a missing action is the body's problem.
 */
function inAction(issue: z.core.$ZodIssue, body: unknown): boolean {
  const at = issue.path.indexOf('action');
  if (at < 0) return false;
  let v: unknown = body;
  for (const key of issue.path.slice(0, at + 1)) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v !== undefined;
}

/**
 * One line naming the field and the problem. For a value matching none of a union's
 * branches, the branch that got furthest explains best ("action.x: expected number"),
 * not "invalid input".
 */
function describeIssue(issue: z.core.$ZodIssue, prefix: PropertyKey[] = []): string {
  if (issue.code === 'invalid_union' && issue.errors.length) {
    const deepest = issue.errors
      .map((branch) => branch[0])
      .filter((i): i is z.core.$ZodIssue => !!i)
      .reduce((a, b) => (b.path.length > a.path.length ? b : a));
    if (deepest.path.length > 0) return describeIssue(deepest, [...prefix, ...issue.path]);
  }
  const path = [...prefix, ...issue.path];
  const where = path.length ? `"${path.map(String).join('.')}"` : 'the body';
  return `Invalid ${where}: ${issue.message}`;
}
