import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useBrowser } from '../testing/harness';
import { GAME_ORIGIN, serveFiles } from '../browser/serve-files';
import { PUBLIC_DIR, RUNTIME_BUNDLE_PATH } from '../paths';
import { EpisodeAccount, RESET_ADVANCE_MS } from '../env/episode-account';
import { canonicalJson, type StepRecord, type VerifierState } from '../schema/records';
import type { GuiAction } from '../schema/action';

const gym = useBrowser();

/**
 * A game that keeps its board in every kind of storage a page has: it counts earlier visits in
 * localStorage, sessionStorage, a cookie and IndexedDB, resumes a saved board from localStorage,
 * and saves it after every move. With real storage, its second episode in a tab starts elsewhere.
 */
const STORAGE_GAME = `
  const count = (v) => Number(v ?? 0) || 0;
  const cookie = (name) => (document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)')) || [])[1];
  window.game = {
    ls: count(localStorage.getItem('visits')),
    ss: count(sessionStorage.visits),
    ck: count(cookie('visits')),
    idb: -1,
    idbAt: -1,
    pos: 0,
    board: JSON.parse(localStorage.getItem('board') ?? 'null') ?? [Math.random(), Math.random(), Math.random()],
  };
  localStorage.setItem('visits', String(game.ls + 1));
  sessionStorage.visits = game.ss + 1;
  document.cookie = 'visits=' + (game.ck + 1) + '; max-age=3600; path=/';
  const open = indexedDB.open('fixture', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('kv');
  open.onsuccess = () => {
    const tx = open.result.transaction('kv', 'readwrite');
    const store = tx.objectStore('kv');
    const get = store.get('visits');
    get.onsuccess = () => {
      game.idb = count(get.result);
      store.put(game.idb + 1, 'visits');
    };
    tx.oncomplete = () => (game.idbAt = performance.now());
  };
  addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight') return;
    game.pos++;
    game.board = game.board.map((x) => (x + Math.random()) % 1);
    localStorage.setItem('board', JSON.stringify(game.board));
  });
  __arcadeRegisterVerifier({
    gameId: 'storage-fixture',
    read: (w) => ({ score: w.game.pos + 100 * (w.game.ls + w.game.ss + w.game.ck + Math.max(0, w.game.idb)), gameOver: false, ...w.game }),
    features: { names: [], encode: () => [] },
  });
`;

