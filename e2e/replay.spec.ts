import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeEnv } from '../gym';
import { createScriptedAgent } from '../gym/agents';
import { runEpisode } from '../gym/eval';
import type { EpisodeRecord } from '../gym/schema';

let record: EpisodeRecord;
let recordFile: string;

test.beforeAll(async () => {
  // A real episode from the headless gym, to be re-simulated in the visible page.
  const env = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 60 });
  record = await runEpisode(env, await createScriptedAgent('snake'), 5);
  await env.close();
  recordFile = path.join(os.tmpdir(), `arcade-replay-${process.pid}.jsonl`);
  writeFileSync(recordFile, `${JSON.stringify(record)}\n`);
});

async function scrub(page: Page, step: number) {
  await page.getByLabel('Scrub').fill(String(step));
  await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', String(step));
}

test('a recorded episode replays in the browser to the recorded score and final frame', async ({ page }) => {
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(recordFile);
  await expect(page.getByTestId('replay-step')).toHaveText('0');
  await scrub(page, record.actions.length);
  await expect(page.getByTestId('replay-score')).toHaveText(String(record.totals.score));
  await expect(page.getByTestId('replay-status')).toContainText('matches the record');
  await expect(page.getByTestId('replay-frame-hash')).toHaveText(record.finalFrameHash);
});

test('scrubbing to step k shows the same state as stepping there', async ({ page }) => {
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(recordFile);
  const k = 17;
  await scrub(page, 40);
  await scrub(page, k); // backwards: re-simulated from the start
  const scrubbed = await page.locator('.replay-stage').getAttribute('data-frame-hash');
  await expect(page.getByTestId('replay-score')).toHaveText(String(record.steps[k - 1].score));
  await page.getByLabel('Restart').click();
  await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', '0');
  for (let i = 0; i < k; i++) {
    await page.getByLabel('Step forward').click();
    await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', String(i + 1));
  }
  expect(await page.locator('.replay-stage').getAttribute('data-frame-hash')).toBe(scrubbed);
  await expect(page.getByTestId('replay-status')).toContainText('matches the record');
});

test('a forged record is shown as a mismatch, not hidden', async ({ page }) => {
  const forged: EpisodeRecord = JSON.parse(JSON.stringify(record));
  forged.steps[3].score += 10;
  const file = recordFile.replace('.jsonl', '-forged.jsonl');
  writeFileSync(file, JSON.stringify(forged));
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(file);
  await scrub(page, 10);
  await expect(page.getByTestId('replay-status')).toContainText('mismatch at step 3');
});
