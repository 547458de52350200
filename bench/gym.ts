/**
 * npm run bench:gym — the gym at scale, on Snake:
 *  1. aggregate steps/s, p50/p95 step latency and CPU per step (browser processes + Node)
 *     for 1, 2, 4, 8 and 16 concurrent sessions, with state and with 84×84 pixel observations;
 *  2. the CPU an idle session costs while it waits for its next step;
 *  3. memory per page (RSS and PSS of the page's processes);
 *  4. the in-page ceiling: the same step function looped inside one page, no round trips;
 *  5. the HTTP API against the in-process env: server sessions (1, then 4) stepped directly and
 *     over HTTP (a keep-alive client) in interleaved blocks.
 *  6. batched stepping (bench/batched-throughput.ts): instances per page by measurement, and
 *     ratio_vs_core_ceiling = best aggregate steps/s ÷ (cores × in-page steps/s on one core) for
 *     Snake (state), Snake (84×84 pixels) and a WebGL game; ratio_vs_all_cores_ceiling divides by
 *     the in-page loop run on a page per core at once instead, and ratio_vs_rotating_ceiling by
 *     that loop stepping as many instances in turn as a batch page holds. For Snake (state), what
 *     a reset costs a batch page and a random agent's aggregate with its autoresets.
 * BENCH_ONLY=http runs only part 5, BENCH_ONLY=batch only part 6.
 * Other engineers share this machine's 2 cores, so every number is noisy: the load average
 * is printed with the results. The last line is one JSON object.
 */
import os from 'node:os';
import { buildGames } from '../scripts/build-games';
import { BrowserPool, PooledEnv, cpuSecondsOf, memoryOf } from '../gym/pool';
import type { ObservationKind, VerifierState } from '../gym/schema';
import { startGymServer } from '../gym/server';
import { formatTable } from '../cli/format-table';
import { measureBatched, type BatchedConfig, type BatchedFigures } from './batched-throughput';
import { cyclePolicy } from './snake-cycle';
import { jsonClient } from './json-client';
import { smokeOr } from './smoke';

const GAME = 'snake';
const SESSION_COUNTS = [1, 2, 4, 8, 16];
/** Measured time per session count (split over ROUNDS turns). */
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? smokeOr(9_000, 500));
const ROUNDS = smokeOr(3, 1);
const SETTLE_MS = smokeOr(2_000, 100);
const WARMUP_MS = smokeOr(3_000, 200);
const IDLE_MS = smokeOr(10_000, 500);
const HTTP_STEPS = Number(process.env.BENCH_HTTP_STEPS ?? smokeOr(3_000, 100));
const HTTP_WARMUP_STEPS = smokeOr(1_000, 20);
const MAX_STEPS = 1_000_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds used so far by the pool's browser processes and by this Node process. */
function cpuNow(pool: BrowserPool): { browser: number; node: number } {
  const u = process.cpuUsage();
  return { browser: cpuSecondsOf(pool.processTree()), node: (u.user + u.system) / 1e6 };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

interface Player {
  env: PooledEnv;
  state: VerifierState;
  seed: number;
}

async function openPlayers(pool: BrowserPool, n: number, observation: ObservationKind[], seed0: number): Promise<Player[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const env = await PooledEnv.open(pool, { game: GAME, observation, maxSteps: MAX_STEPS });
      const seed = seed0 + i;
      const r = await env.reset({ seed });
      return { env, state: r.info.state, seed };
    }),
  );
}

/** One step; a finished episode is reset (and counted) so the player keeps stepping. */
async function play(p: Player, latencies: number[] | null, counters: { resets: number }): Promise<void> {
  const t = performance.now();
  const r = await p.env.step(cyclePolicy(p.state));
  latencies?.push(performance.now() - t);
  if (r.terminated || r.truncated) {
    counters.resets++;
    p.seed += 1000;
    p.state = (await p.env.reset({ seed: p.seed })).info.state;
  } else {
    p.state = r.info.state;
  }
}

