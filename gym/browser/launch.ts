import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { findChromium } from './find-chromium';
import { DEBUGGING_PORT_ARG } from './cdp-channel';

/**
 * V8 optimises a function with Maglev once it has run about 400 times, in each document anew (its
 * feedback and optimised code belong to the document's own context), and compiles on a helper
 * thread that shares the cores with the pages. A game document lives one episode, and a batch
 * page loads one per reset, so short episodes spend helper-thread CPU on code dropped with the
 * document. Four times the threshold leaves that code to
 * the interpreter and Sparkplug in short episodes and still optimises long ones (`bench:gym`'s
 * batched_random_steps_per_s against batched_random_steps_per_s_default_jit; bench/README.md,
 * Design measurements). A tier changes when
 * code is optimised, not what it computes. Chromium takes the last --js-flags it is given: extra
 * arguments with their own replace this one.
 */
export const V8_TIERING_ARG = '--js-flags=--invocation-count-for-maglev=1600';

/**
 * Flags for a browser that runs games, not the web: no background traffic (this machine has
 * no network, and refused connections cost CPU), no sandbox when running as root, and
 * software WebGL so three.js games render without a GPU.
 */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  V8_TIERING_ARG,
];

/**
 * A headless shell renders a page only when asked (HeadlessExperimental.beginFrame). The gym
 * reads game state and pixels from the page itself and time is virtual, so a page needs no
 * frames between steps: without these flags every page that draws gets about one compositor
 * commit per real frame, and CPU per step grows with the number of pages. Screenshots ask for
 * their frame (see `captureScreenshot`). New-headless Chrome has no such mode.
 */
export const FRAMELESS_ARGS = ['--enable-begin-frame-control', '--run-all-compositor-stages-before-draw'];

/** Whether `executablePath` is a headless shell (chromium-headless-shell, chrome-headless-shell). */
export function isHeadlessShell(executablePath: string): boolean {
  return /headless[-_]shell/.test(path.basename(executablePath));
}

/** Launch flags for a gym browser at `executablePath`. */
export function gymBrowserArgs(executablePath: string, headless: boolean): string[] {
  return [
    ...CHROMIUM_ARGS,
    ...(headless && isHeadlessShell(executablePath) ? FRAMELESS_ARGS : []),
    // A local port for the gym's own CDP channel (gym/browser/cdp-channel.ts): steps skip Playwright's client layer.
    DEBUGGING_PORT_ARG,
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ];
}

export interface LaunchBrowserOptions {
  headless?: boolean;
  executablePath?: string;
  extraArgs?: string[];
}

export async function launchBrowser(opts: LaunchBrowserOptions = {}): Promise<Browser> {
  const headless = opts.headless ?? true;
  const executablePath = opts.executablePath ?? findChromium({ headless });
  const launch: LaunchOptions = { headless, executablePath, args: [...gymBrowserArgs(executablePath, headless), ...(opts.extraArgs ?? [])] };
  return chromium.launch(launch);
}

let shared: { browser: Promise<Browser>; users: number } | null = null;

/** One browser for the whole process, shared by every Env that does not bring its own. */
export async function acquireSharedBrowser(): Promise<Browser> {
  if (!shared) {
    const browser = launchBrowser();
    shared = { browser, users: 0 };
    browser.then(
      (b) =>
        b.on('disconnected', () => {
          if (shared?.browser === browser) shared = null;
        }),
      () => {
        shared = null;
      },
    );
  }
  shared.users++;
  return shared.browser;
}

export async function releaseSharedBrowser(): Promise<void> {
  if (!shared) return;
  shared.users--;
  if (shared.users <= 0) {
    const { browser } = shared;
    shared = null;
    await (await browser).close().catch(() => undefined);
  }
}
