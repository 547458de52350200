import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { ROOT } from '../paths';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EpisodeRecord } from '../schema/records';
import { decodeFrame } from './encode';
import { openApiDocument } from './openapi';
import {
  BatchStepResponse,
  CloseSessionResponse,
  CreateSessionResponse,
  ErrorBody,
  GameJson,
  GamesResponse,
  HealthResponse,
  ResetResponse,
  SessionListResponse,
  SessionStatusJson,
  StepResponse,
} from './schemas';
import { startGymServer, type GymServer } from './server';
import { type Answer, conforms, httpClient } from '../testing/http-client';

const TOKEN = 'secret-token-for-tests';
let server: GymServer;
let base: string;

beforeAll(async () => {
  server = await startGymServer({ port: 0, token: TOKEN, maxBodyBytes: 16 * 1024, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 4 }, maxSessions: 3 } });
  base = server.url;
});
afterAll(async () => {
  await server?.close();
});

const call = httpClient(() => base, TOKEN);

function expectError(a: Answer, status: number, code: string, message?: RegExp) {
  expect({ status: a.status, code: (a.json as { error?: { code?: string } })?.error?.code }).toEqual({ status, code });
  const body = conforms(ErrorBody, a.json);
  if (message) expect(body.error.message).toMatch(message);
}

async function createSession(body: Record<string, unknown> = {}) {
  const a = await call('POST', '/v1/sessions', { body: { game: 'snake', observation: 'state', maxSteps: 10, ...body } });
  expect(a.status).toBe(201);
  return conforms(CreateSessionResponse, a.json);
}

describe('HTTP API: every endpoint', () => {
  it('health and the OpenAPI document need no token; the document is OpenAPI 3.1 and every $ref resolves', async () => {
    const h = await call('GET', '/health', { token: null });
    expect(h.status).toBe(200);
    conforms(HealthResponse, h.json);
    const o = await call('GET', '/openapi.json', { token: null });
    expect(o.status).toBe(200);
    const doc = o.json as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/games', '/v1/sessions', '/v1/sessions/{id}', '/v1/sessions/{id}/reset', '/v1/sessions/{id}/step', '/openapi.json']),
    );
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) {
      const target = r.slice(8, -1);
      expect(target).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[target.split('/').pop()!], target).toBeDefined();
    }
  });

  it('lists games with their spaces, and one game', async () => {
    const g = await call('GET', '/v1/games');
    const { games } = conforms(GamesResponse, g.json);
    const snake = games.find((x) => x.id === 'snake')!;
    expect(snake.actionSpace).toEqual({ type: 'Discrete', n: 5, names: ['up', 'right', 'down', 'left', 'noop'] });
    expect(snake.observationSpaces.vector).toMatchObject({ type: 'Box', dtype: 'float32', low: '-inf', high: 'inf' });
    const one = await call('GET', '/v1/games/snake');
    expect(conforms(GameJson, one.json)).toEqual(snake);
    expectError(await call('GET', '/v1/games/pacmann'), 404, 'UNKNOWN_GAME', /Unknown game "pacmann"/);
  });

  it('session lifecycle: create, status, list, reset, step to the end, record, close', async () => {
    const created = await createSession({ seed: 4, observation: ['state', 'vector', 'pixels'], pixels: { width: 32, height: 32 } });
    const id = created.session.id;
    expect(created.session).toMatchObject({ game: 'snake', state: 'idle', episodes: 0, maxSteps: 10 });
    expect(created.observationSpace).toMatchObject({ type: 'Dict', spaces: { pixels: { shape: [32, 32, 1] } } });
    const status = await call('GET', `/v1/sessions/${id}`);
    conforms(SessionStatusJson, status.json);
    const list = conforms(SessionListResponse, (await call('GET', '/v1/sessions')).json);
    expect(list.sessions.map((s) => s.id)).toContain(id);
    expect(list.maxSessions).toBe(3);

    const reset = conforms(ResetResponse, (await call('POST', `/v1/sessions/${id}/reset`, { body: { seed: 4 } })).json);
    expect(reset.info.seed).toBe(4);
    expect(reset.observation.pixels).toMatchObject({ width: 32, height: 32, channels: 1, encoding: 'base64' });
    let step;
    for (let i = 0; i < 10; i++) {
      const a = await call('POST', `/v1/sessions/${id}/step`, { body: { action: i % 2 ? 1 : { type: 'key', key: 'ArrowDown' } } });
      expect(a.status).toBe(200);
      step = conforms(StepResponse, a.json);
      if (step.terminated || step.truncated) break;
    }
    expect(step!.terminated || step!.truncated).toBe(true);
    expect(EpisodeRecord.safeParse(step!.info.episode).success).toBe(true);
    expect(step!.info.outcome).toEqual({ status: 'complete', recoveries: [] });
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1 } }), 409, 'EPISODE_ENDED', /reset/);

    // Reset without a body continues the session's seeded sequence.
    const r2 = conforms(ResetResponse, (await call('POST', `/v1/sessions/${id}/reset`)).json);
    expect(r2.info.seed).not.toBe(4);
    await call('POST', `/v1/sessions/${id}/step`, { body: { action: 2 } });
    const closed = conforms(CloseSessionResponse, (await call('DELETE', `/v1/sessions/${id}`)).json);
    expect(closed.outcome).toMatchObject({ status: 'truncated', cause: { code: 'CLOSED' }, episode: { totals: { length: 1 } } });
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1 } }), 410, 'SESSION_CLOSED', /closed/);
    expectError(await call('POST', `/v1/sessions/${id}/reset`), 410, 'SESSION_CLOSED');
    expectError(await call('GET', `/v1/sessions/${id}`), 410, 'SESSION_CLOSED');
    expectError(await call('DELETE', `/v1/sessions/${id}`), 410, 'SESSION_CLOSED');
  });

  it('binary frames carry the same observation bytes as base64 JSON', async () => {
    const a = await createSession({ observation: ['state', 'pixels'] });
    const b = await createSession({ observation: ['state', 'pixels'] });
    const json = conforms(ResetResponse, (await call('POST', `/v1/sessions/${a.session.id}/reset`, { body: { seed: 8 } })).json);
    const framed = await call('POST', `/v1/sessions/${b.session.id}/reset`, { body: { seed: 8 }, headers: { accept: 'application/octet-stream' } });
    expect(framed.headers.get('content-type')).toBe('application/octet-stream');
    const { json: head, payload } = decodeFrame(framed.bytes);
    const parsed = conforms(ResetResponse, head);
    const px = parsed.observation.pixels!;
    expect(px.encoding).toBe('binary');
    if (px.encoding !== 'binary' || json.observation.pixels?.encoding !== 'base64') throw new Error('unexpected encodings');
    expect(px.length).toBe(84 * 84);
    expect(payload.subarray(px.offset, px.offset + px.length).equals(Buffer.from(json.observation.pixels.data, 'base64'))).toBe(true);
    expect(parsed.observation.state).toEqual(json.observation.state);
    // Errors stay JSON even when binary was asked for.
    expectError(
      await call('POST', `/v1/sessions/${b.session.id}/step`, { body: { action: 'up' }, headers: { accept: 'application/octet-stream' } }),
      400,
      'INVALID_ACTION',
    );
    await call('DELETE', `/v1/sessions/${a.session.id}`);
    await call('DELETE', `/v1/sessions/${b.session.id}`);
  });
});

