import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices, stateAfterKeys } from '../../gym/testing';
import { checkBlockDrops, gameTests, playUntilNoPieceFits } from '../shared/testing/game-tests';
import type { HexVerifierState } from '../../verifiers/hex-frvr';
import {
  CELLS,
  bestDrop,
  FIRST_DROP,
  LINES,
  anchorForCell,
  cellIndex,
  dropAction,
  fits,
  inside,
  key,
  linePoints,
  place,
  stepCursor,
  type Axial,
  type DirName,
} from './logic';

const [NW, NE, W, E, SW, SE, PLACE] = presetIndices('hex-frvr', ['up-left', 'up-right', 'left', 'right', 'down-left', 'down-right', 'place']);
const MOVE: Record<DirName, number> = { NW, NE, W, E, SW, SE };
const gym = useBrowser();
const game = gameTests(gym, 'hex-frvr');

/** Actions that select a piece and walk its anchor to (q, r) with greedy hex steps, then drop. */
function pathTo(s: HexVerifierState, piece: number, q: number, r: number): number[] {
  const out: number[] = [];
  if (s.selected !== piece) out.push(piece);
  const p = s.pieces[piece]!;
  let cur: Axial = s.cursor;
  if (!inside(p, cur[0], cur[1])) return []; // the caller picks pieces that fit at the cursor
  for (let guard = 0; guard < 20 && (cur[0] !== q || cur[1] !== r); guard++) {
    let best: { d: DirName; dist: number } | null = null;
    for (const d of ['NW', 'NE', 'W', 'E', 'SW', 'SE'] as DirName[]) {
      const n = stepCursor(p, cur[0], cur[1], d);
      const dist = (Math.abs(n[0] - q) + Math.abs(n[1] - r) + Math.abs(n[0] + n[1] - q - r)) / 2;
      if (!best || dist < best.dist) best = { d, dist };
    }
    out.push(MOVE[best!.d]);
    cur = stepCursor(p, cur[0], cur[1], best!.d);
  }
  out.push(PLACE);
  return out;
}

/** The drop the rules predict for `action`: the selected piece at the cursor for the place key, a slot's piece anchored at a cell for a drag. */
function dropOf(s: HexVerifierState, action: number) {
  if (action !== PLACE && action < FIRST_DROP) return null;
  const slot = action === PLACE ? s.selected : Math.floor((action - FIRST_DROP) / CELLS.length);
  const p = s.pieces[slot]!;
  const [q, r] = action === PLACE ? s.cursor : anchorForCell(p, ...CELLS[(action - FIRST_DROP) % CELLS.length]);
  const res = place(s.board, p, q, r, 1);
  return { slot, board: res.board, lines: res.lines.length };
}

