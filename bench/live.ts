/**
 * npm run bench:live — a live ticket's steps/s against the same agent on the local gym.
 * The site (bench/live-site.ts) runs in a child process; this process plays, round after round
 * (BENCH_ROUNDS), first a live ticket of BENCH_EPISODES episodes over HTTP at the endpoint of the
 * worker that hosts it (the site's own, in its process; every reset opens the server's session for
 * that episode, as live play does), then the same number of episodes with
 * the local `ArcadeEnv`, both with seeded random actions at the official step budget, so the
 * machine's changing load falls on both alike. A first round of one episode each warms both up
 * (browser launches, the JIT) and is not counted, and each measurement starts once the site's
 * verification queue has replayed the runs before it, so a replay falls on neither side.
 *   live_vs_local_steps_per_s: live env steps/s ÷ local env steps/s, summed over the rounds;
 *   live_vs_http_steps_per_s: the same against a gym session over HTTP (the gym's own server, in the
 *     site's process: the same hop without the live ticket), also played in turn with the other two;
 *   server_cpu_ms_per_live_step: the site process's CPU per live step, its live worker's included (its Node process only:
 *     the browsers' processes are not counted, nor the queue's replay, which runs after the close).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { formatTable } from '../cli/format-table';
import { getGame } from '../gym/catalog';
import { ArcadeEnv } from '../gym';
import { ROOT } from '../gym/paths';
import { SeededRandom } from '../gym/random';
import { jsonClient } from './json-client';
import { smokeOr } from './smoke';
import { DEFAULT_SEEDS_PER_GAME } from '../leaderboard/scoring';

const GAME = process.env.BENCH_GAME ?? 'snake';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? smokeOr(3, 1));
const EPISODES = Number(process.env.BENCH_EPISODES ?? smokeOr(DEFAULT_SEEDS_PER_GAME, 1));
const presets = getGame(GAME).manifest.preset.length;

const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/live-site.ts')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const nextLine = async (prefix: string) => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error('bench/live-site.ts exited');
    if (value.startsWith(prefix)) return value.slice(prefix.length).trim();
  }
};
const [url, token, gymUrl] = (await nextLine('READY ')).split(' ');
const siteCpuMs = async () => {
  child.stdin.write('cpu\n');
  return Number(await nextLine('CPU '));
};
const siteIdle = async () => {
  child.stdin.write('idle\n');
  await nextLine('IDLE');
};

const call = jsonClient(url, { authorization: `Bearer ${token}` });
const post = (p: string, body: unknown) => call('POST', p, body) as Promise<Record<string, any>>;

async function liveRound(rng: SeededRandom, episodes = EPISODES): Promise<{ steps: number; seconds: number; cpuMs: number }> {
  const { ticket } = await post('/api/tickets', { game: GAME, seedsPerGame: episodes, mode: 'live', agent: 'bench-live', observation: ['vector'] });
  // Played as the clients play it: at the endpoint of the worker that hosts the ticket (here, the site process's own).
  const endpoint = new URL(ticket.live.endpoint as string);
  const worker = jsonClient(endpoint.origin, { authorization: `Bearer ${token}` });
  await siteIdle();
  const cpu0 = await siteCpuMs();
  const t0 = performance.now();
  let steps = 0;
  for (let e = 0; e < episodes; e++) {
    await worker('POST', `${endpoint.pathname}/reset`, {});
    for (;;) {
      const r = await worker('POST', `${endpoint.pathname}/step`, { action: rng.nextUint32() % presets });
      steps++;
      if (r.terminated || r.truncated) break;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return { steps, seconds, cpuMs: (await siteCpuMs()) - cpu0 };
}

/** The same episodes on a gym session over HTTP, served from the site's process: the transport without the live ticket. */
const gym = jsonClient(gymUrl);
async function httpRound(id: string, rng: SeededRandom, seed: number, episodes = EPISODES): Promise<{ steps: number; seconds: number }> {
  await siteIdle();
  const t0 = performance.now();
  let steps = 0;
  for (let e = 0; e < episodes; e++) {
    await gym('POST', `/v1/sessions/${id}/reset`, { seed: seed + e });
    for (;;) {
      const r = await gym('POST', `/v1/sessions/${id}/step`, { action: rng.nextUint32() % presets });
      steps++;
      if (r.terminated || r.truncated) break;
    }
  }
  return { steps, seconds: (performance.now() - t0) / 1000 };
}

async function localRound(env: ArcadeEnv, rng: SeededRandom, seed: number, episodes = EPISODES): Promise<{ steps: number; seconds: number }> {
  await siteIdle();
  const t0 = performance.now();
  let steps = 0;
  for (let e = 0; e < episodes; e++) {
    await env.reset({ seed: seed + e });
    for (;;) {
      const r = await env.step(rng.nextUint32() % presets);
      steps++;
      if (r.terminated || r.truncated) break;
    }
  }
  return { steps, seconds: (performance.now() - t0) / 1000 };
}

const env = new ArcadeEnv({ game: GAME, observation: ['vector'] });
const rows: string[][] = [];
const sum = { live: { steps: 0, seconds: 0, cpuMs: 0 }, local: { steps: 0, seconds: 0 }, http: { steps: 0, seconds: 0 } };
const add = (to: { steps: number; seconds: number }, r: { steps: number; seconds: number }) => {
  to.steps += r.steps;
  to.seconds += r.seconds;
};
const rate = (r: { steps: number; seconds: number }) => r.steps / r.seconds;
try {
  // Like the local env, one gym session for every round.
  const { id } = ((await gym('POST', '/v1/sessions', { game: GAME, observation: ['vector'] })) as { session: { id: string } }).session;
  await liveRound(new SeededRandom(999), 1);
  await localRound(env, new SeededRandom(999), 999_000, 1);
  await httpRound(id, new SeededRandom(999), 999_000, 1);
  for (let round = 0; round < ROUNDS; round++) {
    const live = await liveRound(new SeededRandom(round));
    const local = await localRound(env, new SeededRandom(round), 1000 * round);
    const http = await httpRound(id, new SeededRandom(round), 1000 * round);
    add(sum.live, live);
    sum.live.cpuMs += live.cpuMs;
    add(sum.local, local);
    add(sum.http, http);
    rows.push([String(round + 1), String(live.steps), rate(live).toFixed(0), String(local.steps), rate(local).toFixed(0), rate(http).toFixed(0)]);
  }
} finally {
  await env.close();
  child.stdin.end();
}
console.log(formatTable(['round', 'live steps', 'live steps/s', 'local steps', 'local steps/s', 'http steps/s'], rows));
const ratio = rate(sum.live) / rate(sum.local);
console.log(
  JSON.stringify({
    bench: 'live',
    game: GAME,
    rounds: ROUNDS,
    episodes_per_round: EPISODES,
    live_steps_per_s: Number((sum.live.steps / sum.live.seconds).toFixed(1)),
    local_steps_per_s: Number((sum.local.steps / sum.local.seconds).toFixed(1)),
    live_vs_local_steps_per_s: Number(ratio.toFixed(3)),
    http_steps_per_s: Number(rate(sum.http).toFixed(1)),
    // The same transport without the live ticket: what the live ticket itself costs.
    live_vs_http_steps_per_s: Number((rate(sum.live) / rate(sum.http)).toFixed(3)),
    server_cpu_ms_per_live_step: Number((sum.live.cpuMs / sum.live.steps).toFixed(3)),
  }),
);
