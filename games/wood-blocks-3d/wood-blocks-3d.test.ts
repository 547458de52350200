import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices, stateAfterKeys } from '../../gym/testing';
import { checkBlockDrops, gameTests, playUntilNoPieceFits } from '../shared/testing/game-tests';
import type { WoodBlocksVerifierState } from '../../verifiers/wood-blocks-3d';
import { FIRST_DROP, SIZE, cornerForCell, dropAction, fits, linePoints, place } from './logic';

const [P2, UP, DOWN, LEFT, RIGHT, PLACE] = presetIndices('wood-blocks-3d', ['piece-2', 'up', 'down', 'left', 'right', 'place']);
const gym = useBrowser();
const game = gameTests(gym, 'wood-blocks-3d');

/** Preset actions that select piece i, walk the ghost to (col,row) and drop it. */
function pathTo(s: WoodBlocksVerifierState, piece: number, col: number, row: number): number[] {
  const out: number[] = [];
  if (s.selected !== piece) out.push(piece);
  const p = s.pieces[piece]!;
  let c = Math.max(0, Math.min(SIZE - p.w, s.cursor[0]));
  let r = Math.max(0, Math.min(SIZE - p.h, s.cursor[1]));
  while (r > row) {
    out.push(UP);
    r--;
  }
  while (r < row) {
    out.push(DOWN);
    r++;
  }
  while (c > col) {
    out.push(LEFT);
    c--;
  }
  while (c < col) {
    out.push(RIGHT);
    c++;
  }
  out.push(PLACE);
  return out;
}

/** The drop the rules predict for `action`: the selected piece at the cursor for the place key, a slot's piece centred on a cell for a drag. */
function dropOf(s: WoodBlocksVerifierState, action: number) {
  if (action !== PLACE && action < FIRST_DROP) return null;
  const slot = action === PLACE ? s.selected : Math.floor((action - FIRST_DROP) / (SIZE * SIZE));
  const p = s.pieces[slot]!;
  const cell = (action - FIRST_DROP) % (SIZE * SIZE);
  const at = action === PLACE ? { col: s.cursor[0], row: s.cursor[1] } : cornerForCell(cell % SIZE, Math.floor(cell / SIZE), p.w, p.h);
  const res = place(s.board, p, at.col, at.row, 1);
  return { slot, board: res.board, lines: res.rows.length + res.cols.length };
}

