import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from '../gym/paths';

/**
 * Every bench of package.json, in its smoke mode (BENCH_SMOKE=1, bench/smoke.ts), as a child
 * process the way `npm run bench:*` runs it: it must exit 0 and end with one JSON object holding
 * the keys its readers use. The figures are not checked: a moment of measuring says nothing. A
 * bench that needs PostgreSQL finds or starts one itself (bench/postgres-server.ts).
 */
const PackageJson = z.object({ scripts: z.record(z.string(), z.string()) });
const scripts = PackageJson.parse(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).scripts;
const benches = Object.entries(scripts)
  .filter(([name]) => name.startsWith('bench:'))
  .map(([name, command]) => ({ name, file: /^tsx (bench\/[\w-]+\.ts)$/.exec(command)?.[1] ?? command }));

/** The keys each bench's JSON last line must have. */
const KEYS: Record<string, string[]> = {
  'bench:env': ['game', 'steps_per_s_state', 'steps_per_s_pixels', 'steps_per_s_page_clock', 'steps_per_s_in_page', 'reset_ms_amortised'],
  'bench:ppo': ['adapter', 'updates_per_s', 'matmul_gflops', 'webgpu_vs_cpu_mlp', 'cartpole_steps_to_475', 'cartpole_backend'],
  'bench:db': ['agents', 'games', 'leaderboard_ms_pglite', 'episode_record_kb', 'ingest_eps_per_s_postgres', 'leaderboard_ms_postgres'],
  'bench:gym': ['http_vs_inprocess', 'instances_per_page'],
  'bench:suite': ['suite', 'games', 'min_gym_steps_per_s', 'median_gym_steps_per_s', 'suite_eval_seconds'],
  'bench:queue': ['bench', 'games', 'eval_wall_s_by_workers', 'verify_eps_per_s_queue', 'queue_overhead_ms_per_job'],
  'bench:learn': ['learn_games_beating_random', 'train_steps_per_s', 'gym_steps_per_s_mean'],
  'bench:suite-learn': ['bench', 'suite_games', 'failed', 'games', 'train_vs_gym_steps_per_s', 'env_share_of_training'],
  'bench:browser-train': ['game', 'steps', 'node', 'browser_cpu', 'browser_webgpu', 'adapter'],
  'bench:ablation': ['bench', 'steps', 'table', 'runs'],
  'bench:live': ['live_vs_local_steps_per_s', 'live_vs_http_steps_per_s', 'server_cpu_ms_per_live_step', 'live_steps_per_s', 'local_steps_per_s'],
  'bench:python': ['python_vs_ts_vector', 'python_vs_ts_vector_pixels', 'ts_env_steps_per_s', 'python_env_steps_per_s'],
};

/** Runs a bench in smoke mode; its output, and the JSON object on its last line. */
function runSmoke(file: string): Promise<{ code: number; out: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, file)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      let json: unknown = null;
      try {
        json = JSON.parse(last);
      } catch {
        // Left null: the assertion below shows the output.
      }
      resolve({ code: code ?? -1, out, json });
    });
  });
}

describe('bench smoke runs (BENCH_SMOKE=1)', () => {
  it('covers every bench script, each with the keys it must print', () => {
    expect(benches.map((b) => b.name).sort()).toEqual(Object.keys(KEYS).sort());
  });

  // A moment of each measurement still adds up: bench:gym's smoke run opens 16 sessions twice and
  // sizes three batched configurations (one of them WebGL), minutes beside the rest of `npm test`.
  for (const { name, file } of benches) {
    it(`${name} runs and ends with its JSON line`, async () => {
      const { code, out, json } = await runSmoke(file);
      expect(code, out.slice(-4000)).toBe(0);
      expect(json, out.slice(-4000)).toBeTypeOf('object');
      expect(json).not.toBeNull();
      for (const key of KEYS[name] ?? []) expect(json, `${name}: "${key}"`).toHaveProperty(key);
    }, 600_000);
  }
});
