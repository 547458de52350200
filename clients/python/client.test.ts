import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonGameList } from '../../gym/build';
import { startGymServer, type GymServer } from '../../gym/server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = 'test-token-1234';

/** A stand-in for gymnasium (not installed here) so the subclassing path runs too. */
const GYMNASIUM_STUB = {
  '__init__.py': [
    'from . import spaces',
    '',
    'class Env:',
    '    def reset(self, *, seed=None, options=None):',
    '        self.seeded_with = seed',
    '',
    'registry = {}',
    '',
    'def register(id, **kwargs):',
    '    registry[id] = {"id": id, **kwargs}',
    '',
  ].join('\n'),
  'spaces.py': [
    'class Space:',
    '    def __init__(self, shape=None, dtype=None):',
    '        self.shape, self.dtype = shape, dtype',
    'class Discrete(Space):',
    '    def __init__(self, n):',
    '        super().__init__(())',
    '        self.n = n',
    'class Box(Space):',
    '    def __init__(self, low, high, shape, dtype):',
    '        super().__init__(shape, dtype)',
    '        self.low, self.high = low, high',
    'class Dict(Space):',
    '    def __init__(self, spaces):',
    '        super().__init__()',
    '        self.spaces = spaces',
    '    def __getitem__(self, k):',
    '        return self.spaces[k]',
    '',
  ].join('\n'),
  'vector/__init__.py': 'class VectorEnv:\n    pass\n',
  'vector/utils.py': [
    'from ..spaces import Space',
    'class MultiDiscrete(Space):',
    '    def __init__(self, nvec):',
    '        super().__init__((len(nvec),))',
    '        self.nvec = nvec',
    'def batch_space(space, n):',
    '    return MultiDiscrete([space.n] * n) if hasattr(space, "n") else Space()',
    '',
  ].join('\n'),
};

function runPython(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const pythonPath = [env.PYTHONPATH, HERE].filter(Boolean).join(path.delimiter);
    execFile(
      'python3',
      [path.join(HERE, 'tests', 'check_client.py'), ...args],
      { env: { ...process.env, ...env, PYTHONPATH: pythonPath }, timeout: 120_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`python3 failed: ${err.message}\n${stderr}`));
        const last = stdout.trim().split('\n').pop()!;
        resolve(JSON.parse(last) as Record<string, unknown>);
      },
    );
  });
}

describe('Python client against the real HTTP server', () => {
  let server: GymServer;
  let stubDir: string;
  beforeAll(async () => {
    server = await startGymServer({ port: 0, token: TOKEN, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 6 } } });
    stubDir = mkdtempSync(path.join(tmpdir(), 'gymnasium-stub-'));
    mkdirSync(path.join(stubDir, 'gymnasium', 'vector'), { recursive: true });
    for (const [name, text] of Object.entries(GYMNASIUM_STUB)) writeFileSync(path.join(stubDir, 'gymnasium', name), text);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(stubDir, { recursive: true, force: true });
  });

  const expectations = (r: Record<string, unknown>) => {
    expect(r.games).toContain('snake');
    expect(r.action_n).toBe(5);
    expect(r.vector_len).toBeGreaterThan(0);
    expect(r.ended).not.toBeNull();
    expect(r.record_actions).toEqual([1, 1, 2, 2, 3, 3, 0, 0, 4, 1, 1, 2].slice(0, (r.record_actions as unknown[]).length));
    expect(['complete', 'recovered']).toContain(r.outcome);
    expect(r.deterministic).toBe(true);
    expect(r.single_kind_obs_is_state).toBe(true);
    expect(r.pixels_shape).toEqual([84, 84, 1]);
    expect(r.pixels_binary_equals_json).toBe(true);
    expect(r.pixels_step_equal).toBe(true);
    expect(r.errors).toEqual({
      unknown_session: [404, 'SESSION_NOT_FOUND'],
      bad_action: [400, 'ACTION_OUT_OF_RANGE'],
      malformed_action: [400, 'INVALID_ACTION'],
      unknown_game: [400, 'UNKNOWN_GAME'],
    });
    expect(r.batch_equals_single).toBe(true);
    expect(r.batch_item_error).toEqual([409, 'EPISODE_ENDED']);
    expect(r.batch_other_ran).toBe(true);
    expect(r.batch_refused).toEqual([400, 'ACTION_OUT_OF_RANGE']);
    expect(r.close_outcome).toEqual({ status: 'truncated', cause: 'CLOSED', length: 1 });
    expect(r.step_after_close).toEqual([410, 'SESSION_CLOSED']);
    const v = r.vector as Record<string, unknown>;
    expect(v.action_nvec).toEqual([5, 5, 5]);
    expect(v.equals_single_envs).toBe(true);
    expect(v.same_seed_same_episode).toBe(true);
    expect(v.ended_after_budget).toEqual([true, true, true]);
    expect(v.next_step_reset).toEqual({ rewards: [0, 0, 0], done: [false, false, false], autoreset: [true, true, true], first_obs_is_new_episode: true });
    expect(v.wrong_action_count).toMatch(/2 actions for 3 envs/);
    expect(v.dict_obs_batched).toBe(true);
    expect(v.same_step).toEqual({ done: [true, true], final_obs_is_last: true, final_mask: [true, true], obs_is_new_episode: true });
    expect(v.same_step_continues).toBe(true);
    expect(v.close_outcomes).toEqual([true, true]);
    expect(r.action_mask).toMatchObject({ length: 4, values: true, equals_camel_case: true, batched_shape: [2, 4], numpy_int8: r.numpy === true });
    expect(r.seeds).toEqual({ episodes: 12, unseeded_distinct: true, seeded_first: [10, 11, 12], seeded_distinct: true, reseeded_repeats: true });
    expect(r.busy).toEqual([503, 'BUSY', true]);
    expect(r.open_after).toBe(0);
  };

  it('plain Python (no gymnasium, no numpy): Gymnasium-shaped reset/step/close, binary pixels, clear errors', async () => {
    const r = await runPython([server.url, TOKEN], { ARCADE_GYM_CLIENT_PLAIN: '1' });
    expect(r.gymnasium).toBe(false);
    expect(r.numpy).toBe(false);
    expect(r.env_is_gymnasium).toBe(false);
    expect((r.vector as Record<string, unknown>).is_gymnasium_vector).toBe(false);
    expectations(r);
  });

  it('with gymnasium importable (a stub here) the env subclasses gymnasium.Env', async () => {
    const r = await runPython([server.url, TOKEN], { PYTHONPATH: stubDir });
    expect(r.gymnasium).toBe(true);
    expect(r.env_is_gymnasium).toBe(true);
    expect((r.vector as Record<string, unknown>).is_gymnasium_vector).toBe(true);
    // Every game of games/ as ArcadeGym/<id>-v<major>, with its official budget as max_episode_steps.
    const expected = Object.fromEntries(pythonGameList().games.map((g) => [`ArcadeGym/${g.id}-v${g.version.split('.')[0]}`, [g.stepBudget, g.id]]));
    expect(r.registered).toEqual({ ids: expected, entry_points_resolve: true });
    expect(Object.keys(expected)).toContain('ArcadeGym/match3-v2');
    expectations(r);
  });

  it('a wrong token is refused', async () => {
    await expect(runPython([server.url, 'wrong-token-xyz'], { ARCADE_GYM_CLIENT_PLAIN: '1' })).rejects.toThrow(/UNAUTHORIZED/);
  });
});
