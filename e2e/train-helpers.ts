/** What the /train/<id> specs share (e2e/train-webgpu.spec.ts, e2e/train-cpu.spec.ts). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { findChromium, CHROMIUM_ARGS } from '../gym/browser';

export const run = promisify(execFile);
export const env = { ...process.env, ARCADE_DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e', FORCE_COLOR: '0' };

interface MetricsLine {
  kind?: string;
  phase?: string;
  globalStep: number;
  episodeReturnMean: number | null;
}

/** Downloads one of the run's files through its button; returns where Playwright saved it. */
export async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
  expect(file.suggestedFilename()).toBe(name);
  const to = path.join(mkdtempSync(path.join(os.tmpdir(), 'train-e2e-')), name);
  await file.saveAs(to);
  return to;
}

/** metrics.jsonl as the CLI writes it: the config line, then one line per update. */
export function readMetrics(file: string): { config: Record<string, unknown>; updates: MetricsLine[] } {
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MetricsLine & Record<string, unknown>);
  expect(lines[0].kind).toBe('config');
  return { config: lines[0], updates: lines.slice(1) };
}

export async function fill(page: Page, settings: { steps?: number; envs?: number; seed?: number; config?: object }): Promise<void> {
  if (settings.steps !== undefined) await page.getByLabel('steps').fill(String(settings.steps));
  if (settings.envs !== undefined) await page.getByLabel('instances').fill(String(settings.envs));
  if (settings.seed !== undefined) await page.getByLabel('seed').fill(String(settings.seed));
  if (settings.config !== undefined) await page.getByLabel('config overrides').fill(JSON.stringify(settings.config));
}

/** Waits until the page has shown at least `n` updates: the counter can skip values between polls, so "exactly n" would race. */
export async function waitForUpdates(page: Page, n: number, timeout = 120_000): Promise<void> {
  await expect.poll(async () => Number((await page.getByTestId('metric-update').textContent()) ?? Number.NaN), { timeout }).toBeGreaterThanOrEqual(n);
}

/** Mean episode return over the first and the last `k` updates that saw episodes end (one update is noisy). */
export function startAndEnd(updates: MetricsLine[], k = 3): { start: number; end: number } {
  const returns = updates.map((u) => u.episodeReturnMean).filter((r): r is number => r !== null);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { start: mean(returns.slice(0, k)), end: mean(returns.slice(-k)) };
}

/** Snake settings that learn in a short run in the page (how they were chosen: bench/README.md, Design measurements). */
export const SNAKE = { steps: 16_384, envs: 16, seed: 1, config: { numSteps: 32, learningRate: 0.002 } };
export const SNAKE_MARGIN = 1;

/** Chromium as playwright.config.ts launches it, plus `extra` flags. */
export function launchWith(extra: string[]) {
  return { executablePath: findChromium({ headless: true }), args: [...CHROMIUM_ARGS, '--no-sandbox', ...extra] };
}
