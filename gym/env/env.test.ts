import { describe, expect, it } from 'vitest';
import { makeEnv } from './env';
import { useBrowser } from '../testing/harness';
import { ArcadeGymError } from '../errors';
import { replayActions } from '../eval/run-episode';
import { canonicalJson, EpisodeRecord } from '../schema/records';

const gym = useBrowser();

async function errorOf(p: Promise<unknown> | (() => unknown)): Promise<ArcadeGymError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof ArcadeGymError) return e;
    throw e;
  }
  throw new Error('expected an ArcadeGymError');
}

describe('Env: bad input gets a clear error naming the problem', () => {
  it('unknown game', async () => {
    const e = await errorOf(() => makeEnv({ game: 'pacmann' }));
    expect(e.code).toBe('UNKNOWN_GAME');
    expect(e.message).toMatch(/Unknown game "pacmann".*snake/);
  });

  it('invalid options', async () => {
    const e = await errorOf(() => makeEnv({ game: 'snake', maxSteps: -3 }));
    expect(e.code).toBe('INVALID_OPTIONS');
    expect(e.message).toMatch(/maxSteps/);
    const e2 = await errorOf(() => makeEnv({ game: 'snake', observation: ['smell' as 'state'] }));
    expect(e2.message).toMatch(/observation/);
  });

  it('step before reset, malformed actions, out-of-range indices, stepping a finished episode, closed env', async () => {
    const env = await gym.env({ game: 'snake', seed: 1, observation: 'state', maxSteps: 3 });
    expect((await errorOf(env.step(0))).code).toBe('RESET_NEEDED');
    await env.reset();
    const bad = await errorOf(env.step({ type: 'click', x: 'left' } as never));
    expect(bad.code).toBe('INVALID_ACTION');
    expect(bad.message).toMatch(/Malformed action.*"x"/);
    const unknownType = await errorOf(env.step({ type: 'teleport' } as never));
    expect(unknownType.code).toBe('INVALID_ACTION');
    const range = await errorOf(env.step(5));
    expect(range.code).toBe('ACTION_OUT_OF_RANGE');
    expect(range.message).toMatch(/index 5 is out of range.*0\.\.4.*up, right, down, left, noop/);
    expect((await errorOf(env.step(-1))).code).toBe('ACTION_OUT_OF_RANGE');
    expect((await errorOf(env.step(1.5))).code).toBe('ACTION_OUT_OF_RANGE');
    // Rejected actions do not count as steps.
    await env.step(4);
    await env.step(4);
    const last = await env.step(4);
    expect(last.truncated).toBe(true);
    expect(last.terminated).toBe(false);
    const ended = await errorOf(env.step(4));
    expect(ended.code).toBe('EPISODE_ENDED');
    expect(ended.message).toMatch(/truncated after 3 steps.*reset/);
    await env.reset();
    await env.step(4);
    await env.close();
    expect((await errorOf(env.step(4))).code).toBe('ENV_CLOSED');
  });
});

