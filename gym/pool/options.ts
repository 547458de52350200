import { z } from 'zod';

export const PoolOptions = z
  .strictObject({
    /** Browsers kept running even with no pages (a warm pool starts episodes sooner). */
    minBrowsers: z.number().int().min(0).max(64).default(0),
    maxBrowsers: z.number().int().min(1).max(64).default(2),
    /** Pages (one per session or sub-env, each episode in a fresh context) per browser. */
    pagesPerBrowser: z.number().int().min(1).max(256).default(8),
    /** A browser with no pages for this long is closed (down to minBrowsers). */
    idleBrowserMs: z.number().int().min(0).default(30_000),
    /** How often browsers are probed; 0 turns the periodic check off (recovery still probes). */
    healthIntervalMs: z.number().int().min(0).default(5_000),
    /** A browser that does not answer a probe within this is counted unhealthy; two in a row and it is replaced. */
    healthTimeoutMs: z.number().int().positive().default(5_000),
    /** Defaults to the lightest Chromium found (chromium-headless-shell: one process per page). */
    executablePath: z.string().min(1).optional(),
    extraArgs: z.array(z.string()).default([]),
    launchAttempts: z.number().int().min(1).max(10).default(3),
    /**
     * A browser that has started this many episodes (one context each) is recycled: its pages
     * move to a fresh browser at their next reset, and it is closed once the last has left
     * (so for a moment the pool may run one browser over maxBrowsers). Long runs otherwise
     * pile up per-context state in the browser process. 0 never recycles.
     */
    recycleAfterEpisodes: z.number().int().min(0).default(5_000),
    /**
     * Browsers on other hosts (`arcade-gym browser-host` prints the address): ws:// endpoints of
     * Playwright browser servers. When given, the pool connects to them, in turn, instead of
     * launching browsers here.
     */
    remoteEndpoints: z.array(z.string().regex(/^wss?:\/\//, 'a ws:// or wss:// endpoint')).default([]),
  })
  .refine((o) => o.minBrowsers <= o.maxBrowsers, { message: 'minBrowsers must not exceed maxBrowsers', path: ['minBrowsers'] });
export type PoolOptionsInput = z.input<typeof PoolOptions>;
export type PoolOptions = z.infer<typeof PoolOptions>;