describe('HTTP API: bad requests get a clear 4xx, never a 5xx', () => {
  it('malformed JSON, wrong types, unknown fields, bad actions, wrong content type, oversized bodies', async () => {
    const { session } = await createSession();
    const id = session.id;
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1 } }), 409, 'RESET_NEEDED', /reset/);
    await call('POST', `/v1/sessions/${id}/reset`, { body: { seed: 1 } });

    expectError(await call('POST', '/v1/sessions', { raw: '{"game": "snake",', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
    expectError(await call('POST', `/v1/sessions/${id}/step`, { raw: 'not json', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
    expectError(await call('POST', '/v1/sessions', { body: { game: 42 } }), 400, 'INVALID_BODY', /"game"/);
    expectError(await call('POST', '/v1/sessions', { body: {} }), 400, 'INVALID_BODY', /"game"/);
    expectError(await call('POST', '/v1/sessions', { body: [1, 2] }), 400, 'INVALID_BODY');
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', seed: -1 } }), 400, 'INVALID_BODY', /"seed"/);
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', observation: ['smell'] } }), 400, 'INVALID_BODY', /"observation/);
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', bogus: true } }), 400, 'INVALID_BODY', /bogus/);
    expectError(await call('POST', '/v1/sessions', { body: { game: 'pacmann' } }), 400, 'UNKNOWN_GAME', /pacmann/);
    expectError(await call('POST', `/v1/sessions/${id}/reset`, { body: { seed: 'one' } }), 400, 'INVALID_BODY', /"seed"/);
    expectError(await call('POST', `/v1/sessions/${id}/reset`, { body: { seed: 2 ** 32 } }), 400, 'INVALID_BODY', /"seed"/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: {} }), 400, 'INVALID_BODY', /"action"/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 'up' } }), 400, 'INVALID_ACTION', /preset index/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: null } }), 400, 'INVALID_ACTION', /"action"/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1.5 } }), 400, 'INVALID_ACTION', /"action"/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: { type: 'click', x: 'left', y: 3 } } }), 400, 'INVALID_ACTION', /"action\.x"/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: { type: 'teleport' } } }), 400, 'INVALID_ACTION', /"action/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 7 } }), 400, 'ACTION_OUT_OF_RANGE', /0\.\.4/);
    expectError(
      await call('POST', `/v1/sessions/${id}/step`, { raw: 'action=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // A body must say it is JSON: without a type, a web page could send it cross-origin with no preflight.
    expectError(await call('POST', `/v1/sessions/${id}/step`, { raw: Buffer.from('{"action":1}') }), 415, 'UNSUPPORTED_MEDIA_TYPE', /no Content-Type/);
    const plain = await call('POST', '/v1/sessions', { raw: '{"game":"snake"}', headers: { 'content-type': 'text/plain' } });
    expectError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE', /text\/plain/);
    expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1, pad: 'x'.repeat(40_000) } }), 413, 'BODY_TOO_LARGE', /16384 bytes/);
    expectError(
      await call('POST', '/v1/sessions', { raw: Buffer.alloc(3 * 1024 * 1024, 0x20), headers: { 'content-type': 'application/json' } }),
      413,
      'BODY_TOO_LARGE',
    );
    // Rejected requests did not count as steps.
    const r = conforms(StepResponse, (await call('POST', `/v1/sessions/${id}/step`, { body: { action: 1 } })).json);
    expect(r.info.step).toBe(1);
    await call('DELETE', `/v1/sessions/${id}`);
  });

  it('unknown sessions, paths and methods; missing or wrong tokens', async () => {
    expectError(await call('POST', '/v1/sessions/ses_nope/step', { body: { action: 1 } }), 404, 'SESSION_NOT_FOUND', /ses_nope/);
    expectError(await call('GET', '/v1/sessions/ses_nope'), 404, 'SESSION_NOT_FOUND');
    expectError(await call('DELETE', '/v1/sessions/%E0%A4%A'), 400, 'INVALID_PATH');
    expectError(await call('GET', '/v2/anything'), 404, 'NOT_FOUND', /openapi/);
    const m = await call('PUT', '/v1/sessions');
    expectError(m, 405, 'METHOD_NOT_ALLOWED');
    expect(m.headers.get('allow')).toBe('POST, GET');
    expectError(await call('GET', '/v1/games', { token: null }), 401, 'UNAUTHORIZED', /Bearer/);
    expectError(await call('POST', '/v1/sessions', { token: 'nope', body: { game: 'snake' } }), 401, 'UNAUTHORIZED');
  });

  it('a full server answers BUSY (503, the documented status) with Retry-After instead of queueing', async () => {
    const made = [await createSession(), await createSession(), await createSession()];
    const busy = await call('POST', '/v1/sessions', { body: { game: 'snake' } });
    expectError(busy, 503, 'BUSY', /retry after/);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((busy.json as { error: { retryAfterMs: number } }).error.retryAfterMs).toBeGreaterThanOrEqual(1000);
    for (const s of made) await call('DELETE', `/v1/sessions/${s.session.id}`);
  });

  it('a concurrent call on one session gets SESSION_BUSY (409)', async () => {
    const { session } = await createSession();
    const first = call('POST', `/v1/sessions/${session.id}/reset`, { body: { seed: 1 } });
    await new Promise((r) => setTimeout(r, 20));
    expectError(await call('POST', `/v1/sessions/${session.id}/step`, { body: { action: 1 } }), 409, 'SESSION_BUSY');
    expect((await first).status).toBe(200);
    await call('DELETE', `/v1/sessions/${session.id}`);
  });

  it('a GUI action with a huge coordinate is 400 INVALID_ACTION, and the page is not rebuilt for it', async () => {
    const { session } = await createSession();
    const id = session.id;
    await call('POST', `/v1/sessions/${id}/reset`, { body: { seed: 5 } });
    for (const action of [
      { type: 'click', x: 1e308, y: 10 },
      { type: 'drag', from: [0, 0], to: [0, -1e308] },
      { type: 'scroll', x: 5, y: 5, dy: 1e308 },
    ]) {
      expectError(await call('POST', `/v1/sessions/${id}/step`, { body: { action } }), 400, 'INVALID_ACTION', /"action\./);
    }
    const status = conforms(SessionStatusJson, (await call('GET', `/v1/sessions/${id}`)).json);
    expect({ recoveries: status.recoveries, episodeSteps: status.episodeSteps, state: status.state }).toEqual({
      recoveries: 0,
      episodeSteps: 0,
      state: 'idle',
    });
    const next = conforms(StepResponse, (await call('POST', `/v1/sessions/${id}/step`, { body: { action: { type: 'click', x: 10, y: 10 } } })).json);
    expect(next.info.step).toBe(1);
    expect(next.info.recovered).toBeUndefined();
    expect(next.truncated).toBe(false);
    await call('DELETE', `/v1/sessions/${id}`);
  });

  it('ms per step and step timeout are bounded: a session that would hold a renderer for minutes is refused', async () => {
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', msPerStep: 1e12 } }), 400, 'INVALID_BODY', /"msPerStep"/);
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', stepTimeoutMs: 1e9 } }), 400, 'INVALID_BODY', /"stepTimeoutMs"/);
    expectError(await call('POST', '/v1/sessions', { body: { game: 'snake', maxSteps: 1e7 } }), 400, 'INVALID_BODY', /"maxSteps"/);
    expect(openApiDocument()).toMatchObject({ components: { schemas: { CreateSessionRequest: { properties: { msPerStep: { maximum: 10_000 } } } } } });
  });

  it('garbage of every kind on every endpoint: only 4xx answers, and the server keeps serving', async () => {
    const { session } = await createSession();
    const paths = [
      '/v1/sessions',
      `/v1/sessions/${session.id}/reset`,
      `/v1/sessions/${session.id}/step`,
      '/v1/games',
      `/v1/sessions/${session.id}`,
      '/v1/sessions/x/y/z',
    ];
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '{"action":{"type":"drag","from":[1],"to":[2,3]}}',
      '{"game":{"$ne":1}}',
      '{"seed":1e400}',
      '\u0000\u0001',
      '{"action":99999999999999999999}',
      '{"game":"snake","pixels":{"width":100000}}',
      '{"game":"snake","maxSteps":0}',
    ];
    const statuses = new Set<number>();
    for (const p of paths) {
      for (const b of bodies) {
        for (const method of ['POST', 'GET', 'DELETE', 'PATCH']) {
          if (method === 'DELETE' && p === `/v1/sessions/${session.id}`) continue;
          const a = await call(method, p, method === 'GET' ? {} : { raw: b, headers: { 'content-type': 'application/json' } });
          statuses.add(a.status);
          expect(a.status, `${method} ${p} ${b}`).toBeLessThan(500);
          if (a.status >= 400) conforms(ErrorBody, a.json);
        }
      }
    }
    expect([...statuses].some((s) => s >= 400)).toBe(true);
    // A raw malformed HTTP request is refused too, and the server lives on.
    const raw = await new Promise<string>((resolve) => {
      const sock = connect(server.port, '127.0.0.1', () => sock.write('GARBAGE / HTTP/9.9\r\n\r\n'));
      let text = '';
      sock.on('data', (d) => (text += d.toString()));
      sock.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await call('GET', '/health')).status).toBe(200);
    await call('DELETE', `/v1/sessions/${session.id}`).catch(() => undefined);
  });
});