interface Scaling {
  sessions: number;
  stepsPerS: number;
  p50: number;
  p95: number;
  cpuMsPerStep: number;
  browserCpuMsPerStep: number;
  /** This process's share: the env, the pool and the bench's own policy. */
  nodeCpuMsPerStep: number;
  resets: number;
}

/**
 * Steps/s, latency and CPU per step for each session count. All 16 pages are opened once;
 * a window steps only the first n of them (the others idle, which costs next to nothing,
 * see the idle measurement), and the counts take turns over several rounds, so that the
 * other engineers' changing load falls on every count alike.
 */
async function measureScaling(pool: BrowserPool, observation: ObservationKind[]): Promise<{ rows: Scaling[]; players: Player[] }> {
  const max = Math.max(...SESSION_COUNTS);
  const players = await openPlayers(pool, max, observation, 100);
  const counters = { resets: 0 };
  // Warm up: Node's JIT tiers the step path up over its first thousands of calls, which the first
  // session count measured would pay alone (bench/README.md, Design measurements). New pages also
  // burn CPU for a while after loading: let them settle.
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) await Promise.all(players.map((p) => play(p, null, counters)));
  await sleep(SETTLE_MS);
  const acc = new Map(SESSION_COUNTS.map((n) => [n, { steps: 0, seconds: 0, cpu: 0, browserCpu: 0, nodeCpu: 0, resets: 0, latencies: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of SESSION_COUNTS) {
      const a = acc.get(n)!;
      counters.resets = 0;
      const cpu0 = cpuNow(pool);
      const t0 = performance.now();
      const end = t0 + WINDOW_MS / ROUNDS;
      await Promise.all(
        players.slice(0, n).map(async (p) => {
          while (performance.now() < end) {
            await play(p, a.latencies, counters);
            a.steps++;
          }
        }),
      );
      a.seconds += (performance.now() - t0) / 1000;
      const cpu1 = cpuNow(pool);
      a.cpu += cpu1.browser - cpu0.browser + cpu1.node - cpu0.node;
      a.browserCpu += cpu1.browser - cpu0.browser;
      a.nodeCpu += cpu1.node - cpu0.node;
      a.resets += counters.resets;
    }
  }
  const rows = SESSION_COUNTS.map((n) => {
    const a = acc.get(n)!;
    a.latencies.sort((x, y) => x - y);
    return {
      sessions: n,
      stepsPerS: a.steps / a.seconds,
      p50: percentile(a.latencies, 0.5),
      p95: percentile(a.latencies, 0.95),
      cpuMsPerStep: (a.cpu * 1000) / a.steps,
      browserCpuMsPerStep: (a.browserCpu * 1000) / a.steps,
      nodeCpuMsPerStep: (a.nodeCpu * 1000) / a.steps,
      resets: a.resets,
    };
  });
  return { rows, players };
}

/** CPU (% of one core) that a session costs while it waits, its episode open, for its next step. */
async function measureIdle(pool: BrowserPool, players: Player[]): Promise<{ pct: number; browserPct: number }> {
  await sleep(SETTLE_MS);
  const cpu0 = cpuNow(pool);
  const t0 = performance.now();
  await sleep(IDLE_MS);
  const cpu1 = cpuNow(pool);
  const seconds = (performance.now() - t0) / 1000;
  const total = cpu1.browser - cpu0.browser + cpu1.node - cpu0.node;
  return { pct: (100 * total) / seconds / players.length, browserPct: (100 * (cpu1.browser - cpu0.browser)) / seconds / players.length };
}

/** Memory of the pool's browsers with no page open, to subtract from the 16-page figure. */
async function browserBaseline(pool: BrowserPool): Promise<{ rssBytes: number; pssBytes: number; browsers: number }> {
  await sleep(1_500);
  return { ...memoryOf(pool.processTree()), browsers: pool.browserPids().length };
}

/** The same step function looped inside one page: no driver round trips at all. */
async function inPageCeiling(pool: BrowserPool): Promise<number> {
  const env = await PooledEnv.open(pool, { game: GAME, observation: 'state', maxSteps: MAX_STEPS });
  await env.reset({ seed: 1 });
  await sleep(SETTLE_MS);
  const page = env.env.currentPage!;
  const preset = env.manifest.preset.map((p) => p.action);
  const n = 20_000;
  const t = performance.now();
  await page.evaluate(
    ({ preset, ms, n }) => {
      // No named helper functions in here: tsx would wrap them in a __name() the page lacks.
      let s = 1;
      const obs = { state: true, vector: false, pixels: null, frameHash: false };
      for (let i = 0; i < n; i++) {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        const r = globalThis.__arcade.step({ action: preset[Math.floor((s / 4294967296) * preset.length)], ms, obs });
        if (r.state.gameOver) globalThis.__arcade.dispatch({ type: 'key', key: 'Enter' });
      }
    },
    { preset, ms: env.env.msPerStep, n },
  );
  const rate = n / ((performance.now() - t) / 1000);
  await env.close();
  return rate;
}

interface HttpComparison {
  sessions: number;
  inProcess: number;
  http: number;
  inProcessP50: number;
  httpP50: number;
}

/**
 * `n` sessions of the HTTP server, stepped alternately in-process (the server's own session
 * objects: the same pooled envs and pages) and through the HTTP API, in interleaved blocks
 * so that changes in the machine's load hit both alike.
 */
async function httpVsInProcess(pool: BrowserPool, n: number): Promise<HttpComparison> {
  const server = await startGymServer({ port: 0, sessions: { pool } });
  try {
    const call = jsonClient(server.url);
    const players = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const created = (await call('POST', '/v1/sessions', { game: GAME, observation: ['state', 'vector'], maxSteps: MAX_STEPS })) as {
          session: { id: string };
        };
        const id = created.session.id;
        const p = { id, session: server.sessions.get(id), seed: 7 + i, state: null as unknown as VerifierState };
        p.state = ((await call('POST', `/v1/sessions/${id}/reset`, { seed: p.seed })) as { info: { state: VerifierState } }).info.state;
        return p;
      }),
    );
    const oneStep = async (p: (typeof players)[number], viaHttp: boolean, latencies: number[] | null) => {
      const action = cyclePolicy(p.state);
      const t = performance.now();
      const r = viaHttp
        ? ((await call('POST', `/v1/sessions/${p.id}/step`, { action })) as { terminated: boolean; truncated: boolean; info: { state: VerifierState } })
        : await p.session.step(action);
      latencies?.push(performance.now() - t);
      if (r.terminated || r.truncated) {
        p.seed += 1000;
        p.state = ((await call('POST', `/v1/sessions/${p.id}/reset`, { seed: p.seed })) as { info: { state: VerifierState } }).info.state;
      } else p.state = r.info.state;
    };
    // Warm both paths up (the JIT compiles the server's and the client's code) before measuring.
    for (let i = 0; i < HTTP_WARMUP_STEPS / n; i++) await Promise.all(players.map((p) => oneStep(p, i % 2 === 0, null)));
    await sleep(SETTLE_MS);
    const lat = { http: [] as number[], inProcess: [] as number[] };
    const secs = { http: 0, inProcess: 0 };
    const BLOCK = 100;
    // At least one block each way: smoke mode's few steps over 4 sessions would otherwise leave HTTP unmeasured.
    const blocks = Math.max(2, Math.ceil((2 * HTTP_STEPS) / BLOCK / n));
    for (let block = 0; block < blocks; block++) {
      const viaHttp = block % 2 === 1;
      const t = performance.now();
      await Promise.all(
        players.map(async (p) => {
          for (let i = 0; i < BLOCK; i++) await oneStep(p, viaHttp, viaHttp ? lat.http : lat.inProcess);
        }),
      );
      secs[viaHttp ? 'http' : 'inProcess'] += (performance.now() - t) / 1000;
    }
    for (const p of players) await call('DELETE', `/v1/sessions/${p.id}`);
    lat.http.sort((a, b) => a - b);
    lat.inProcess.sort((a, b) => a - b);
    return {
      sessions: n,
      inProcess: lat.inProcess.length / secs.inProcess,
      http: lat.http.length / secs.http,
      inProcessP50: percentile(lat.inProcess, 0.5),
      httpP50: percentile(lat.http, 0.5),
    };
  } finally {
    await server.close();
  }
}

