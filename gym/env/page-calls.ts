/**
 * The page functions of the env's hot path and how they are sent: through the gym's CDP channel
 * when the page has one, as the function's (cached) source applied to its JSON argument.
 */
import type { Page } from 'playwright-core';
import { evaluateJson, PageScriptError, type PageChannel } from '../browser/cdp-channel';
import type { PageStepRequest } from '../runtime/protocol';

declare global {
  // The in-page runtime, as seen from page.evaluate callbacks.
  var __arcade: import('../runtime/protocol').ArcadeRuntimeApi;
}

// The page functions of the hot path, made once so that their source is built once (see sourceOf).
export const STEP = (req: PageStepRequest) => globalThis.__arcade.step(req);
export const STEP_MANY = (reqs: PageStepRequest[]) => reqs.map((req) => globalThis.__arcade.step(req));
export const FRAME_HASH = () => globalThis.__arcade.frameHash();
/** A reset's first frames; null when the runtime did not start in the page. */
export const FIRST_FRAMES = (reqs: PageStepRequest[]) => (typeof globalThis.__arcade === 'object' ? reqs.map((req) => globalThis.__arcade.step(req)) : null);

/**
 * Page functions that are one call of the runtime, sent as that call: the expression the page
 * compiles on every step is then a short call, not the function's source around its argument.
 */
const DIRECT_CALLS = new Map<Function, string>([[STEP, 'globalThis.__arcade.step']]);

/** Function sources sent to pages, built once per function rather than on every step. */
const sources = new WeakMap<Function, string>();
function sourceOf(fn: Function): string {
  let src = sources.get(fn);
  if (src === undefined) {
    src = fn.toString();
    sources.set(fn, src);
  }
  return src;
}

/**
 * One call in the page: through `channel` when given, as one Runtime.evaluate without
 * Playwright's client layer or its argument and result serialisation; else page.evaluate.
 */
export async function evaluateInPage<A, R>(page: Page, channel: PageChannel | null, fn: (arg: A) => R, arg: A, gameId: string): Promise<R> {
  if (!channel) {
    const run = page.evaluate as (f: (a: A) => R, a: A) => Promise<R>;
    return run.call(page, fn, arg);
  }
  try {
    // A renderer that died never answers: the channel rejects its calls once the page is gone.
    const direct = DIRECT_CALLS.get(fn);
    const json = JSON.stringify(arg ?? null);
    return await evaluateJson<R>(channel, direct ? `${direct}(${json})` : `(${sourceOf(fn)})(${json})`);
  } catch (e) {
    if (e instanceof PageScriptError) throw new Error(`${gameId}: ${e.message}`);
    throw e;
  }
}
