/**
 * The leaderboard in a real browser against `next start`: the database the site owns is seeded
 * with the snake baselines (scripts/seed-db.ts: ticketed and replayed like any run), a token is
 * made with the CLI, a scripted run is evaluated on a ticket the site draws and submitted with
 * `arcade-gym submit` (which waits while the server replays it), and the pages must show all of it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { arcadeCli } from './arcade-cli';
import { BASELINE_SEED_COUNT } from '../leaderboard/baselines';

const run = promisify(execFile);
const ROOT = process.cwd();
// The same folder playwright.config.ts gives the server.
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';
const env = { ...process.env, ARCADE_DATA_DIR: DATA_DIR, ARCADE_SEED_GAMES: 'snake', FORCE_COLOR: '0' };
const agent = `e2e-${Date.now().toString(36)}`;
let runPath = '';
let ticketSeeds: number[] = [];

const cli = arcadeCli(env);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(480_000);
  // Before any page has opened the database (the server opens it on first use): seed in this process.
  const seeded = await run('npx', ['tsx', 'scripts/seed-db.ts'], { cwd: ROOT, env }).catch((e: { stderr?: string; message: string }) => {
    throw new Error(`seeding failed (is the site already holding ${DATA_DIR}?): ${e.stderr ?? e.message}`);
  });
  expect(seeded.stdout).toMatch(/baselines done/);

  const token = (await cli(['token', 'create', '--name', `${agent}-token`])).stdout.trim();
  expect(token).toMatch(/^agt_[A-Za-z0-9_-]{20,}$/);

  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'arcade-e2e-')), 'run.jsonl');
  // The site draws the seeds (a ticket, written beside the records), and submit finds the ticket there.
  await cli(['eval', '--game', 'snake', '--agent', 'scripted', '--seeds', '3', '--observation', 'state', '--out', out, '--server', baseURL!, '--token', token]);
  ticketSeeds = (JSON.parse(readFileSync(`${out}.ticket.json`, 'utf8')) as { games: { seeds: number[] }[] }).games[0].seeds;
  expect(ticketSeeds).toHaveLength(3);
  const submitted = await cli(['submit', out, '--server', baseURL!, '--token', token, '--agent', agent, '--observation', 'state', '--harness', 'scripted-e2e']);
  expect(submitted.stdout).toMatch(/Accepted: run .*3 episodes verified by replay, 3 ranked on snake/);
  runPath = /\/runs\/[0-9a-f-]{36}/.exec(submitted.stdout)?.[0] ?? '';
  expect(runPath, submitted.stdout).not.toBe('');

  // The server owns the database now: a second token goes through its admin endpoint.
  const second = await cli(['token', 'create', '--name', `${agent}-second`, '--server', baseURL!]);
  expect(second.stderr).toMatch(/running site/);
  expect(second.stdout.trim()).toMatch(/^agt_/);
});

test('the leaderboard lists the baselines and the verified submission, sortable and filterable', async ({ page }) => {
  await page.goto('/leaderboard?suite=all');
  await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
  const board = page.getByTestId('leaderboard');
  const mine = board.locator(`tr[data-agent="${agent}"]`);
  // The default board ranks what the server played; this run played a known-seed ticket, so it is in the view of every entry.
  await expect(board.locator('tr[data-agent="random"] [data-badge=server-played]')).toBeVisible();
  await expect(mine).toHaveCount(0);
  await page.getByRole('link', { name: 'all, with known-seed tickets' }).click();
  await expect(page).toHaveURL(/play=any/);
  await expect(mine).toBeVisible();
  await expect(mine.locator('[data-badge=known-seeds]')).toBeVisible();
  await expect(mine.locator('[data-badge=verified]')).toBeVisible();
  await expect(mine.locator('[data-badge=ticketed]')).toBeVisible();
  await expect(mine).toContainText('scripted-e2e');
  await expect(board.locator('tr[data-agent="random"]').getByText('baseline')).toBeVisible();
  await expect(board.locator('tr[data-agent="scripted"]')).toBeVisible();
  await expect(board.getByRole('columnheader', { name: /Snake/ })).toBeVisible();

  // Sort by the snake column, then switch to raw scores: both are plain links.
  await board.getByRole('columnheader', { name: /Snake/ }).getByRole('link').click();
  await expect(page).toHaveURL(/sort=game%3Asnake|sort=game:snake/);
  const names = await board.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-agent')));
  expect(names.indexOf('random')).toBeGreaterThan(names.indexOf('scripted'));
  await page.getByRole('link', { name: 'raw scores' }).click();
  await expect(page).toHaveURL(/view=raw/);
  // The snake column's position depends on how many games the site has: find it by its header.
  const headers = await board.locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent ?? ''));
  const snakeColumn = headers.findIndex((h) => /Snake/.test(h));
  expect(snakeColumn).toBeGreaterThan(0);
  await expect(board.locator(`tr[data-agent="${agent}"] > *`).nth(snakeColumn)).toContainText('3 seeds');

  await board.getByRole('link', { name: agent }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent}$`));
});

test('the agent page shows its games and runs, and leads to the run with replay links', async ({ page }) => {
  await page.goto(`/agents/${agent}`);
  await expect(page.getByRole('heading', { name: agent })).toBeVisible();
  const snake = page.getByTestId('agent-games').locator('tr[data-game="snake"]');
  await expect(snake).toContainText('3');
  await expect(snake.getByText('verified')).toBeVisible();
  // The tickets its token drew for snake, submitted, ranked, and forfeited seeds (issue 35: ticket shopping shown).
  await expect(page.getByTestId('agent-tickets').locator('tr[data-game="snake"] td')).toHaveText(['snake', '1', '1', '1', '0']);
  await page.getByTestId('agent-runs').getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`${runPath}$`));

  const episodes = page.getByTestId('run-episodes').locator('tbody tr');
  await expect(episodes).toHaveCount(3);
  await expect(episodes.first().getByText('verified')).toBeVisible();
  await expect(episodes.first().getByText('ticketed')).toBeVisible();
  await expect(page.getByTestId('run-ticket')).toContainText('ticketed');
  await expect(page.getByTestId('run-ranked')).toContainText('3 of 3 episodes');
  await expect(page.getByTestId('run-tickets').locator('tr[data-game="snake"] td')).toHaveText(['snake', '1', '1', '1', '0']);
  const replay = episodes.first().getByRole('link', { name: 'replay' });
  const href = await replay.getAttribute('href');
  expect(href).toMatch(/^\/replay\?src=/);
  // The record behind the replay link is the stored episode.
  const src = new URL(href!, 'http://x').searchParams.get('src')!;
  const record = await (await page.request.get(src)).json();
  expect(record).toMatchObject({ kind: 'episode', gameId: 'snake', seed: Math.min(...ticketSeeds) });
});

test('every ranked row on the freshly seeded site was replayed by the server and shows ticketed and verified', async ({ page }) => {
  await page.goto('/leaderboard?suite=all&play=any');
  const rows = page.getByTestId('leaderboard').locator('tbody tr');
  const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-agent')!));
  expect(names).toEqual(expect.arrayContaining(['random', 'scripted', 'ppo-generic', agent]));
  for (const name of names) {
    const row = page.getByTestId('leaderboard').locator(`tr[data-agent="${name}"]`);
    await expect(row.locator('[data-badge=ticketed]'), name).toBeVisible();
    await expect(row.locator('[data-badge=verified]'), name).toBeVisible();
  }
  // The baselines' runs, episode by episode: replayed, on a ticket, ranked.
  for (const baseline of ['random', 'scripted', 'ppo-generic']) {
    await page.goto(`/agents/${baseline}`);
    await page.getByTestId('agent-runs').getByRole('link').first().click();
    await expect(page.getByTestId('run-ticket')).toContainText('ticketed');
    const episodes = page.getByTestId('run-episodes').locator('tbody tr');
    await expect(episodes).toHaveCount(BASELINE_SEED_COUNT);
    for (let i = 0; i < BASELINE_SEED_COUNT; i++) {
      await expect(episodes.nth(i).getByText('verified')).toBeVisible();
      await expect(episodes.nth(i).getByText('ticketed')).toBeVisible();
      await expect(episodes.nth(i).getByTestId('unranked-reason')).toHaveCount(0);
    }
  }
});

test('the game page shows its references, top episodes and score distribution', async ({ page }) => {
  await page.goto('/games/snake');
  await expect(page.getByRole('heading', { name: 'Snake' })).toBeVisible();
  const refs = page.getByTestId('game-references');
  await expect(refs.locator('tbody[data-reference="human"]')).toContainText(/provisional|verified/);
  await expect(refs.locator('tbody[data-reference="random"]')).toContainText('random agent');
  await expect(page.getByTestId('top-episodes').locator('tbody tr').first()).toBeVisible();
  // recharts draws the bars in the browser.
  await expect(page.getByTestId('score-histogram').locator('.recharts-bar-rectangle').first()).toBeVisible();
});

test('the leaderboard is usable on a phone', async ({ browser }) => {
  const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2 });
  await phone.goto('/leaderboard?suite=all&play=any');
  await expect(phone.locator(`tr[data-agent="${agent}"]`)).toBeVisible();
  // The table scrolls inside its box; the page itself does not scroll sideways.
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await phone.close();
});

test('the API answers bad submissions with a stable JSON error', async ({ request }) => {
  const res = await request.post('/api/runs', { data: { id: 'x' } });
  expect(res.status()).toBe(401);
  expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  expect((await request.post('/api/tickets', { data: { game: 'snake' } })).status()).toBe(401);
  const doc = (await (await request.get('/openapi.json')).json()) as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/tickets', '/api/runs', '/api/submissions/{id}']));
  for (const missing of [
    '/runs/00000000-0000-0000-0000-000000000000',
    '/runs/not-a-run',
    '/agents/nobody-at-all',
    '/api/episodes/999999999',
    '/api/submissions/00000000-0000-0000-0000-000000000000',
  ]) {
    expect((await request.get(missing)).status(), missing).toBe(404);
  }
});
