import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { findChromium } from './find-chromium';

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
];

export interface LaunchBrowserOptions {
  headless?: boolean;
  executablePath?: string;
  extraArgs?: string[];
}

export async function launchBrowser(opts: LaunchBrowserOptions = {}): Promise<Browser> {
  const headless = opts.headless ?? true;
  const launch: LaunchOptions = {
    headless,
    executablePath: opts.executablePath ?? findChromium({ headless }),
    args: [...CHROMIUM_ARGS, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...(opts.extraArgs ?? [])],
  };
  return chromium.launch(launch);
}

let shared: { browser: Promise<Browser>; users: number } | null = null;

/** One browser for the whole process, shared by every Env that does not bring its own. */
export async function acquireSharedBrowser(): Promise<Browser> {
  if (!shared) {
    const browser = launchBrowser();
    shared = { browser, users: 0 };
    browser.then((b) => b.on('disconnected', () => { if (shared?.browser === browser) shared = null; }), () => { shared = null; });
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