describe('wood-blocks-3d', () => {
  it('deals three pieces from the seed on an empty board', async () => {
    const { env, observation, state: s } = await game.start<WoodBlocksVerifierState>(7, { observation: ['state', 'vector'] });
    expect(s.score).toBe(0);
    expect(s.gameOver).toBe(false);
    expect(s.board.flat().every((v) => v === 0)).toBe(true);
    expect(s.pieces.every((p) => p && p.cells.length > 0 && p.fits)).toBe(true);
    expect(s.selected).toBe(0);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    const again = await env.reset({ seed: 7 });
    expect((again.info.state as WoodBlocksVerifierState).pieces).toEqual(s.pieces);
    const names = new Set([JSON.stringify(s.pieces)]);
    for (let seed = 8; seed < 10; seed++) names.add(JSON.stringify(((await env.reset({ seed })).info.state as WoodBlocksVerifierState).pieces));
    expect(names.size).toBeGreaterThan(1);
  });

  it('moves the ghost, drops a piece for one point per block, and ignores a blocked drop', async () => {
    const env = await gym.env({ game: 'wood-blocks-3d', seed: 3, observation: 'state', maxSteps: 100 });
    const { info } = await env.reset({ seed: 3 });
    const s0 = info.state as WoodBlocksVerifierState;
    const p = s0.pieces[0]!;
    const rewards: number[] = [];
    let last!: WoodBlocksVerifierState;
    for (const a of pathTo(s0, 0, 0, 0)) {
      const r = await env.step(a);
      rewards.push(r.reward);
      last = r.info.state as WoodBlocksVerifierState;
    }
    expect(rewards.slice(0, -1).every((r) => r === 0)).toBe(true);
    expect(rewards[rewards.length - 1]).toBe(p.cells.length);
    for (const [c, r] of p.cells) expect(last.board[r][c]).toBe(1);
    expect(last.board.flat().reduce((x, y) => x + y, 0)).toBe(p.cells.length);
    expect(last.pieces[0]).toBeNull();
    expect(last.selected).toBe(1);
    expect(last.moves).toBe(1);
    // Walk piece 2 onto the blocks just placed: the drop is refused and changes nothing.
    const q = last.pieces[1]!;
    const overlap = !fits(last.board, q, 0, 0);
    if (overlap) {
      for (const a of pathTo(last, 1, 0, 0)) {
        const r = await env.step(a);
        expect(r.reward).toBe(0);
        last = r.info.state as WoodBlocksVerifierState;
      }
      expect(last.moves).toBe(1);
      expect(last.pieces[1]).not.toBeNull();
      expect(last.canPlace).toBe(false);
    }
    // Cursor moves stop at the board's edge.
    for (let i = 0; i < 10; i++) last = (await env.step(RIGHT)).info.state as WoodBlocksVerifierState;
    expect(last.cursor[0]).toBe(SIZE - last.pieces[last.selected]!.w);
    for (let i = 0; i < 10; i++) last = (await env.step(DOWN)).info.state as WoodBlocksVerifierState;
    expect(last.cursor[1]).toBe(SIZE - last.pieces[last.selected]!.h);
    void P2;
  });

  it('drops a tray piece dragged onto the board centred where it is let go; one that does not fit goes back', async () => {
    const { env, state: s0 } = await game.start<WoodBlocksVerifierState>(3, { observation: 'state' });
    const p = s0.pieces[2]!;
    // Over cell (5, 4) the piece is centred there, its corner kept on the board.
    const at = cornerForCell(5, 4, p.w, p.h);
    let r = await env.step(dropAction(2, 5, 4));
    const s = r.info.state as WoodBlocksVerifierState;
    expect(r.reward).toBe(p.cells.length);
    for (const [c, row] of p.cells) expect(s.board[at.row + row][at.col + c]).toBe(1);
    expect(s.pieces[2]).toBeNull();
    expect(s.moves).toBe(1);
    // Piece 1 dragged where it overlaps the blocks just placed: refused, and the selection and
    // ghost are as they were.
    const q = s.pieces[0]!;
    const misfit = Array.from({ length: SIZE * SIZE }, (_, i) => [i % SIZE, Math.floor(i / SIZE)]).find(([c, row]) => {
      const corner = cornerForCell(c, row, q.w, q.h);
      return !fits(s.board, q, corner.col, corner.row);
    })!;
    r = await env.step(dropAction(0, misfit[0], misfit[1]));
    expect(r.reward).toBe(0);
    expect(r.info.state).toEqual(s);
  });

  it('scores every drop as blocks + line points × combo, over a whole scripted episode', async () => {
    const env = await gym.env({ game: 'wood-blocks-3d', seed: 11, observation: 'state', maxSteps: 120 });
    const clears = await checkBlockDrops(env, 11, dropOf, linePoints);
    expect(clears).toBeGreaterThan(2);
  });

  it('ends the game when no offered piece fits, and then stays still', async () => {
    const { env, state: s0 } = await game.start<WoodBlocksVerifierState>(5, { observation: 'state', maxSteps: 600 });
    // A clumsy player: drop the largest piece that fits at the first chequered spot, avoiding clears.
    const s = await playUntilNoPieceFits(env, s0, 600, (s) => {
      let best: { piece: number; col: number; row: number; value: number } | null = null;
      s.pieces.forEach((p, i) => {
        if (!p) return;
        for (let row = 0; row + p.h <= SIZE; row++)
          for (let col = 0; col + p.w <= SIZE; col++) {
            if (!fits(s.board, p, col, row)) continue;
            const r = place(s.board, p, col, row, 1);
            const value = p.cells.length - 20 * (r.rows.length + r.cols.length) + ((col + row) % 3 === 0 ? 2 : 0);
            if (!best || value > best.value) best = { piece: i, col, row, value };
          }
      });
      if (!best) return [];
      const b = best as { piece: number; col: number; row: number };
      return pathTo(s, b.piece, b.col, b.row);
    });
    // After the end, keys change nothing (Space never restarts; only Enter does, for people).
    expect(await stateAfterKeys(env, ['ArrowLeft', '2', ' ', 'ArrowUp'])).toEqual(s);
  });

  game.framesChange('renders a non-blank 3D frame that changes when the ghost moves', { seed: 2, before: () => [UP], change: LEFT, distinct: 30, std: 12 });

  game.beatsRandom('the scripted agent clearly beats a random agent', { seeds: [1], atLeast: 80, above: (r) => 2 * r + 20 });
});
