/**
 * An env's spare tabs: upcoming episodes loaded in the background, each in a browser context of its
 * own (nothing the current episode does can reach it), so that a reset to one of their seeds costs
 * a swap and the first frames rather than a page load; and the retired tab, the previous episode's
 * after a swap, kept healthy to be cleaned into the next spare (tabs.ts: recycleTab). The env says
 * which seeds it wants (env.ts: prepareNextEpisode) and takes a spare at its reset.
 */
import type { Browser } from 'playwright-core';
import { closeTab, openTab, recycleTab, type Tab, type TabSetup, tabUsable } from './tabs';

interface Spare {
  seed: number;
  tab: Promise<Tab | null>;
}

export class SpareTabs {
  private spares: Spare[] = [];
  private retired: Tab | null = null;

  /** `isClosed`: the env was closed, so a spare that finishes loading now has nobody to take it. */
  constructor(
    private readonly setup: TabSetup,
    private readonly isClosed: () => boolean,
  ) {}

  /** The seeds the spares are loaded (or loading) with, in the order they will be played. */
  get seeds(): number[] {
    return this.spares.map((sp) => sp.seed);
  }

  /**
   * The spare loaded with `seed`, waited for if it is still loading; null when there is none or it
   * is not usable in `browser` (it is closed then). `current` throws when the reset was abandoned.
   */
  async take(seed: number, browser: Browser | null, current: () => void): Promise<Tab | null> {
    const k = this.spares.findIndex((sp) => sp.seed === seed);
    if (k < 0) return null;
    const [spare] = this.spares.splice(k, 1);
    const tab = await spare.tab;
    try {
      current();
    } catch (e) {
      if (tab) void closeTab(tab);
      throw e;
    }
    if (!tabUsable(browser, tab)) {
      if (tab) void closeTab(tab);
      return null;
    }
    return tab;
  }

  /** Keeps `tab` (the previous episode's, healthy) to be cleaned into the next spare; null closes none and keeps none. */
  retire(tab: Tab | null): void {
    this.dropRetired();
    this.retired = tab;
  }

  dropRetired(): void {
    if (this.retired) void closeTab(this.retired);
    this.retired = null;
  }

  /**
   * Spares for exactly `wanted`, in order: those already loading are kept, the others closed, the
   * missing ones loaded in `browser` (the first from the retired tab, if there is one).
   */
  want(wanted: readonly number[], browser: Browser): void {
    const keep = this.spares.filter((sp) => wanted.includes(sp.seed));
    for (const sp of this.spares) if (!keep.includes(sp)) void sp.tab.then((t) => t && closeTab(t));
    this.spares = wanted.map((w) => keep.find((sp) => sp.seed === w) ?? { seed: w, tab: this.load(w, browser) });
    this.dropRetired();
  }

  /** One spare tab for `seed`: the retired tab cleaned, if there is one, else a fresh context; null if it failed. */
  private load(seed: number, browser: Browser): Promise<Tab | null> {
    const from = this.retired;
    this.retired = null;
    const prepare = async (): Promise<Tab> => {
      if (from) {
        await recycleTab(this.setup, from, seed, () => undefined);
        return from;
      }
      return openTab(this.setup, browser, seed);
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = this.setup.options.resetTimeoutMs;
    return Promise.race([
      prepare(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the spare did not load in time')), timeout))),
    ]).then(
      (t) => {
        clearTimeout(timer);
        // Closed meanwhile: nobody will take it (a spare dropped meanwhile is closed by whoever dropped it).
        if (this.isClosed()) void closeTab(t);
        return t;
      },
      () => {
        clearTimeout(timer);
        if (from) void closeTab(from);
        return null;
      },
    );
  }

  /** Closes the spares and the retired tab, if any. */
  async close(): Promise<void> {
    const spares = this.spares;
    const retired = this.retired;
    this.spares = [];
    this.retired = null;
    await Promise.all([retired && closeTab(retired), ...spares.map((sp) => sp.tab.then((t) => t && closeTab(t)))]);
  }
}
