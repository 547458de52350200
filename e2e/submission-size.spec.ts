/**
 * The submission size limit through the real server (`next start` of the production build, with
 * proxy.ts): a run's body of exactly the limit (leaderboard/submission-limit.ts) is read and
 * parsed whole, plain or gzip, and one byte more is refused with 413, declared or streamed.
 * Next.js used to copy every body it gave the proxy and keep only its first 10 MiB, so a body
 * past that reached the route cut short and was refused as INVALID_JSON at position 10485760.
 *
 * The bodies are JSON that parses but is no run (`{"pad":"xxx…"}`): INVALID_SUBMISSION can only
 * come from a body that arrived whole, since a cut one does not parse.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { MAX_SUBMISSION_BYTES } from '../leaderboard/submission-limit';
import { arcadeCli } from './arcade-cli';

// The same folder playwright.config.ts gives the server.
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';
const cli = arcadeCli({ ...process.env, ARCADE_DATA_DIR: DATA_DIR, FORCE_COLOR: '0' });
let token = '';

/** A JSON document of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => Buffer.from(`{"pad":"${'x'.repeat(bytes - 10)}"}`);

interface Answer {
  status: number;
  code: string;
  message: string;
}

/**
 * POST /api/runs with `body`, declared (Content-Length) or streamed (chunked, no length), in
 * 1 MiB writes. Resolves with the answer as soon as it arrives: a server that refuses early may
 * stop reading, and what is left to send no longer matters.
 */
function postRun(baseURL: string, body: Buffer, opts: { streamed?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL('/api/runs', baseURL);
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(opts.streamed ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.byteLength) }),
        ...opts.headers,
      },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const { error } = JSON.parse(text) as { error: { code: string; message: string } };
        resolve({ status: res.statusCode ?? 0, code: error.code, message: error.message });
        req.destroy();
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const write = async () => {
      const step = 1024 * 1024;
      for (let at = 0; at < body.byteLength && !answered; at += step) {
        if (!req.write(body.subarray(at, at + step))) await new Promise<void>((r) => req.once('drain', () => r()));
      }
      if (!answered) req.end();
    };
    void write().catch((e: unknown) => {
      if (!answered) reject(e);
    });
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  token = (await cli(['token', 'create', '--name', `size-${Date.now().toString(36)}`])).stdout.trim();
  expect(token).toMatch(/^agt_/);
});

test('a run of exactly the limit is parsed whole, declared or streamed', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const body = jsonOf(MAX_SUBMISSION_BYTES);
  expect(body.byteLength).toBe(MAX_SUBMISSION_BYTES);
  for (const streamed of [false, true]) {
    const answer = await postRun(baseURL!, body, { streamed });
    expect(answer, `streamed: ${streamed}`).toMatchObject({ status: 400, code: 'INVALID_SUBMISSION' });
  }
});

test('a body past the old 10 MiB cut is parsed whole', async ({ baseURL }) => {
  // The size of the honest 215-episode Snake run that was refused (10.7 MB).
  const answer = await postRun(baseURL!, jsonOf(10_700_000));
  expect(answer).toMatchObject({ status: 400, code: 'INVALID_SUBMISSION' });
});

test('one byte past the limit is refused with 413, declared or streamed', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const body = jsonOf(MAX_SUBMISSION_BYTES + 1);
  for (const streamed of [false, true]) {
    const answer = await postRun(baseURL!, body, { streamed });
    expect(answer, `streamed: ${streamed}`).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(answer.message).toContain(String(MAX_SUBMISSION_BYTES));
  }
});

test('a gzip body counts as the JSON it inflates to', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const gzip = { 'content-encoding': 'gzip' };
  const at = await postRun(baseURL!, gzipSync(jsonOf(MAX_SUBMISSION_BYTES)), { headers: gzip });
  expect(at).toMatchObject({ status: 400, code: 'INVALID_SUBMISSION' });
  const over = await postRun(baseURL!, gzipSync(jsonOf(MAX_SUBMISSION_BYTES + 1)), { headers: gzip, streamed: true });
  expect(over).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
});
