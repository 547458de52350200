/**
 * npm run bench:python — the Python vector env (clients/python, over the gym's HTTP server)
 * against the TypeScript one (`makeVectorEnv`) at the same game, number of envs and
 * observation, both batched (several instances per page) and stepped with seeded random actions:
 *  1. Snake, vector observations (`python_vs_ts_vector`);
 *  2. Snake, 84×84 grayscale pixels (`python_vs_ts_vector_pixels`).
 * The two sides take turns, round after round (BENCH_ROUNDS), so the machine's changing load
 * falls on both alike; a side's rate counts only its timed steps (made, reset and warmed up
 * first). Each ratio is the Python side's env steps/s ÷ the TypeScript side's, summed over the
 * rounds. The server runs in this process, with a browser of its own; while one side runs, the
 * other side's browser is idle. Python is /usr/bin/python3 (numpy; ARCADE_PYTHON to change it).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { makeVectorEnv, type BatchedVectorEnv } from '../gym/vector';
import { startGymServer } from '../gym/server';
import { ROOT } from '../gym/paths';
import { SeededRandom } from '../gym/random';
import { formatTable } from '../cli/format-table';
import { smokeOr } from './smoke';

const GAME = 'snake';
const NUM_ENVS = Number(process.env.BENCH_ENVS ?? smokeOr(16, 4));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? smokeOr(3, 1));
const SEED = 1;
const WARMUP = smokeOr(20, 2);
const PYTHON = process.env.ARCADE_PYTHON ?? '/usr/bin/python3';

interface Variant {
  key: 'vector' | 'pixels';
  observation: string;
  pixels?: { width: number; height: number; grayscale: boolean };
  steps: number;
}
const VARIANTS: Variant[] = [
  { key: 'vector', observation: 'vector', steps: smokeOr(400, 10) },
  { key: 'pixels', observation: 'pixels', pixels: { width: 84, height: 84, grayscale: true }, steps: smokeOr(200, 10) },
];

interface Side {
  envSteps: number;
  seconds: number;
}

/** The TypeScript side: makeVectorEnv, timed over `steps` vector steps after a reset and a warmup. */
async function runTs(v: Variant): Promise<Side & { instancesPerPage: number | null }> {
  const env = makeVectorEnv({ game: GAME, numEnvs: NUM_ENVS, seed: SEED, observation: v.observation as 'vector', pixels: v.pixels });
  try {
    const n = (env.singleActionSpace as { n: number }).n;
    const rng = new SeededRandom(SEED);
    const actions = () => Array.from({ length: NUM_ENVS }, () => rng.nextUint32() % n);
    await env.reset({ seed: SEED });
    for (let i = 0; i < WARMUP; i++) await env.step(actions());
    const t0 = performance.now();
    for (let i = 0; i < v.steps; i++) await env.step(actions());
    const seconds = (performance.now() - t0) / 1000;
    return { envSteps: v.steps * NUM_ENVS, seconds, instancesPerPage: (env as BatchedVectorEnv).instancesPerPage ?? null };
  } finally {
    await env.close();
  }
}

/** The Python side: bench/python_vector.py against the server, in a process of its own. */
function runPython(url: string, v: Variant): Promise<Side> {
  const cfg = { url, game: GAME, numEnvs: NUM_ENVS, observation: v.observation, pixels: v.pixels, seed: SEED, warmup: WARMUP, steps: v.steps };
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [path.join(ROOT, 'bench', 'python_vector.py'), JSON.stringify(cfg)], {
      env: { ...process.env, PYTHONPATH: path.join(ROOT, 'clients', 'python') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', (e) => reject(new Error(`${PYTHON}: ${e.message} (set ARCADE_PYTHON to a Python 3 with numpy)`)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench/python_vector.py exited ${code}:\n${err.slice(-2000)}`));
      const r = JSON.parse(out.trim().split('\n').at(-1)!) as { vector_steps: number; seconds: number };
      resolve({ envSteps: r.vector_steps * NUM_ENVS, seconds: r.seconds });
    });
  });
}

const rate = (s: Side[]) => s.reduce((t, x) => t + x.envSteps, 0) / s.reduce((t, x) => t + x.seconds, 0);
const round2 = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 8 }, maxSessions: 4 } });
  const sides: Record<Variant['key'], { ts: Side[]; py: Side[]; instancesPerPage: number | null }> = {
    vector: { ts: [], py: [], instancesPerPage: null },
    pixels: { ts: [], py: [], instancesPerPage: null },
  };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of VARIANTS) {
        // Alternate which side goes first, so neither always follows the other's load.
        const order = r % 2 === 0 ? (['ts', 'py'] as const) : (['py', 'ts'] as const);
        for (const side of order) {
          if (side === 'ts') {
            const m = await runTs(v);
            sides[v.key].ts.push(m);
            sides[v.key].instancesPerPage = m.instancesPerPage;
          } else sides[v.key].py.push(await runPython(server.url, v));
          process.stderr.write(`round ${r + 1} ${v.key} ${side}: ${Math.round(rate(sides[v.key][side].slice(-1)))} env steps/s\n`);
        }
      }
    }
  } finally {
    await server.close();
  }
  const rows = VARIANTS.map((v) => {
    const s = sides[v.key];
    return { observation: v.key, envs: NUM_ENVS, ts: Math.round(rate(s.ts)), python: Math.round(rate(s.py)), ratio: round2(rate(s.py) / rate(s.ts)) };
  });
  process.stdout.write(
    `${formatTable(
      ['observation', 'envs', 'TypeScript env steps/s', 'Python env steps/s', 'Python ÷ TypeScript'],
      rows.map((r) => [r.observation, String(r.envs), String(r.ts), String(r.python), String(r.ratio)]),
    )}\n`,
  );
  const result = {
    bench: 'python',
    game: GAME,
    num_envs: NUM_ENVS,
    rounds: ROUNDS,
    python_vs_ts_vector: rows[0].ratio,
    python_vs_ts_vector_pixels: rows[1].ratio,
    ts_env_steps_per_s: { vector: rows[0].ts, pixels: rows[1].ts },
    python_env_steps_per_s: { vector: rows[0].python, pixels: rows[1].python },
    by_round: Object.fromEntries(
      VARIANTS.map((v) => [v.key, sides[v.key].ts.map((t, i) => ({ ts: Math.round(rate([t])), python: Math.round(rate([sides[v.key].py[i]])) }))]),
    ),
    ts_instances_per_page: { vector: sides.vector.instancesPerPage, pixels: sides.pixels.instancesPerPage },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