const BATCHED_CONFIGS: BatchedConfig[] = [
  { label: 'snake state', game: GAME, observation: ['state'], policy: cyclePolicy, resets: true },
  { label: 'snake 84×84 pixels', game: GAME, observation: ['state', 'pixels'], policy: cyclePolicy },
  { label: 'hex-frvr (WebGL) state', game: 'hex-frvr', observation: ['state'] },
];

/** The batched figures as JSON fields (snake state is the headline ratio). */
function batchedJson(figures: BatchedFigures[]): Record<string, unknown> {
  const [state, pixels, webgl] = figures;
  return {
    ratio_vs_core_ceiling: state.ratio,
    ratio_vs_core_ceiling_pixels: pixels.ratio,
    ratio_vs_core_ceiling_webgl: webgl.ratio,
    // Against the in-page loop on every core at once: the machine's limit for the game's own work.
    ratio_vs_all_cores_ceiling: state.ratioAllCores,
    ratio_vs_all_cores_ceiling_pixels: pixels.ratioAllCores,
    ratio_vs_all_cores_ceiling_webgl: webgl.ratioAllCores,
    // Against that loop stepping as many instances in turn as a batch page holds: the gap left is the driver's.
    ratio_vs_rotating_ceiling: state.ratioRotating,
    ratio_vs_rotating_ceiling_pixels: pixels.ratioRotating,
    ratio_vs_rotating_ceiling_webgl: webgl.ratioRotating,
    batched_steps_per_s: state.best,
    batched_steps_per_s_by_envs: state.byEnvs,
    batched_pixels_steps_per_s: pixels.best,
    batched_webgl_steps_per_s: webgl.best,
    // Node's CPU per instance-step in the batched path (one call steps a page's instances).
    batched_node_cpu_ms_per_step: state.nodeCpuMsPerStep,
    // What a reset costs a batch page (machine CPU per instance reset), and what a random agent's
    // short episodes (autoresets included) leave of the aggregate.
    batched_reset_cpu_ms: state.resets?.cpuMs,
    batched_reset_node_cpu_ms: state.resets?.nodeCpuMs,
    batched_reset_wall_ms: state.resets?.wallMs,
    // The same host page in a Playwright context, in alternate rounds: what the gym's own page saves a reset.
    batched_reset_cpu_ms_playwright_page: state.resets?.playwrightPageCpuMs,
    batched_reset_node_cpu_ms_playwright_page: state.resets?.playwrightPageNodeCpuMs,
    batched_random_steps_per_s: state.resets?.randomStepsPerS,
    batched_random_episode_steps: state.resets?.randomEpisodeSteps,
    // The same agent in browsers with V8's default tiering (alternate windows): what the gym's Maglev threshold gives.
    batched_random_steps_per_s_default_jit: state.resets?.randomStepsPerSDefaultJit,
    instances_per_page: Object.fromEntries(figures.map((f) => [f.label, f.instancesPerPage])),
    instances_per_page_rates: Object.fromEntries(figures.map((f) => [f.label, f.pageRates])),
    instances_per_page_cpu_ms: Object.fromEntries(figures.map((f) => [f.label, f.pageCpuMs])),
    in_page_steps_per_s_by_config: Object.fromEntries(figures.map((f) => [f.label, f.ceiling])),
    in_page_steps_per_s_all_cores_by_config: Object.fromEntries(figures.map((f) => [f.label, f.ceilingAllCores])),
    in_page_steps_per_s_rotating_by_config: Object.fromEntries(figures.map((f) => [f.label, f.ceilingRotating])),
  };
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const bySessions = (rows: Scaling[], f: (r: Scaling) => number, d = 1) => Object.fromEntries(rows.map((r) => [String(r.sessions), round(f(r), d)]));

async function main() {
  const started = performance.now();
  await buildGames();
  const load0 = os.loadavg()[0];
  // Two browsers of up to 8 pages each: 16 sessions fill both; fewer share the first one.
  const pool = new BrowserPool({ maxBrowsers: 2, pagesPerBrowser: 8, idleBrowserMs: 600_000, healthIntervalMs: 0 });
  try {
    if (process.env.BENCH_ONLY === 'http') {
      // Only the HTTP comparison: for work on the server, where the whole run would take minutes.
      const [one, four] = [await httpVsInProcess(pool, 1), await httpVsInProcess(pool, 4)];
      console.log(
        JSON.stringify({
          http_vs_inprocess: round(one.http / one.inProcess, 2),
          http_vs_inprocess_4_sessions: round(four.http / four.inProcess, 2),
          http_p50_ms: round(one.httpP50, 2),
          inprocess_p50_ms: round(one.inProcessP50, 2),
        }),
      );
      return;
    }
    const log = (line: string) => process.stderr.write(`${line}\n`);
    if (process.env.BENCH_ONLY === 'batch') {
      console.log(JSON.stringify(batchedJson(await measureBatched(pool, BATCHED_CONFIGS, log))));
      return;
    }
    const stateRun = await measureScaling(pool, ['state']);
    const state = stateRun.rows;
    process.stderr.write(`state: ${state.map((r) => `${r.sessions}: ${round(r.stepsPerS)}`).join(', ')} steps/s\n`);
    const idle = await measureIdle(pool, stateRun.players);
    process.stderr.write(`idle: ${round(idle.pct, 3)}% of a core per session\n`);
    const withPages = memoryOf(pool.processTree());
    const pages = stateRun.players.length;
    await Promise.all(stateRun.players.map((p) => p.env.close()));
    const base = await browserBaseline(pool);
    const pixelRun = await measureScaling(pool, ['state', 'pixels']);
    const pixels = pixelRun.rows;
    await Promise.all(pixelRun.players.map((p) => p.env.close()));
    process.stderr.write(`pixels: ${pixels.map((r) => `${r.sessions}: ${round(r.stepsPerS)}`).join(', ')} steps/s\n`);
    const ceiling = await inPageCeiling(pool);
    const batched = await measureBatched(pool, BATCHED_CONFIGS, log);
    const http = await httpVsInProcess(pool, 1);
    const http4 = await httpVsInProcess(pool, 4);
    const load1 = os.loadavg()[0];

    const s16 = state.find((r) => r.sessions === 16)!;
    const s1 = state.find((r) => r.sessions === 1)!;
    const s8 = state.find((r) => r.sessions === 8)!;
    const MB = 1024 * 1024;
    const rssPerPage = (withPages.rssBytes - base.rssBytes) / pages / MB;
    const pssPerPage = (withPages.pssBytes - base.pssBytes) / pages / MB;

    console.log(
      `bench:gym — ${GAME}, a policy that keeps episodes long, ${WINDOW_MS / 1000} s per session count in ${ROUNDS} turns, pool of 2 browsers × 8 pages; load average ${round(load0, 2)} → ${round(load1, 2)} on ${os.cpus().length} cores\n`,
    );
    const rows = (label: string, rs: Scaling[]) =>
      rs.map((r) => [
        label,
        r.sessions,
        round(r.stepsPerS, 0),
        round(r.p50, 2),
        round(r.p95, 2),
        round(r.cpuMsPerStep, 2),
        round(r.browserCpuMsPerStep, 2),
        round(r.nodeCpuMsPerStep, 3),
        r.resets,
      ]);
    console.log(
      formatTable(
        ['observation', 'sessions', 'steps/s', 'p50 ms', 'p95 ms', 'CPU ms/step', 'browser CPU ms/step', 'Node CPU ms/step', 'resets'],
        [...rows('state', state), ...rows('84×84 pixels', pixels)],
      ),
    );
    console.log(
      `\nidle session: ${round(idle.pct, 3)}% of a core (browser ${round(idle.browserPct, 3)}%, the rest Node), ${pages} sessions idle for ${IDLE_MS / 1000} s`,
    );
    console.log(`memory per page: RSS ${round(rssPerPage)} MB, PSS ${round(pssPerPage)} MB (${pages} pages vs ${base.browsers} empty browsers)`);
    console.log(`in-page ceiling: ${round(ceiling, 0)} steps/s`);
    console.log(
      `\n${formatTable(
        [
          'batched',
          'instances/page',
          'in-page steps/s (1 core)',
          'in-page steps/s (all cores at once)',
          'in-page steps/s (instances in turn)',
          'aggregate steps/s by envs',
          'ratio vs cores × ceiling',
          'ratio vs all cores',
          'ratio vs instances in turn',
          'Node CPU ms/step',
        ],
        batched.map((b) => [
          b.label,
          b.instancesPerPage,
          b.ceiling,
          b.ceilingAllCores,
          b.ceilingRotating,
          JSON.stringify(b.byEnvs),
          b.ratio,
          b.ratioAllCores,
          b.ratioRotating,
          b.nodeCpuMsPerStep,
        ]),
      )}`,
    );
    for (const h of [http, http4]) {
      console.log(
        `HTTP API, ${h.sessions} session(s): ${round(h.http, 0)} steps/s (p50 ${round(h.httpP50, 2)} ms) vs in-process ${round(h.inProcess, 0)} steps/s (p50 ${round(h.inProcessP50, 2)} ms): ${round(h.http / h.inProcess, 2)}`,
      );
    }
    console.log(`total ${round((performance.now() - started) / 1000, 0)} s`);

    const result = {
      game: GAME,
      window_s: WINDOW_MS / 1000,
      steps_per_s_by_sessions: bySessions(state, (r) => r.stepsPerS),
      p50_ms_by_sessions: bySessions(state, (r) => r.p50, 2),
      p95_ms_by_sessions: bySessions(state, (r) => r.p95, 2),
      cpu_ms_per_step_by_sessions: bySessions(state, (r) => r.cpuMsPerStep, 3),
      // Node's CPU per step over every state window (steps-weighted), and by session count.
      node_cpu_ms_per_step: round(state.reduce((t, r) => t + r.nodeCpuMsPerStep * r.stepsPerS, 0) / state.reduce((t, r) => t + r.stepsPerS, 0), 3),
      node_cpu_ms_per_step_by_sessions: bySessions(state, (r) => r.nodeCpuMsPerStep, 3),
      pixels_steps_per_s_by_sessions: bySessions(pixels, (r) => r.stepsPerS),
      pixels_p95_ms_by_sessions: bySessions(pixels, (r) => r.p95, 2),
      pixels_cpu_ms_per_step_by_sessions: bySessions(pixels, (r) => r.cpuMsPerStep, 3),
      idle_session_cpu_pct: round(idle.pct, 3),
      rss_mb_per_page: round(rssPerPage),
      pss_mb_per_page: round(pssPerPage),
      in_page_steps_per_s: round(ceiling, 0),
      ...batchedJson(batched),
      scaling_8_vs_1: round(s8.stepsPerS / s1.stepsPerS, 2),
      cpu_per_step_16_vs_1: round(s16.cpuMsPerStep / s1.cpuMsPerStep, 2),
      http_steps_per_s: round(http.http, 0),
      inprocess_steps_per_s: round(http.inProcess, 0),
      http_vs_inprocess: round(http.http / http.inProcess, 2),
      http_vs_inprocess_4_sessions: round(http4.http / http4.inProcess, 2),
      load_avg_1m: [round(load0, 2), round(load1, 2)],
    };
    console.log(JSON.stringify(result));
  } finally {
    await pool.close();
  }
}

await main();