let dir: string;
function fixtureDir(): string {
  if (dir) return dir;
  dir = mkdtempSync(path.join(os.tmpdir(), 'arcade-storage-'));
  // The runtime comes first and the game is a plain script after it, as in a built game page.
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script src="/runtime/arcade-runtime.js"></script></head><body>
<canvas width="100" height="100"></canvas><script src="game.js"></script></body></html>`,
  );
  writeFileSync(path.join(dir, 'game.js'), STORAGE_GAME);
  return dir;
}
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function newContext(): Promise<BrowserContext> {
  const context = await (await gym.browser()).newContext();
  await serveFiles(context, [
    { prefix: '/fixture/', dir: fixtureDir() },
    { prefix: '/', dir: PUBLIC_DIR },
  ]);
  return context;
}

const GAME_URL = `${GAME_ORIGIN}/fixture/index.html`;
const ACTIONS: (GuiAction | null)[] = [{ type: 'key', key: 'ArrowRight' }, null, { type: 'key', key: 'ArrowRight' }, { type: 'key', key: 'ArrowRight' }];

/** One episode driven as the site's player drives it (see app/player/game-player.ts): reset, then one step per action. */
async function episode(page: Page, url = `${GAME_URL}?arcade-seed=7`): Promise<{ initial: VerifierState; steps: StepRecord[] }> {
  await page.goto(url);
  const step = (action: GuiAction | null, ms: number) =>
    page.evaluate(([a, m]) => globalThis.__arcade.step({ action: a, ms: m, obs: { state: true, vector: false, pixels: null, frameHash: false } }), [
      action,
      ms,
    ] as const);
  const first = await step(null, RESET_ADVANCE_MS);
  const account = new EpisodeAccount(
    {
      identity: { gameId: 'storage-fixture', gameVersion: '1', verifierChecksum: 'x', runtimeVersion: 'x' },
      seed: 7,
      stepBudget: 100,
      msPerStep: 100,
      shaping: { perStep: 0, terminal: 0 },
    },
    first.state,
  );
  for (const a of ACTIONS) {
    const r = await step(a, 100);
    account.record(a ?? { type: 'wait' }, r.state, r.virtualTimeMs);
  }
  return {
    initial: first.state,
    steps: account.episodeRecord({
      viewport: { width: 1, height: 1 },
      deviceScaleFactor: 1,
      browser: { name: 'x', version: 'x' },
      finalFrameHash: '',
    }).steps,
  };
}

describe('storage is part of the virtual world', () => {
  it('gives every episode in one tab empty storage, so both produce the same records', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const first = await episode(page);
    const second = await episode(page);
    // Nothing carried over from the first episode, in any kind of storage; IndexedDB answered in virtual time.
    expect(first.initial).toMatchObject({ ls: 0, ss: 0, ck: 0 });
    expect(first.steps.at(-1)!.info.state).toMatchObject({ ls: 0, ss: 0, ck: 0, idb: 0, idbAt: RESET_ADVANCE_MS, pos: 3 });
    expect(second.initial).toEqual(first.initial);
    expect(canonicalJson(second.steps)).toBe(canonicalJson(first.steps));

    // A fresh context with the runtime injected the gym's way (an init script) gives the same records again.
    const fresh = await newContext();
    await fresh.addInitScript({ content: `globalThis.__ARCADE_CONFIG__ = { seed: 7 };\n${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')}` });
    const gymStyle = await episode(await fresh.newPage(), GAME_URL);
    expect(canonicalJson(gymStyle.steps)).toBe(canonicalJson(first.steps));
    await Promise.all([context.close(), fresh.close()]);
  });

  it('never lets a game write to the browser’s real storage', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await episode(page);
    await episode(page);
    const real = await context.storageState({ indexedDB: true });
    expect(real.cookies).toEqual([]);
    expect(real.origins).toEqual([]);
    // The same origin without the runtime (an ordinary page) sees nothing the game wrote.
    await page.goto(GAME_URL.replace('index.html', 'missing.html'));
    expect(
      await page.evaluate(async () => ({
        local: localStorage.length,
        session: sessionStorage.length,
        cookie: document.cookie,
        databases: (await indexedDB.databases()).length,
      })),
    ).toEqual({ local: 0, session: 0, cookie: '', databases: 0 });
    await context.close();
  });

  it('behaves like the browser’s storage APIs', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${GAME_URL}?arcade-seed=1`);
    const got = await page.evaluate(() => {
      const s = localStorage;
      s.setItem('a', 1 as unknown as string);
      (s as unknown as Record<string, unknown>).b = { toString: () => 'two' };
      s.setItem('getItem', 'shadowed');
      const out: Record<string, unknown> = {
        isStorage: s instanceof Storage,
        tag: Object.prototype.toString.call(s),
        a: s.a,
        b: s.getItem('b'),
        methodWins: typeof s.getItem,
        item: s.getItem('getItem'),
        keys: Object.keys(s),
        has: 'a' in s,
        length: s.length,
        key1: s.key(1),
        key9: s.key(9),
        missing: s.getItem('nope'),
        json: JSON.stringify(s),
      };
      delete (s as unknown as Record<string, unknown>).a;
      s.removeItem('getItem');
      out.afterDelete = Object.keys(s);
      sessionStorage.clear();
      s.clear();
      out.cleared = [s.length, sessionStorage.length];
      return out;
    });
    expect(got).toEqual({
      isStorage: true,
      tag: '[object Storage]',
      a: '1',
      b: 'two',
      methodWins: 'function',
      item: 'shadowed',
      keys: ['visits', 'a', 'b', 'getItem'],
      has: true,
      length: 4,
      key1: 'a',
      key9: null,
      missing: null,
      json: JSON.stringify({ visits: '1', a: '1', b: 'two' }),
      afterDelete: ['visits', 'b'],
      cleared: [0, 0],
    });
    await context.close();
  });

  it('expires cookies and runs IndexedDB and scheduler tasks on the virtual clock', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${GAME_URL}?arcade-seed=1`);
    await page.evaluate(() => {
      document.cookie = 'short=1; max-age=1';
      document.cookie = `long=2; expires=${new Date(Date.now() + 5000).toUTCString()}`;
      document.cookie = 'secret=3; HttpOnly';
      document.cookie = 'visits=9'; // replaces the game's cookie in place
      const w = window as unknown as { log: string[] };
      w.log = [];
      const s = (globalThis as unknown as { scheduler: { postTask(f: () => void, o?: { delay?: number }): Promise<void> } }).scheduler;
      void s.postTask(() => w.log.push(`task@${performance.now()}`), { delay: 50 });
    });
    // Real time does not move IndexedDB or scheduled tasks: the game's database request is still pending.
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => [(window as unknown as { game: { idb: number } }).game.idb, (window as unknown as { log: string[] }).log])).toEqual([
      -1,
      [],
    ]);
    expect(await page.evaluate(() => document.cookie)).toBe('visits=9; short=1; long=2');
    await page.evaluate(() => globalThis.__arcade.advance(1000));
    expect(await page.evaluate(() => [document.cookie, (window as unknown as { log: string[] }).log])).toEqual(['visits=9; long=2', ['task@50']]);
    // fake-indexeddb hops through a promise between its tasks, so a request completes in the driver's next call.
    await page.evaluate(() => globalThis.__arcade.advance(4000));
    expect(await page.evaluate(() => [document.cookie, (window as unknown as { game: { idb: number; idbAt: number } }).game])).toEqual([
      'visits=9',
      expect.objectContaining({ idb: 0, idbAt: 1000 }),
    ]);
    await context.close();
  });
});
