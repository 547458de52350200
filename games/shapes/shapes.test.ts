import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import type { GuiAction } from '../../gym/schema';
import { gameTests } from '../shared/testing/game-tests';
import type { ShapesVerifierState as S } from '../../verifiers/shapes';
import { aimedAt, rotateCells } from './cells';
import { planShapes } from './scripted-agent';

// The keys are for people (the preset drags and taps); each is one step all the same.
const press = (key: string): GuiAction => ({ type: 'key', key });
const [NEXT, UP, DOWN, LEFT, RIGHT, ROTATE, PLACE] = ['n', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'r', ' '].map(press);
const [LIFT] = presetIndices('shapes', ['lift last piece']);
const gym = useBrowser();
const game = gameTests(gym, 'shapes');
const key = (cells: [number, number][]) => cells.map((c) => c.join(',')).join(';');

describe('shapes', () => {
  it('moves, turns and places pieces; scores 1 per newly filled cell and 10 for a full outline', async () => {
    const { env, observation, state: s0 } = await game.start<S>(41, { observation: ['state', 'vector'], maxSteps: 300 });
    let s = s0;
    expect(observation.vector).toHaveLength(128 + 6 * (1 + 25) + 2);
    expect(s.pieces).toHaveLength(2);
    const outlineCells = s.outline.filter((o) => o).length;
    expect(outlineCells).toBe(s.pieces.reduce((t, p) => t + p.cells.length, 0));
    // Arrow keys move the hovering piece by one cell; the board edge stops it.
    let r = await env.step(LEFT);
    const moved = r.info.state as S;
    expect(moved.cursor[0]).toBe(Math.max(0, s.cursor[0] - 1));
    s = moved;
    const plan = planShapes(s)!;
    expect(plan).not.toBeNull();
    const rewards: number[] = [];
    let steps = 0;
    let placedCells = 0;
    while (s.level === 1 && steps++ < 200) {
      const mine = plan.find((p) => p.piece === s.active)!;
      let a: GuiAction;
      if (key(s.pieces[s.active].cells) !== key(mine.cells)) a = ROTATE;
      else if (s.cursor[0] !== mine.x) a = s.cursor[0] < mine.x ? RIGHT : LEFT;
      else if (s.cursor[1] !== mine.y) a = s.cursor[1] < mine.y ? DOWN : UP;
      else a = PLACE;
      const size = s.pieces[s.active].cells.length;
      r = await env.step(a);
      rewards.push(r.reward);
      const next = r.info.state as S;
      if (a === PLACE) {
        placedCells += size;
        expect(r.reward).toBe(size + (placedCells === outlineCells ? 10 : 0));
      } else {
        expect(r.reward).toBe(0);
        expect(next.movesLeft).toBe(s.movesLeft);
      }
      s = next;
    }
    expect(s.level).toBe(2);
    expect(s.score).toBe(outlineCells + 10);
    expect(rewards.reduce((t, v) => t + v, 0)).toBe(outlineCells + 10);
  });

  it('refuses pieces that do not fit, scores refilled cells once, and ends when moves run out', async () => {
    const { env, state: s0 } = await game.start<S>(42, { observation: 'state', maxSteps: 300 });
    let s = s0;
    // Walk the piece to the far corner, off the outline: placing there is refused for free.
    let r;
    for (let k = 0; k < 8; k++) r = await env.step(DOWN);
    for (let k = 0; k < 8; k++) r = await env.step(RIGHT);
    s = r!.info.state as S;
    const size = s.pieces[s.active].cells.length;
    const fits = s.pieces[s.active].cells.every(([x, y]) => s.outline[(s.cursor[1] + y) * 8 + s.cursor[0] + x] === 1);
    expect(fits).toBe(false);
    r = await env.step(PLACE);
    expect(r.reward).toBe(0);
    expect((r.info.state as S).movesLeft).toBe(s.movesLeft);
    expect((r.info.state as S).filled.every((f) => f === 0)).toBe(true);
    // Place the first piece where the plan puts it, lift it, place it again.
    const plan = planShapes(s)!;
    const mine = plan.find((p) => p.piece === s.active)!;
    for (let k = 0; k < 4 && key(s.pieces[s.active].cells) !== key(mine.cells); k++) s = (await env.step(ROTATE)).info.state as S;
    while (s.cursor[0] !== mine.x) s = (await env.step(s.cursor[0] < mine.x ? RIGHT : LEFT)).info.state as S;
    while (s.cursor[1] !== mine.y) s = (await env.step(s.cursor[1] < mine.y ? DOWN : UP)).info.state as S;
    r = await env.step(PLACE);
    expect(r.reward).toBe(size);
    const limit = (r.info.state as S).moveLimit;
    let used = 1;
    let last = r;
    while (!last.terminated) {
      last = await env.step(used % 2 === 1 ? LIFT : PLACE);
      used++;
      expect(last.reward).toBe(0);
      expect((last.info.state as S).movesLeft).toBe(limit - used);
    }
    expect(used).toBe(limit);
    expect((last.info.state as S).gameOver).toBe(true);
  });

  it('plays with the pointer: tap a tray piece to turn it, drag it onto the outline', async () => {
    const { env, state: s0 } = await game.start<S>(43, { observation: 'state' });
    let s = s0;
    const plan = planShapes(s)!;
    // The tray's slots are 76 px wide from x=12, between y=336 and y=468.
    const slot = (k: number): [number, number] => [12 + 76 * k + 36, 402];
    const target = plan.find((p) => p.piece === s.pieces.length - 1)!;
    expect(s.active).not.toBe(target.piece);
    let r;
    // Each tap turns the piece a quarter clockwise, the first one selecting it too: four taps
    // bring it back as it was, then it turns as the plan has it.
    const dealt = s.pieces[target.piece].cells;
    for (let k = 0; k < 8 && (k < 4 || key(s.pieces[target.piece].cells) !== key(target.cells)); k++) {
      const before = s.pieces[target.piece].cells;
      r = await env.step({ type: 'click', x: slot(target.piece)[0], y: slot(target.piece)[1] });
      s = r.info.state as S;
      expect(s.active).toBe(target.piece);
      expect(s.pieces[target.piece].cells).toEqual(rotateCells(before));
      if (k === 3) expect(s.pieces[target.piece].cells).toEqual(dealt);
      expect(r.reward).toBe(0);
    }
    expect(key(s.pieces[target.piece].cells)).toBe(key(target.cells));
    // A piece dropped where it does not fit goes back to the tray, and the selection and cursor
    // with it: another piece dragged where it does not fit changes nothing.
    const other = plan.find((p) => p.piece !== target.piece)!.piece;
    const misfit = Array.from({ length: 64 }, (_, i) => i).find((i) => {
      const [x, y] = aimedAt(s.pieces[other].cells, i % 8, Math.floor(i / 8), 8, 8);
      return s.pieces[other].cells.some(([cx, cy]) => s.outline[(y + cy) * 8 + x + cx] === 0);
    })!;
    r = await env.step({
      type: 'drag',
      from: slot(other),
      to: [s.board.x0 + s.board.cell * ((misfit % 8) + 0.5), s.board.y0 + s.board.cell * (Math.floor(misfit / 8) + 0.5)],
    });
    expect(r.reward).toBe(0);
    expect(r.info.state).toEqual(s);
    // Dropping puts the piece's middle cell under the pointer.
    const pw = Math.max(...target.cells.map((c) => c[0])) + 1;
    const ph = Math.max(...target.cells.map((c) => c[1])) + 1;
    const cx = target.x + Math.floor((pw - 1) / 2);
    const cy = target.y + Math.floor((ph - 1) / 2);
    r = await env.step({ type: 'drag', from: slot(target.piece), to: [s.board.x0 + s.board.cell * (cx + 0.5), s.board.y0 + s.board.cell * (cy + 0.5)] });
    s = r.info.state as S;
    expect(r.reward).toBe(target.cells.length);
    expect(s.pieces[target.piece].placed).toBe(true);
    expect(s.pieces[target.piece].at).toEqual([target.x, target.y]);
    // Tapping the placed piece lifts it back into the tray (a move, no score).
    const [fx, fy] = target.cells[0];
    r = await env.step({ type: 'click', x: s.board.x0 + s.board.cell * (target.x + fx + 0.5), y: s.board.y0 + s.board.cell * (target.y + fy + 0.5) });
    const lifted = r.info.state as S;
    expect(r.reward).toBe(0);
    expect(lifted.pieces[target.piece].placed).toBe(false);
    expect(lifted.movesLeft).toBe(s.movesLeft - 1);
  });

  game.framesChange('renders a real frame that changes when the piece moves', { seed: 2, before: () => [NEXT], change: ROTATE, distinct: 8, std: 5 });

  game.beatsRandom('the scripted solver beats a random player', { seeds: [3], maxSteps: 60, atLeast: 40, above: (r) => r + 25 });
});