describe('Env: Gymnasium semantics and observations', () => {
  it('returns state, vector, pixels and screenshots as asked, with spaces to match', async () => {
    const env = await gym.env({
      game: 'snake',
      seed: 2,
      observation: ['state', 'vector', 'pixels', 'screenshot'],
      pixels: { width: 84, height: 84, grayscale: true },
    });
    const { observation, info } = await env.reset();
    expect(info.seed).toBe(2);
    expect(observation.state?.score).toBe(0);
    expect(observation.vector).toBeInstanceOf(Float32Array);
    expect(observation.vector!.length).toBe((env.observationSpace as { spaces: Record<string, { shape: number[] }> }).spaces.vector.shape[0]);
    expect(observation.pixels).toMatchObject({ width: 84, height: 84, channels: 1 });
    expect(observation.pixels!.data.length).toBe(84 * 84);
    const distinct = new Set(observation.pixels!.data);
    expect(distinct.size).toBeGreaterThan(4);
    expect(observation.screenshot!.subarray(1, 4).toString()).toBe('PNG');
    expect(env.actionSpace).toEqual({ type: 'Discrete', n: 5, names: ['up', 'right', 'down', 'left', 'noop'] });

    const rgb = await gym.env({ game: 'snake', seed: 2, observation: 'pixels', pixels: { width: 32, height: 24, grayscale: false } });
    const o = (await rgb.reset()).observation;
    expect(o.pixels!.data.length).toBe(32 * 24 * 3);
  });

  it('reset without a seed continues a seeded sequence of episode seeds', async () => {
    const a = await gym.env({ game: 'snake', seed: 9, observation: 'state' });
    const b = await gym.env({ game: 'snake', seed: 9, observation: 'state' });
    const seedsA = [(await a.reset()).info.seed, (await a.reset()).info.seed, (await a.reset()).info.seed];
    const seedsB = [(await b.reset()).info.seed, (await b.reset()).info.seed, (await b.reset()).info.seed];
    expect(seedsA[0]).toBe(9);
    expect(seedsB).toEqual(seedsA);
    expect(new Set(seedsA).size).toBe(3);
  });

  it('a seeded reset reseeds the sequence, as gymnasium.Env.reset(seed=…) does', async () => {
    const fresh = await gym.env({ game: 'snake', seed: 31, observation: 'state' });
    const expected = [(await fresh.reset()).info.seed, (await fresh.reset()).info.seed, (await fresh.reset()).info.seed];
    // Another env, with its own seed and a history, reset with seed 31: from then on it plays what a fresh env of seed 31 plays.
    const other = await gym.env({ game: 'snake', seed: 5, observation: 'state' });
    await other.reset();
    await other.reset();
    const after = [(await other.reset({ seed: 31 })).info.seed, (await other.reset()).info.seed, (await other.reset()).info.seed];
    expect(after).toEqual(expected);
  });

  it('applies reward shaping and records it', async () => {
    const env = await gym.env({ game: 'snake', seed: 1, observation: 'state', shaping: { perStep: -0.01, terminal: -1 } });
    await env.reset({ seed: 1 });
    const rewards: number[] = [];
    let r;
    do {
      r = await env.step(0);
      rewards.push(r.reward);
    } while (!r.terminated && !r.truncated);
    expect(r.terminated).toBe(true);
    expect(rewards.slice(0, -1).every((x) => x === -0.01)).toBe(true);
    expect(rewards[rewards.length - 1]).toBeCloseTo(-1.01, 12);
    expect(r.info.episode!.shaping).toEqual({ perStep: -0.01, terminal: -1 });
  });
});

describe('Env: determinism', () => {
  it('same game, seed and actions give byte-identical records and final frames, on fresh pages and a second browser', async () => {
    const actions = [0, 4, 3, 4, 2, 4, 4, 1, 0, 4, 3, 2, 4, 1, { type: 'key' as const, key: 'w' }, 4, 4, 3];
    const env1 = await gym.env({ game: 'snake', seed: 21, observation: 'state' });
    const first = await replayActions(env1, 21, actions);
    const again = await replayActions(env1, 21, actions);
    const { launchBrowser } = await import('../browser/launch');
    const other = await launchBrowser();
    try {
      const env2 = makeEnv({ game: 'snake', seed: 21, observation: ['state', 'pixels'] }, other);
      const third = await replayActions(env2, 21, actions);
      await env2.close();
      expect(EpisodeRecord.safeParse(first).success).toBe(true);
      expect(canonicalJson(again)).toBe(canonicalJson(first));
      expect(canonicalJson(third)).toBe(canonicalJson(first));
      expect(first.finalFrameHash).toMatch(/^[0-9a-f]{16}$/);
      expect(JSON.stringify(first)).not.toMatch(/wall|timestamp|createdAt/i);
    } finally {
      await other.close();
    }
  });
});
