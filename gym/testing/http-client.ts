import type { z } from 'zod';

/** A response as the HTTP tests read it: status, headers, the body's bytes, and its JSON when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
  bytes: Buffer;
}

export interface CallOptions {
  /** Sent as JSON (content-type application/json unless `headers` says otherwise). */
  body?: unknown;
  /** Sent as it is. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** A bearer token; null sends none, undefined the client's own. */
  token?: string | null;
}

/** Calls the server at `base()` (read at each call, so it may be set in a beforeAll), with `token` unless a call says otherwise. */
export function httpClient(base: () => string, token?: string) {
  return async function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    const bearer = opts.token === undefined ? token : opts.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    let body: string | Buffer | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base() + path, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, headers: res.headers, bytes, json: type.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : null };
  };
}

/** A response body must match its documented schema exactly: the parsed body, or an error quoting the first issue and the body. */
export function conforms<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`response does not match its schema: ${JSON.stringify(r.error.issues[0])}\n${JSON.stringify(value).slice(0, 500)}`);
  return r.data;
}
