import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';

/**
 * Turning off the process-wide promise hooks that Playwright's client leaves on.
 *
 * Playwright keeps its "zones" in one AsyncLocalStorage. They tell an API call made inside
 * another (page.goto calling the frame's goto) from one made by the user, for call logs and
 * traces. On Node 20 an enabled AsyncLocalStorage is carried by async_hooks, which makes V8 call
 * into JavaScript for every promise and timer the process creates afterwards, whoever creates
 * them. Playwright enables its storage on its first API call and never turns it off. A gym step
 * makes no Playwright call (it goes through the raw CDP channel), yet paid for the hooks a
 * sizeable share of Node's CPU per step (bench/README.md, Design measurements).
 *
 * The raw channel's calls therefore turn the storage off. Playwright's next API call turns it
 * on again by itself (its storage's run() enables it), so calls made while it is off keep
 * working. A call that is in flight when it is turned off loses only its zone: an API call it
 * makes inside is then logged as a call of its own. Other AsyncLocalStorages in the process
 * (Next.js keeps its request context in some) are separate instances and are not touched;
 * the hooks stay on while any of them is enabled.
 *
 * The storage is reached through the `utils.emptyZone` that playwright-core's `lib/coreBundle`
 * exports; a Playwright that keeps it elsewhere leaves everything as it is
 * (`playwrightZoneStorageFound()` is false, and a test says so).
 */

const zoneStorage: AsyncLocalStorage<unknown> | null = (() => {
  try {
    const core = createRequire(import.meta.url)('playwright-core/lib/coreBundle') as {
      utils?: { emptyZone?: { _asyncLocalStorage?: unknown } };
    };
    const storage = core.utils?.emptyZone?._asyncLocalStorage;
    return storage instanceof AsyncLocalStorage ? storage : null;
  } catch {
    return null;
  }
})();

/** Turns Playwright's zone storage off until its next API call (a no-op while it is off). */
export function quietPlaywrightZones(): void {
  zoneStorage?.disable();
}

/** Whether this Playwright's zone storage was found (so that quietPlaywrightZones acts). */
export function playwrightZoneStorageFound(): boolean {
  return zoneStorage !== null;
}

/** Whether Playwright's zone storage is on now (null when it was not found). */
export function playwrightZonesEnabled(): boolean | null {
  if (!zoneStorage) return null;
  // Node 20's AsyncLocalStorage keeps this flag as a plain (undocumented) field.
  return (zoneStorage as unknown as { enabled?: boolean }).enabled ?? null;
}
