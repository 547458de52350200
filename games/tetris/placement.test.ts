/**
 * Placement decisions on a real Tetris page (headless Chromium): every (rotation, column)
 * decision lands the piece where the game's own rules say it should (the board after the drop
 * equals the planned piece locked into the board before), with turns and one drop at a column;
 * the same state gives the same actions; and the step-by-step driver evaluation makes exactly
 * the actions the training wrapper does.
 */
import { describe, expect, it } from 'vitest';
import { COLS, dropRow, lockPiece, shapeOf, type Piece, type PieceType } from './logic';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { evaluateGame } from '../../gym/eval';
import { MacroAction } from '../../gym/core';
import type { TetrisVerifierState } from '../../verifiers/tetris';
import { canonicalJson } from '../../gym/schema';
import { MacroDriver } from '../../gym/actions';
import { placementPlanner } from './placement';

const gym = useBrowser();
const manifest = getGame('tetris').manifest;
const planner = placementPlanner(manifest);
const ROTATE = manifest.preset.findIndex((p) => p.name === 'rotate');
const DROPS = Array.from({ length: COLS }, (_, c) => manifest.preset.findIndex((p) => p.name === `drop at column ${c + 1}`));
const KEYS = new Set([ROTATE, ...DROPS]);

/** Where decision (r, c) should put the piece, by the game's rules: rotation r (none for O), leftmost block at c or the nearest column it fits. */
function planned(s: TetrisVerifierState, r: number, c: number): number[][] {
  const type = s.piece.type as PieceType;
  const rot = type === 'O' ? 0 : r;
  const xs = shapeOf(type, rot).map(([x]) => x);
  const width = Math.max(...xs) - Math.min(...xs) + 1;
  const left = Math.max(0, Math.min(COLS - width, c));
  const p: Piece = { type, rot, x: left - Math.min(...xs), y: s.piece.y };
  return lockPiece(s.board, { ...p, y: dropRow(s.board, p) }).board;
}

const stackHeight = (board: number[][]) => {
  const top = board.findIndex((row) => row.some((v) => v !== 0));
  return top < 0 ? 0 : board.length - top;
};

describe('Tetris placement decisions', () => {
  it('has 4 rotations × 10 columns', () => {
    expect(planner.numDecisions).toBe(40);
    expect(planner.names[13]).toBe('rot 1 col 3');
  });

  it('every (rotation, column) lands the piece where planned, by turns and one drop', async () => {
    const env = new MacroAction(await gym.env({ game: 'tetris', seed: 11, observation: 'state', maxSteps: 300 }), planner);
    let seed = 11;
    let s = (await env.reset({ seed })).info.state as TetrisVerifierState;
    const types = new Set<string>();
    for (let d = 0; d < planner.numDecisions; d++) {
      // A low stack keeps every move open, so the plan is the whole story.
      if (stackHeight(s.board) > 8) s = (await env.reset({ seed: ++seed })).info.state as TetrisVerifierState;
      const expected = planned(s, Math.floor(d / 10), d % 10);
      types.add(s.piece.type);
      const r = await env.step(d);
      const after = r.info.state as TetrisVerifierState;
      expect(after.pieces, `decision ${d}: one piece placed`).toBe(s.pieces + 1);
      expect(after.board, `decision ${d} (${planner.names[d]}) with piece ${s.piece.type}`).toEqual(expected);
      expect(r.info.macro.actions.every((a) => typeof a === 'number' && KEYS.has(a))).toBe(true);
      expect(r.info.macro.actions.slice(0, -1).every((a) => a === ROTATE)).toBe(true);
      expect(DROPS).toContain(r.info.macro.actions.at(-1));
      s = after;
    }
    expect(types.size).toBeGreaterThanOrEqual(5);
  });

  it('the same state and decision give the same keys; the driver presses what the wrapper pressed', async () => {
    const decisions = [7, 33, 0, 19, 25, 9, 12, 38, 4, 21];
    const wrappedPage = await gym.env({ game: 'tetris', seed: 5, observation: 'state', maxSteps: 300 });
    const wrapped = new MacroAction(wrappedPage, planner);
    await wrapped.reset({ seed: 5 });
    const wrapperKeys: number[] = [];
    for (const d of decisions) {
      const r = await wrapped.step(d);
      wrapperKeys.push(...(r.info.macro.actions as number[]));
      if (r.terminated || r.truncated) break;
    }

    const raw = await gym.env({ game: 'tetris', seed: 5, observation: 'state', maxSteps: 300 });
    let info: { state: unknown } = (await raw.reset({ seed: 5 })).info;
    const driver = new MacroDriver(planner);
    const queue = [...decisions];
    const driverKeys: number[] = [];
    while (driverKeys.length < wrapperKeys.length) {
      const key = await driver.next(info, async () => queue.shift()!);
      driverKeys.push(key);
      info = (await raw.step(key)).info;
    }
    expect(driverKeys).toEqual(wrapperKeys);
    // And the page is where the wrapped one is (byte-identical records up to here).
    const records = await Promise.all([raw.currentEpisodeRecord(), wrappedPage.currentEpisodeRecord()]);
    expect(canonicalJson(records[0])).toBe(canonicalJson(records[1]));
  });

  it('--agent random with actions plays uniform placements action by action, the same for the same seed', async () => {
    const play = async () => {
      const r = await evaluateGame({
        game: getGame('tetris'),
        agent: 'random',
        agentOptions: { actions: { kind: 'placement' } },
        seeds: [3],
        browser: await gym.browser(),
      });
      return r.episodes[0];
    };
    const [a, b] = [await play(), await play()];
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(a.actions.every((k) => typeof k === 'number' && KEYS.has(k))).toBe(true);
    await expect(evaluateGame({ game: getGame('tetris'), agent: 'random', agentOptions: { actions: { kind: 'swipe' } }, seeds: [3] })).rejects.toThrow(
      /actions \{"kind":"swipe"\} is not an action set of tetris; it offers \{"kind":"preset"\}, \{"kind":"placement"\}/,
    );
  });

  it('says what it needs from a game that does not have it', () => {
    expect(() => placementPlanner(getGame('snake').manifest)).toThrow(
      /preset actions named rotate and drop at column 1 … drop at column 10; snake's preset lacks rotate, drop at column 1, /,
    );
    expect(() => planner.start(0, { state: { score: 0 } })).toThrow(/piece/);
  });
});
