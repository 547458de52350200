import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeEnv } from '../gym';
import { createScriptedAgent } from '../gym/agents';
import { runEpisode } from '../gym/eval';
import type { EpisodeRecord } from '../gym/schema';

/**
 * A game that keeps state in storage replays the same way in a reused tab as in the gym. No game
 * of ours saves anything, so Snake is served here with a prelude that behaves like one that does:
 * for every earlier visit it finds in localStorage, sessionStorage, a cookie or IndexedDB it draws
 * once from Math.random, so a board carried over from an earlier episode shows up as a different
 * food cell. With empty storage it draws nothing, and plays exactly as the gym's Snake did.
 */
const KEY = 'arcade-e2e-visits';
const PRELUDE = `(() => {
  const KEY = ${JSON.stringify(KEY)};
  const cookie = (document.cookie.match(/(?:^|; )${KEY}=(\\d+)/) || [])[1];
  const seen = Number(localStorage.getItem(KEY) || 0) + Number(sessionStorage.getItem(KEY) || 0) + Number(cookie || 0);
  for (let i = 0; i < seen; i++) Math.random();
  localStorage.setItem(KEY, '1');
  sessionStorage.setItem(KEY, '1');
  document.cookie = KEY + '=1; max-age=86400; path=/';
  const open = indexedDB.open(KEY, 1);
  open.onupgradeneeded = () => open.result.createObjectStore('kv');
  open.onsuccess = () => {
    const store = open.result.transaction('kv', 'readwrite').objectStore('kv');
    const get = store.get(KEY);
    get.onsuccess = () => {
      for (let i = 0; i < (get.result || 0); i++) Math.random();
      store.put(1, KEY);
    };
  };
})();
`;

const records: { record: EpisodeRecord; file: string }[] = [];

test.beforeAll(async () => {
  // Two real episodes from the headless gym (a fresh browser context each, so empty storage).
  for (const seed of [21, 22]) {
    const env = makeEnv({ game: 'snake', seed, observation: 'state', maxSteps: 40 });
    const record = await runEpisode(env, await createScriptedAgent('snake'), seed);
    await env.close();
    const file = path.join(os.tmpdir(), `arcade-storage-${process.pid}-${seed}.jsonl`);
    writeFileSync(file, `${JSON.stringify(record)}\n`);
    records.push({ record, file });
  }
});

async function replayToEnd(page: Page, { record }: { record: EpisodeRecord }) {
  await expect(page.getByTestId('replay-step')).toHaveText('0');
  await page.getByLabel('Scrub').fill(String(record.actions.length));
  await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', String(record.actions.length));
  await expect(page.getByTestId('replay-status')).toContainText('matches the record');
  await expect(page.getByTestId('replay-frame-hash')).toHaveText(record.finalFrameHash);
}

test('two episodes of a game that saves to storage replay back to back in one tab, each from empty storage', async ({ page, context }) => {
  await page.route('**/games/snake/game.js*', async (route) => {
    const original = await route.fetch();
    await route.fulfill({ response: original, body: PRELUDE + (await original.text()) });
  });
  await page.goto('/replay');
  for (const r of records) {
    await page.locator('input[type=file]').setInputFiles(r.file);
    await replayToEnd(page, r);
  }
  // Restart reloads the game in the same iframe: a third episode in the same tab.
  await page.getByLabel('Restart').click();
  await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', '0');
  await replayToEnd(page, records[1]);

  // The prelude did run and save, into the episode's own storage...
  const game = page.locator('.replay-stage iframe').contentFrame();
  expect(await game.locator('html').evaluate((_, k) => [localStorage.getItem(k), sessionStorage.getItem(k), document.cookie], KEY)).toEqual([
    '1',
    '1',
    `${KEY}=1`,
  ]);
  // ...and none of it reached the site's storage, which the game's page shares an origin with.
  expect(
    await page.evaluate(
      async (k) => [localStorage.getItem(k), sessionStorage.getItem(k), document.cookie.includes(k), (await indexedDB.databases()).map((d) => d.name)],
      KEY,
    ),
  ).toEqual([null, null, false, []]);
  expect((await context.cookies()).map((c) => c.name)).not.toContain(KEY);
});