describe('HTTP API: binding', () => {
  it('refuses to listen beyond loopback without a token', async () => {
    await expect(startGymServer({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/without a token/);
    await expect(startGymServer({ host: '0.0.0.0', port: 0, token: 'short' })).rejects.toThrow(/at least 8/);
  });

  it('`arcade-gym serve --host 0.0.0.0` without a token exits with a clear message', async () => {
    const env = { ...process.env };
    delete env.ARCADE_GYM_TOKEN;
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['bin/arcade-gym.mjs', 'serve', '--host', '0.0.0.0', '--port', '0'],
        { cwd: ROOT, env, timeout: 60_000 },
        (_err, _out, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/arcade-gym serve: Refusing to listen on 0\.0\.0\.0 without a token/);
  });
});

describe('HTTP API: batch steps (POST /v1/steps)', () => {
  let batchServer: GymServer;
  let batchBase: string;
  beforeAll(async () => {
    batchServer = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 8 }, maxSessions: 8 } });
    batchBase = batchServer.url;
  });
  afterAll(async () => {
    await batchServer?.close();
  });
  const batchCall = httpClient(() => batchBase);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => batchCall('POST', path, { body, headers });
  const open = async (seed: number, extra: Record<string, unknown> = {}) => {
    const created = conforms(
      CreateSessionResponse,
      (await post('/v1/sessions', { game: 'snake', observation: ['state', 'vector'], maxSteps: 6, ...extra })).json,
    );
    expect((await post(`/v1/sessions/${created.session.id}/reset`, { seed })).status).toBe(200);
    return created.session.id;
  };
  const status = async (id: string) => conforms(SessionStatusJson, await (await fetch(`${batchBase}/v1/sessions/${id}`)).json());

  it('steps several sessions in one call, each exactly as a step of its own would', async () => {
    const [a, b, c] = [await open(11), await open(12), await open(11)];
    const batch = await post('/v1/steps', {
      steps: [
        { session: a, action: 1 },
        { session: b, action: 2 },
      ],
    });
    expect(batch.status).toBe(200);
    const results = conforms(BatchStepResponse, batch.json).results;
    expect(results).toHaveLength(2);
    // c is a's twin (same seed), stepped alone.
    const single = conforms(StepResponse, (await post(`/v1/sessions/${c}/step`, { action: 1 })).json);
    expect(results[0]).toEqual(single);
    expect((results[1] as z.infer<typeof StepResponse>).info.step).toBe(1);
    expect([(await status(a)).episodeSteps, (await status(b)).episodeSteps]).toEqual([1, 1]);
  });

  it('refuses the whole batch, before any step, for an unknown session, a bad action or a repeated session', async () => {
    const [a, b] = [await open(21), await open(22)];
    const unknown = await post('/v1/steps', {
      steps: [
        { session: a, action: 1 },
        { session: 'nope', action: 1 },
      ],
    });
    expectError(unknown, 404, 'SESSION_NOT_FOUND');
    const range = await post('/v1/steps', {
      steps: [
        { session: a, action: 1 },
        { session: b, action: 7 },
      ],
    });
    expectError(range, 400, 'ACTION_OUT_OF_RANGE', /^steps\[1\] \(session .+\): Action index 7 is out of range for snake/);
    const malformed = await post('/v1/steps', { steps: [{ session: a, action: 'left' }] });
    expectError(malformed, 400, 'INVALID_ACTION');
    const huge = await post('/v1/steps', { steps: [{ session: a, action: { type: 'click', x: 1e308, y: 1 } }] });
    expectError(huge, 400, 'INVALID_ACTION', /"steps\.0\.action\.x"/);
    const twice = await post('/v1/steps', {
      steps: [
        { session: a, action: 1 },
        { session: a, action: 2 },
      ],
    });
    expectError(twice, 400, 'INVALID_BODY', /only once/);
    const empty = await post('/v1/steps', { steps: [] });
    expectError(empty, 400, 'INVALID_BODY');
    expect([(await status(a)).episodeSteps, (await status(b)).episodeSteps]).toEqual([0, 0]);
  });

  it('answers a step that cannot run with its own error while the others run; binary frames share one payload', async () => {
    const short = await open(31, { maxSteps: 1 });
    const [p, q] = [
      await open(32, { observation: ['state', 'pixels'], pixels: { width: 8, height: 8, grayscale: true } }),
      await open(33, { observation: ['state', 'pixels'], pixels: { width: 8, height: 8, grayscale: true } }),
    ];
    expect(conforms(BatchStepResponse, (await post('/v1/steps', { steps: [{ session: short, action: 1 }] })).json).results[0]).toMatchObject({
      truncated: true,
    });
    const mixed = await post('/v1/steps', {
      steps: [
        { session: short, action: 1 },
        { session: p, action: 1 },
      ],
    });
    expect(mixed.status).toBe(200);
    const [ended, ran] = conforms(BatchStepResponse, mixed.json).results;
    expect(ended).toMatchObject({ status: 409, error: { code: 'EPISODE_ENDED' } });
    expect((ran as z.infer<typeof StepResponse>).info.step).toBe(1);

    const framed = await post(
      '/v1/steps',
      {
        steps: [
          { session: p, action: 2 },
          { session: q, action: 2 },
        ],
      },
      { accept: 'application/octet-stream' },
    );
    expect(framed.headers.get('content-type')).toBe('application/octet-stream');
    const { json, payload } = decodeFrame(framed.bytes);
    const pix = conforms(BatchStepResponse, json).results.map((r) => (r as z.infer<typeof StepResponse>).observation.pixels!);
    expect(pix.map((x) => x.encoding)).toEqual(['binary', 'binary']);
    const spans = pix.map((x) => (x.encoding === 'binary' ? [x.offset, x.length] : []));
    expect(spans).toEqual([
      [0, 64],
      [64, 64],
    ]);
    expect(payload.length).toBe(128);
  });
});