describe('hex-frvr', () => {
  it('has a 61-cell board with 27 lines and deals three pieces from the seed', async () => {
    expect(CELLS).toHaveLength(61);
    expect(LINES).toHaveLength(27);
    expect(LINES.map((l) => l.cells.length).sort((a, b) => a - b)).toEqual([5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 9, 9, 9]);
    const { env, observation, state: s } = await game.start<HexVerifierState>(4, { observation: ['state', 'vector'] });
    expect(s.score).toBe(0);
    expect(s.board).toHaveLength(61);
    expect(s.board.every((v) => v === 0)).toBe(true);
    expect(s.pieces.every((p) => p && p.fits && p.cells[0][0] === 0 && p.cells[0][1] === 0)).toBe(true);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    const names = new Set([JSON.stringify(s.pieces)]);
    for (let seed = 5; seed < 7; seed++) names.add(JSON.stringify(((await env.reset({ seed })).info.state as HexVerifierState).pieces));
    expect(names.size).toBeGreaterThan(1);
  });

  it('moves the ghost along the six hex directions and drops a piece for one point per cell', async () => {
    const { env, state: s0 } = await game.start<HexVerifierState>(3, { observation: 'state', maxSteps: 100 });
    // From the centre, E then W, NE then SW, SE then NW return to the start.
    let s = s0;
    const seen: Axial[] = [];
    for (const a of [E, W, NE, SW, SE, NW]) {
      s = (await env.step(a)).info.state as HexVerifierState;
      seen.push(s.cursor);
    }
    const [q0, r0] = s0.cursor;
    expect(seen).toEqual([
      [q0 + 1, r0],
      [q0, r0],
      [q0 + 1, r0 - 1],
      [q0, r0],
      [q0, r0 + 1],
      [q0, r0],
    ]);
    // Drop piece 1 at the top-left corner region: reward = its cell count.
    const p = s.pieces[0]!;
    const target = CELLS.find(([q, r]) => fits(s.board, p, q, r) && r <= -2)!;
    const rewards: number[] = [];
    for (const a of pathTo(s, 0, target[0], target[1])) {
      const r = await env.step(a);
      rewards.push(r.reward);
      s = r.info.state as HexVerifierState;
    }
    expect(rewards.slice(0, -1).every((x) => x === 0)).toBe(true);
    expect(rewards[rewards.length - 1]).toBe(p.cells.length);
    for (const [dq, dr] of p.cells) expect(s.board[cellIndex.get(key(target[0] + dq, target[1] + dr))!]).toBe(1);
    expect(s.board.reduce((x, y) => x + y, 0)).toBe(p.cells.length);
    expect(s.pieces[0]).toBeNull();
    expect(s.moves).toBe(1);
    // Dropping again onto the same cells is refused.
    if (s.pieces[1] && !fits(s.board, s.pieces[1], target[0], target[1]) && inside(s.pieces[1], s.cursor[0], s.cursor[1])) {
      for (const a of pathTo(s, 1, target[0], target[1])) {
        const r = await env.step(a);
        expect(r.reward).toBe(0);
        s = r.info.state as HexVerifierState;
      }
      expect(s.moves).toBe(1);
    }
  });

  it('drops a tray piece dragged onto the board anchored where it is let go; one that does not fit goes back', async () => {
    const { env, state: s0 } = await game.start<HexVerifierState>(3, { observation: 'state' });
    const p = s0.pieces[2]!;
    // Over an edge cell the piece is moved in just enough to stay on the board.
    const edge = CELLS.findIndex(([q, r]) => !inside(p, q, r));
    const at = anchorForCell(p, ...CELLS[edge]);
    expect(at).not.toEqual(CELLS[edge]);
    let r = await env.step(dropAction(2, edge));
    const s = r.info.state as HexVerifierState;
    expect(r.reward).toBe(p.cells.length);
    for (const [dq, dr] of p.cells) expect(s.board[cellIndex.get(key(at[0] + dq, at[1] + dr))!]).toBe(1);
    expect(s.pieces[2]).toBeNull();
    expect(s.moves).toBe(1);
    // Piece 1 dragged where it overlaps the cells just filled: refused, and the selection and
    // ghost are as they were.
    const q = s.pieces[0]!;
    const misfit = CELLS.findIndex(([cq, cr]) => {
      const a = anchorForCell(q, cq, cr);
      return !fits(s.board, q, a[0], a[1]);
    });
    r = await env.step(dropAction(0, misfit));
    expect(r.reward).toBe(0);
    expect(r.info.state).toEqual(s);
  });

  it('scores every drop as cells + line points × combo, over a whole scripted episode', async () => {
    const env = await gym.env({ game: 'hex-frvr', seed: 11, observation: 'state', maxSteps: 120 });
    const clears = await checkBlockDrops(env, 11, dropOf, linePoints);
    expect(clears).toBeGreaterThan(2);
  });

  it('ends the game when no offered piece fits, and then stays still', async () => {
    const { env, state: s0 } = await game.start<HexVerifierState>(5, { observation: 'state', maxSteps: 800 });
    const s = await playUntilNoPieceFits(env, s0, 800, (s) => {
      // A clumsy player: scatter pieces on every other cell and avoid clearing lines.
      const best = bestDrop(s.board, s.pieces, (res, _i, q, r) => res.cells - 20 * res.lines.length + ((q - r + 99) % 3 === 0 ? 2 : 0));
      if (!best) return [];
      // Select first (the anchor may be nudged); the next turn plans the walk from the new cursor.
      return s.selected !== best.piece ? [best.piece] : pathTo(s, best.piece, best.q, best.r);
    });
    expect(await stateAfterKeys(env, ['q', '2', ' ', 'd'])).toEqual(s);
  });

  game.framesChange('renders a non-blank 3D frame that changes when the ghost moves', { seed: 2, before: () => [NE], change: W, distinct: 30, std: 12 });

  game.beatsRandom('the scripted agent clearly beats a random agent', { seeds: [1], atLeast: 80, above: (r) => 2 * r + 20 });
});
