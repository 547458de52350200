import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../browser/launch';
import { findChromium } from '../browser/find-chromium';
import { startGymServer, type GymServer } from './server';

/**
 * Web pages against the loopback gym, in real Chromium: a page served from another port (a
 * different origin) and a page reached through a host name that resolves to 127.0.0.1 (what a
 * DNS-rebinding attacker gets). Neither may create sessions or read the session list.
 */

const REBIND_HOST = 'rebind.test';
let gym: GymServer;
let open: GymServer;
let site: Server;
let siteOrigin: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const sessions = { pool: { maxBrowsers: 1, pagesPerBrowser: 2 }, maxSessions: 2 };
  gym = await startGymServer({ port: 0, sessions });
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  open = await startGymServer({ port: 0, sessions, allowedOrigins: [siteOrigin] });
  browser = await chromium.launch({
    executablePath: findChromium({ headless: true }),
    args: [...CHROMIUM_ARGS, '--no-sandbox', `--host-resolver-rules=MAP ${REBIND_HOST} 127.0.0.1`],
  });
  page = await browser.newPage();
  await page.goto(`${siteOrigin}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await gym?.close();
  await open?.close();
});

/**
 * Runs `fetch` in the other site's page; "blocked" when the browser keeps the answer from the
 * page. `typeless` sends the body as a Blob without a type: a request with no Content-Type.
 */
function pageFetch(url: string, init: RequestInit & { typeless?: boolean }): Promise<{ status: number; type: string; body: string } | 'blocked'> {
  return page.evaluate(
    async ([u, { typeless, ...i }]) => {
      try {
        const res = await fetch(u, typeless ? { ...i, body: new Blob([i.body as string]) } : i);
        return { status: res.status, type: res.type, body: res.type === 'opaque' ? '' : await res.text() };
      } catch {
        return 'blocked' as const;
      }
    },
    [url, init] as const,
  );
}

/** A plain Node request with chosen headers (fetch does not let a caller set Host). */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; json: { error?: { code: string; message: string } } | null }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('web pages and the loopback gym', () => {
  it('a page of another origin cannot create a session with a no-cors request, nor read the session list', async () => {
    const body = JSON.stringify({ game: 'snake', observation: 'state' });
    // Requests a page may send anywhere without a CORS preflight: a body with no type, and text/plain.
    expect(await pageFetch(`${gym.url}/v1/sessions`, { method: 'POST', mode: 'no-cors', body, typeless: true })).toMatchObject({ type: 'opaque' });
    expect(await pageFetch(`${gym.url}/v1/sessions`, { method: 'POST', mode: 'no-cors', body })).toMatchObject({ type: 'opaque' });
    expect(gym.sessions.openSessions).toBe(0);
    const asJson = await pageFetch(`${gym.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(asJson).toBe('blocked');
    expect(await pageFetch(`${gym.url}/v1/sessions`, { method: 'GET' })).toBe('blocked');
    expect(gym.sessions.openSessions).toBe(0);
  });

  it('a page reached through a host name that resolves to 127.0.0.1 (DNS rebinding) gets 403, not the session list', async () => {
    const port = new URL(gym.url).port;
    const rebound = await browser.newPage();
    try {
      const res = await rebound.goto(`http://${REBIND_HOST}:${port}/v1/sessions`);
      expect(res?.status()).toBe(403);
      expect(JSON.parse(await res!.text())).toMatchObject({ error: { code: 'FORBIDDEN_HOST' } });
      // The same page, same-origin with the server as far as the browser knows, cannot create sessions either.
      const made = await rebound.evaluate(async () => {
        const r = await fetch('/v1/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"game":"snake"}' });
        return r.status;
      });
      expect(made).toBe(403);
      expect(gym.sessions.openSessions).toBe(0);
    } finally {
      await rebound.close();
    }
  });

  it('an origin allowed with --allow-origin may use the API with CORS; its bodies must still be JSON', async () => {
    const created = await pageFetch(`${open.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'snake', observation: 'state' }),
    });
    if (created === 'blocked') throw new Error('the allowed origin was blocked');
    expect(created, created.body).toMatchObject({ status: 201 });
    const id = (JSON.parse(created.body) as { session: { id: string } }).session.id;
    const list = await pageFetch(`${open.url}/v1/sessions`, { method: 'GET' });
    if (list === 'blocked') throw new Error('the allowed origin could not read the session list');
    expect(
      (JSON.parse(list.body) as { sessions: { id: string }[] }).sessions.map((s) => s.id),
      list.body,
    ).toEqual([id]);
    const plain = await pageFetch(`${open.url}/v1/sessions`, { method: 'POST', body: JSON.stringify({ game: 'snake' }) });
    expect(plain).toMatchObject({ status: 415 });
    const typeless = await pageFetch(`${open.url}/v1/sessions`, { method: 'POST', body: JSON.stringify({ game: 'snake' }), typeless: true });
    expect(typeless).toMatchObject({ status: 415 });
    expect(open.sessions.openSessions).toBe(1);
    expect(await pageFetch(`${open.url}/v1/sessions/${id}`, { method: 'DELETE' })).toMatchObject({ status: 200 });
    expect(open.sessions.openSessions).toBe(0);
  });
});

describe('origin and host checks, header by header', () => {
  it('a foreign Origin is 403 FORBIDDEN_ORIGIN on every path; no Origin (programs) is fine', async () => {
    const port = Number(new URL(gym.url).port);
    for (const path of ['/health', '/v1/sessions', '/v1/games', '/nowhere']) {
      const a = await rawRequest(port, 'GET', path, { origin: 'http://evil.example' });
      expect([a.status, a.json?.error?.code], path).toEqual([403, 'FORBIDDEN_ORIGIN']);
    }
    expect((await rawRequest(port, 'GET', '/v1/sessions', {})).status).toBe(200);
  });

  it('on loopback, only loopback Host names are answered', async () => {
    const port = Number(new URL(gym.url).port);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost']) {
      expect((await rawRequest(port, 'GET', '/health', { host })).status, host).toBe(200);
    }
    for (const host of [`${REBIND_HOST}:${port}`, 'example.com', '127.0.0.1.evil.example', '']) {
      const a = await rawRequest(port, 'GET', '/health', { host });
      expect([a.status, a.json?.error?.code], host).toEqual([403, 'FORBIDDEN_HOST']);
    }
  });

  it('answers an allowed origin’s preflight, and refuses a malformed --allow-origin', async () => {
    const port = Number(new URL(open.url).port);
    const pre = await rawRequest(port, 'OPTIONS', '/v1/sessions', {
      origin: siteOrigin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers).toMatchObject({ 'access-control-allow-origin': siteOrigin, 'access-control-allow-methods': expect.stringContaining('POST') });
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/Content-Type/);
    expect((await rawRequest(port, 'OPTIONS', '/v1/sessions', { origin: 'http://evil.example', 'access-control-request-method': 'POST' })).status).toBe(403);
    await expect(startGymServer({ port: 0, allowedOrigins: ['http://localhost:5173/app'] })).rejects.toThrow(/Not an origin/);
    await expect(startGymServer({ port: 0, allowedOrigins: ['*'] })).rejects.toThrow(/Not an origin/);
  });
});
