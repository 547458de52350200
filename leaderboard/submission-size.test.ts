/**
 * The submission size limit at every layer that handles a run's body, from the one constant
 * (submission-limit.ts): Next.js' proxy must not see POST /api/runs (it would copy the body and
 * cut it at its own limit, 10 MiB by default, before the route reads it), its buffer limit
 * elsewhere is the same constant, and the route's reader takes a body of exactly the limit,
 * plain or gzip, and refuses one byte more with 413, whether declared, streamed or inflated.
 * Next's own config loader and static analysis of proxy.ts are used, as `next start` uses them;
 * e2e/submission-size.spec.ts checks the same through a production build of the site.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runBody } from '../cli/run-body';
import { ROOT } from '../gym/paths';
import { ApiError } from './api-error';
import { readSubmissionBody } from './submission-body';
import { GZIP_FROM_BYTES, MAX_SUBMISSION_BYTES, maxSubmissionBytesFromEnv } from './submission-limit';

/** A JSON document of exactly `bytes` bytes: `{"pad":"xxx…"}`. */
const jsonOf = (bytes: number) => `{"pad":"${'x'.repeat(bytes - 10)}"}`;

function request(body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request('http://arcade.test/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A body sent in chunks with no Content-Length (chunked transfer), as a client streaming it would. */
function streamed(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + chunk));
      at += chunk;
    },
  });
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('the submission limit', () => {
  it('is 32 MiB unless ARCADE_MAX_SUBMISSION_BYTES says otherwise, and a bad setting is refused', () => {
    expect(MAX_SUBMISSION_BYTES).toBe(32 * 1024 * 1024);
    expect(maxSubmissionBytesFromEnv({})).toBe(MAX_SUBMISSION_BYTES);
    expect(maxSubmissionBytesFromEnv({ ARCADE_MAX_SUBMISSION_BYTES: '1000' })).toBe(1000);
    expect(() => maxSubmissionBytesFromEnv({ ARCADE_MAX_SUBMISSION_BYTES: '32mb' })).toThrow(/positive whole number/);
  });

  it('is what next.config.ts gives the proxy, and POST /api/runs is outside the proxy', async () => {
    const { default: loadConfig } = await import('next/dist/server/config.js');
    const { PHASE_PRODUCTION_SERVER } = await import('next/dist/shared/lib/constants.js');
    const { getPageStaticInfo } = await import('next/dist/build/analysis/get-page-static-info.js');
    const config = await loadConfig(PHASE_PRODUCTION_SERVER, ROOT, { silent: true });
    expect(config.experimental.proxyClientMaxBodySize).toBe(MAX_SUBMISSION_BYTES);
    const info = await getPageStaticInfo({
      pageFilePath: path.join(ROOT, 'proxy.ts'),
      nextConfig: config,
      isDev: false,
      page: '/proxy',
      pageType: 'pages',
    } as never);
    const matchers = (info as { middleware?: { matchers?: { regexp: string }[] } }).middleware?.matchers ?? [];
    expect(matchers.length).toBeGreaterThan(0);
    const proxied = (p: string) => matchers.some((m) => new RegExp(m.regexp).test(p));
    expect(proxied('/api/runs')).toBe(false);
    // The proxy still answers what it is there for: undecodable dynamic segments, anywhere else.
    for (const p of ['/', '/games/%', '/runs/%E0%A4%A', '/api/submissions/%', '/api/tickets']) expect(proxied(p), p).toBe(true);
  }, 60_000);
});

describe('readSubmissionBody', () => {
  const max = 1024 * 1024;

  it('takes a body of exactly the limit, declared or streamed, and refuses one byte more with 413', async () => {
    const at = jsonOf(max);
    expect(Buffer.byteLength(at)).toBe(max);
    expect(await readSubmissionBody(request(at), max)).toBe(at);
    expect(await readSubmissionBody(request(streamed(Buffer.from(at))), max)).toBe(at);
    const over = jsonOf(max + 1);
    for (const r of [request(over), request(streamed(Buffer.from(over)))]) {
      const e = await refusal(readSubmissionBody(r, max));
      expect(e).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413, details: { maxBytes: max } });
    }
  });

  it('inflates gzip and counts the JSON, not the wire bytes', async () => {
    const at = jsonOf(max);
    const zipped = gzipSync(at);
    expect(zipped.byteLength).toBeLessThan(max / 100);
    expect(await readSubmissionBody(request(new Uint8Array(zipped), { 'content-encoding': 'gzip' }), max)).toBe(at);
    expect(await readSubmissionBody(request(streamed(zipped, 1024), { 'content-encoding': 'gzip' }), max)).toBe(at);
    // Compressed to a few kilobytes, it still inflates past the limit.
    const bomb = new Uint8Array(gzipSync(jsonOf(20 * max)));
    expect((await refusal(readSubmissionBody(request(bomb, { 'content-encoding': 'gzip' }), max))).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses an encoding it cannot read (415) and a body that is not gzip (400)', async () => {
    expect((await refusal(readSubmissionBody(request('{}', { 'content-encoding': 'br' }), max))).status).toBe(415);
    const e = await refusal(readSubmissionBody(request('{"not":"gzip"}', { 'content-encoding': 'gzip' }), max));
    expect(e).toMatchObject({ code: 'INVALID_JSON', status: 400 });
    expect(e.message).toMatch(/not valid gzip/);
  });

  it("reads back what arcade-gym submit sends, small runs plain and larger ones gzip'd", async () => {
    for (const size of [1000, GZIP_FROM_BYTES, 3 * max]) {
      const json = jsonOf(size);
      const sent = runBody(json, { authorization: 'Bearer t' });
      expect(sent.headers['content-encoding']).toBe(size >= GZIP_FROM_BYTES ? 'gzip' : undefined);
      expect(await readSubmissionBody(request(sent.body, sent.headers), MAX_SUBMISSION_BYTES)).toBe(json);
    }
  });
});
