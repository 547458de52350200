import { expect, test, type APIRequestContext } from '@playwright/test';
import { startGymServer, type GymServer } from '../gym/server';
import { GYM_PORT } from '../playwright.config';
import { HTTP_METHODS, discoverRoutes, fillRoute, type AppRoute } from './app-routes';

/**
 * Every page and API route of the site, found on disk, fed bad path parameters, bad query
 * strings, every HTTP method and bad bodies: whatever comes in, the answer is never a 5xx. A bad
 * request is the client's error (4xx), or a page that says "not found".
 */

/** Path parameters as they travel (URL-encoded where a browser would encode them). */
const BAD_SEGMENTS = [
  '%00',
  'a%00b',
  '%',
  '%25',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%F0%9F%98%80',
  '..%2F..%2Fpackage.json',
  '%2e%2e',
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent("x' OR '1'='1"),
  '%20',
  '-1',
  '1e400',
  '99999999999999999999999',
  'null',
  'x'.repeat(4000),
  '00000000-0000-0000-0000-000000000000',
  'snake',
];

const BAD_VALUES = ['%00', '%', '-1e400', 'x'.repeat(3000)];
const STRUCTURAL_QUERIES = ['?%00=1', '?a=1&a=2&a[]=3', `?${'k=v&'.repeat(300)}`];
/** Tried on every route besides the names its own code reads. */
const COMMON_KEYS = ['page', 'seed'];

const BODIES: { body: string; type?: string }[] = [
  { body: '' },
  { body: '{', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '[]', type: 'application/json' },
  { body: '{}', type: 'application/json' },
  { body: '"\\u0000"', type: 'application/json' },
  { body: '{"id":null,"agent":"\\u0000","episodes":[{}]}', type: 'application/json' },
  { body: '['.repeat(20_000) + ']'.repeat(20_000), type: 'application/json' },
  { body: '\u0000\u0001\u0002', type: 'text/plain' },
];

/** The fuzz stays bounded as routes are added (about 40 requests a route today). */
const MAX_REQUESTS = 1500;

interface Probe {
  method: string;
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

function probesFor(route: AppRoute): Probe[] {
  const dynamic = route.segments.some((s) => s.kind !== 'static');
  const sample = fillRoute(route, 'snake');
  const probes: Probe[] = [];
  if (dynamic) for (const v of BAD_SEGMENTS) probes.push({ method: 'GET', url: fillRoute(route, v) });
  const keys = [...new Set([...route.queryKeys, ...COMMON_KEYS])];
  for (const k of keys) for (const v of BAD_VALUES) probes.push({ method: 'GET', url: `${sample}?${k}=${v}` });
  for (const q of STRUCTURAL_QUERIES) probes.push({ method: 'GET', url: sample + q });
  for (const method of HTTP_METHODS) probes.push({ method, url: dynamic ? fillRoute(route, '%00') : sample });
  for (const method of route.methods.filter((m) => m !== 'GET' && m !== 'HEAD')) {
    for (const b of BODIES) {
      const headers: Record<string, string> = { authorization: 'Bearer agt_%00' };
      if (b.type) headers['content-type'] = b.type;
      probes.push({ method, url: sample, body: b.body, headers });
    }
  }
  return probes;
}

async function send(request: APIRequestContext, p: Probe): Promise<number | string> {
  try {
    const r = await request.fetch(p.url, {
      method: p.method,
      data: p.body,
      headers: p.headers,
      maxRedirects: 0,
      failOnStatusCode: false,
      timeout: 15_000,
    });
    // A streaming answer (the watch relay) only needs its status; don't wait for the stream.
    if ((r.headers()['content-type'] ?? '').includes('text/event-stream')) return r.status();
    await r.body().catch(() => undefined);
    return r.status();
  } catch (e) {
    return `no answer: ${e instanceof Error ? e.message.split('\n')[0] : e}`;
  }
}

let gym: GymServer;

test.beforeAll(async () => {
  // The watch pages relay to a gym server: give them one, so bad ids travel all the way.
  gym = await startGymServer({ port: GYM_PORT, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 1 }, maxSessions: 1 } });
});

test.afterAll(async () => {
  await gym?.close();
});

test('the routes are read from the app folder', () => {
  const routes = discoverRoutes();
  const patterns = routes.map((r) => `${r.kind} ${r.pattern}`);
  expect(patterns).toEqual(expect.arrayContaining(['page /', 'page /agents/[name]', 'page /replay', 'page /play/[id]', 'api /api/runs', 'api /openapi.json']));
  for (const r of routes.filter((x) => x.kind === 'api')) expect(r.methods.length, r.pattern).toBeGreaterThan(0);
});

test('no page or API route answers 5xx, whatever the path, query, method or body', async ({ request }) => {
  test.setTimeout(600_000);
  // The first query opens the database (and creates it on a first start): not what is measured here.
  expect((await request.get('/agents/warm-up', { timeout: 120_000 })).status()).toBe(404);
  const routes = discoverRoutes();
  const probes = [
    ...routes.flatMap(probesFor),
    // Paths that match no route at all, and the static files beside the routes.
    ...BAD_SEGMENTS.map((v) => ({ method: 'GET', url: `/${v}` })),
    ...BAD_SEGMENTS.slice(0, 8).map((v) => ({ method: 'GET', url: `/games/${v}/index.html` })),
  ];
  expect(probes.length).toBeLessThanOrEqual(MAX_REQUESTS);
  const failures: string[] = [];
  // A few at a time: bounded load on the server, and a hung route cannot stall the rest.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < probes.length) {
        const p = probes[next++];
        const status = await send(request, p);
        if (typeof status === 'string' || status >= 500) failures.push(`${p.method} ${p.url.slice(0, 160)} → ${status}`);
      }
    }),
  );
  expect(failures, `${failures.length} of ${probes.length} requests failed`).toEqual([]);
});
