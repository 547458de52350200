import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { runEpisode } from '../../gym/eval';
import { createRandomAgent, createScriptedAgent } from '../../gym/agents';
import { SeededRandom } from '../../gym/random';
import type { ArcadeEnv } from '../../gym';
import { gameTests, patchGameState } from '../shared/testing/game-tests';
import type { TilesMasterVerifierState } from '../../verifiers/tiles-master';
import { generateLevel, isFree, levelSpec, overlaps, pointIndex, type Tile } from './logic';

const gym = useBrowser();
const game = gameTests(gym, 'tiles-master');
type S = TilesMasterVerifierState;
const point = (i: number, j: number) => j * 7 + i;

const setTiles = (env: ArcadeEnv, tiles: Tile[]) => patchGameState(env, 'tilesMaster', { tiles });

describe('tiles-master levels', () => {
  it('deals stacked, symmetric-ish levels whose symbols come in threes and grow harder', () => {
    for (let level = 1; level <= 8; level++) {
      for (let seed = 0; seed < 5; seed++) {
        const rng = new SeededRandom(seed * 100 + level);
        const tiles = generateLevel(level, () => rng.next());
        const spec = levelSpec(level);
        expect(tiles.length % 3).toBe(0);
        expect(tiles.length).toBe(spec.triples * 3);
        const counts = new Map<number, number>();
        for (const t of tiles) counts.set(t.symbol, (counts.get(t.symbol) ?? 0) + 1);
        for (const [sym, n] of counts) {
          expect(sym).toBeGreaterThanOrEqual(0);
          expect(sym).toBeLessThan(spec.symbols);
          expect(n % 3).toBe(0);
        }
        for (const t of tiles) {
          expect(t.x).toBeGreaterThanOrEqual(0);
          expect(t.x).toBeLessThanOrEqual(6);
          // Same-layer tiles never overlap; upper tiles rest on the layer below.
          expect(tiles.some((o) => o !== t && o.layer === t.layer && overlaps(o, t))).toBe(false);
          if (t.layer > 0) expect(tiles.some((o) => o.layer === t.layer - 1 && overlaps(o, t))).toBe(true);
        }
        expect(tiles.some((t) => isFree(tiles, t))).toBe(true);
      }
    }
    expect(levelSpec(4).symbols).toBeGreaterThan(levelSpec(1).symbols);
    expect(levelSpec(4).layers).toBeGreaterThan(levelSpec(1).layers);
  });
});

describe('tiles-master', () => {
  it('starts level 1 with 24 seeded tiles and an empty tray', async () => {
    const { env, observation, state: s } = await game.start<S>(3, { observation: ['state', 'vector'] });
    expect(s.level).toBe(1);
    expect(s.tiles).toHaveLength(24);
    expect(s.tray).toEqual([]);
    expect(s.traySize).toBe(7);
    expect(s.tiles.every((t) => t.point === pointIndex(t))).toBe(true);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    // Per click point: a free tile there, its symbol's count in the tray and among free tiles (÷ 3).
    const points = 7 * 7;
    const expectMatches = (v: ArrayLike<number>, st: S) => {
      const free = st.tiles.filter((t) => t.free);
      for (let p = 0; p < points; p++) {
        const t = free.find((f) => f.point === p);
        expect(v[p]).toBe(t ? 1 : 0);
        expect(v[points + p]).toBeCloseTo(t ? st.tray.filter((k) => k === t.symbol).length / 3 : 0, 6);
        expect(v[2 * points + p]).toBeCloseTo(t ? free.filter((f) => f.symbol === t.symbol).length / 3 : 0, 6);
      }
    };
    expectMatches(observation.vector!, s);
    const picked = s.tiles.find((t) => t.free && s.tiles.some((o) => o !== t && o.free && o.symbol === t.symbol))!;
    const after = await env.step(picked.point);
    const st = after.info.state as S;
    expect(st.tray).toEqual([picked.symbol]);
    expectMatches(after.observation.vector!, st);
    // A free tile of the picked symbol now reads one in the tray.
    const mate = st.tiles.find((t) => t.free && t.symbol === picked.symbol)!;
    expect(after.observation.vector![points + mate.point]).toBeCloseTo(1 / 3, 6);
    expect(((await env.reset({ seed: 3 })).info.state as S).tiles).toEqual(s.tiles);
    expect(((await env.reset({ seed: 4 })).info.state as S).tiles).not.toEqual(s.tiles);
  });

  it('takes only uncovered tiles, groups the tray, clears triples and deals the next level', async () => {
    const { env } = await game.start(1, { observation: 'state' });
    await setTiles(env, [
      { id: 1, x: 0, y: 0, layer: 0, symbol: 0 },
      { id: 2, x: 0.5, y: 0.5, layer: 1, symbol: 1 },
      { id: 3, x: 3, y: 3, layer: 0, symbol: 0 },
      { id: 4, x: 5, y: 5, layer: 0, symbol: 0 },
      { id: 5, x: 6, y: 6, layer: 0, symbol: 1 },
      { id: 6, x: 1, y: 1, layer: 0, symbol: 1 },
    ]);
    const trays: number[][] = [];
    const rewards: number[] = [];
    // Tile 6's point is outside tile 2 but tile 2 overlaps it: a click there does nothing.
    for (const p of [point(1, 1), point(0, 0), point(3, 3), point(1, 1), point(5, 5), point(0, 0)]) {
      const r = await env.step(p);
      trays.push((r.info.state as S).tray);
      rewards.push(r.reward);
    }
    expect(trays).toEqual([[], [1], [1, 0], [1, 1, 0], [1, 1, 0, 0], [1, 1]]);
    expect(rewards).toEqual([0, 0, 0, 0, 0, 30]);
    const last = await env.step(point(6, 6));
    const s = last.info.state as S;
    // The third 1 (30) empties the board (+100): level 2 is dealt with more tiles.
    expect(last.reward).toBe(130);
    expect(s.level).toBe(2);
    expect(s.tray).toEqual([]);
    expect(s.tiles).toHaveLength(30);
    expect(s.score).toBe(160);
  });

  it('ends the game when the tray fills up', async () => {
    const { env } = await game.start(2, { observation: 'state' });
    const tiles: Tile[] = [];
    for (let k = 0; k < 7; k++)
      tiles.push(
        { id: 100 + k, x: k, y: 2, layer: 0, symbol: k },
        { id: 200 + k, x: k, y: 4, layer: 0, symbol: k },
        { id: 300 + k, x: k, y: 6, layer: 0, symbol: k },
      );
    await setTiles(env, tiles);
    let r;
    for (let k = 0; k < 7; k++) {
      r = await env.step(point(k, 2));
      expect(r.terminated).toBe(k === 6);
    }
    expect((r!.info.state as S).tray).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r!.info.state.gameOver).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when a tile is taken', {
    seed: 5,
    change: (s) => s.tiles.find((t) => t.free)!.point,
    distinct: 8,
    check: (r) => expect((r.info.state as S).tray).toHaveLength(1),
  });

  it('the scripted agent clears levels; a random agent does not', async () => {
    const env = await gym.env({ game: 'tiles-master', seed: 0, observation: 'state' });
    const scripted = await createScriptedAgent('tiles-master');
    const random = createRandomAgent();
    for (const seed of [0, 1]) {
      const s = await runEpisode(env, scripted, seed);
      const r = await runEpisode(env, random, seed);
      expect((s.steps[s.steps.length - 1].info.state as S).level).toBeGreaterThanOrEqual(3);
      expect(s.totals.score).toBeGreaterThan(5 * Math.max(30, r.totals.score));
    }
  });
});
