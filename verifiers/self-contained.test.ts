import * as keyLogic from '../games/free-the-key/logic';
import * as gem11Logic from '../games/gem-11/logic';
import * as hexLogic from '../games/hex-frvr/logic';
import * as shapeCells from '../games/shapes/cells';
import * as sokobanLogic from '../games/sokoban/logic';
import * as tetrisLogic from '../games/tetris/logic';
import * as woodLogic from '../games/wood-blocks-3d/logic';
import * as match3Logic from '../games/match3/logic';
import * as emojiSortLogic from '../games/emoji-sort/logic';
import { hasLooseEnd } from '../games/shared/turn-tiles';
import emojiSort from './emoji-sort';
import { joined } from './pipe-joints';
import { swapMakesLine } from './match3';
import { ROOT, VERIFIERS_DIR } from '../gym/paths';
import { SeededRandom } from '../gym/random/seeded-random';
import freeTheKey from './free-the-key';
import gem11 from './gem-11';
import hex, { anchorForCell as hexAnchorForCell } from './hex-frvr';
import shapes, { aimedAt as shapesAimedAt } from './shapes';
import sokoban from './sokoban';
import tetris from './tetris';
import woodBlocks, { cornerForCell as woodCornerForCell } from './wood-blocks-3d';
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Verifiers read page state and import no game code: a verifier's checksum (in every record)
 * must change only when the verifier does. Where one restates a rule of its game (piece
 * shapes, the spawn window, the moves an action mask rules out), it is checked here against
 * the game's own.
 */
const verifierFiles = readdirSync(VERIFIERS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'define.ts');
type Win = Parameters<typeof tetris.read>[0];

/** The action mask a verifier gives for a page whose globals are `globals`. */
function maskOf<S extends { score: number; gameOver: boolean }>(
  v: { read(win: Win): S | null; actionMask?(s: S): number[] },
  globals: Record<string, unknown>,
): number[] {
  const s = v.read(globals as unknown as Win);
  if (!s || !v.actionMask) throw new Error('no state or no action mask');
  return v.actionMask(s);
}

describe('verifiers', () => {
  it.each(verifierFiles)('%s bundles from verifiers/ alone', async (file) => {
    const entryPoints = [path.join(VERIFIERS_DIR, file)];
    const r = await build({ entryPoints, bundle: true, write: false, metafile: true, platform: 'browser', logLevel: 'silent', absWorkingDir: ROOT });
    const outside = Object.keys(r.metafile.inputs).filter((p) => !p.startsWith('verifiers/'));
    expect(outside, `${file} imports code from outside verifiers/`).toEqual([]);
  });

  it("tetris reports the cells the game's own rules give, for every piece and rotation", () => {
    for (const type of tetrisLogic.TYPES) {
      for (const rot of [0, 1, 2, 3, 5, -1]) {
        const piece = { type, rot, x: 3, y: -1 };
        const board = tetrisLogic.emptyBoard();
        const tetrisState = { cols: 10, rows: 20, board, piece, queue: ['I', 'O', 'T'], hold: null, holdUsed: false, score: 0, lines: 0, level: 1 };
        const win = { tetris: { ...tetrisState, pieces: 1, gravityMs: 800, ticks: 0, gameOver: false } };
        expect(tetris.read(win as unknown as Win)?.piece.cells, `${type} rot ${rot}`).toEqual(tetrisLogic.pieceCells(piece));
      }
    }
  });

  it("gem-11 reports the spawn window the game's own rule gives, for every best gem", () => {
    for (let bestGem = 0; bestGem <= 12; bestGem++) {
      const win = { gem11: { rows: 5, cols: 5, board: [[0]], next: 1, score: 0, bestGem, placed: 0, elevens: 0, gameOver: false } };
      const s = gem11.read(win as unknown as Win)!;
      expect([s.spawnMin, s.spawnMax], `best gem ${bestGem}`).toEqual(gem11Logic.spawnRange(bestGem));
    }
  });

  it("match3's action mask allows exactly the swaps the game's own rules accept, on boards from play", () => {
    const rng = new SeededRandom(3);
    const rand = () => rng.next();
    let board = match3Logic.newBoard(rand);
    let checked = 0;
    for (let move = 0; move < 60; move++) {
      const colours = board.map((row) => row.map(match3Logic.colourOf));
      const valid: [match3Logic.Cell, match3Logic.Cell][] = [];
      for (const [a, b] of match3Logic.neighbourPairs()) {
        const accepted = match3Logic.trySwap(board, a, b, null) !== null;
        expect(swapMakesLine(colours, a, b), `move ${move}: ${a} ↔ ${b}`).toBe(accepted);
        if (accepted) valid.push([a, b]);
        checked++;
      }
      const [a, b] = valid[Math.floor(rand() * valid.length)];
      board = match3Logic.trySwap(board, a, b, rand)!.board;
      if (!match3Logic.hasMove(board)) board = match3Logic.newBoard(rand);
    }
    expect(checked).toBe(60 * 112);
  });

  it("tetris masks exactly the shifts and turns the game's own rules refuse", () => {
    const rng = new SeededRandom(3);
    let refused = 0;
    for (let n = 0; n < 12; n++) {
      // A ragged stack of random height, so pieces meet walls, blocks and the floor.
      const board = tetrisLogic.emptyBoard();
      const top = 3 + Math.floor(rng.next() * 15);
      for (let y = top; y < tetrisLogic.ROWS; y++) for (let x = 0; x < tetrisLogic.COLS; x++) if (rng.next() < 0.5) board[y][x] = 1;
      for (const type of tetrisLogic.TYPES) {
        for (let rot = 0; rot < 4; rot++) {
          for (let x = -2; x < tetrisLogic.COLS; x++) {
            for (let y = -2; y < tetrisLogic.ROWS; y++) {
              const piece = { type, rot, x, y };
              if (!tetrisLogic.fits(board, piece)) continue;
              const tetrisState = { cols: 10, rows: 20, board, piece, queue: ['I', 'O', 'T'], hold: null, holdUsed: false, score: 0, lines: 0, level: 1 };
              const mask = maskOf(tetris, { tetris: { ...tetrisState, pieces: 1, gravityMs: 800, ticks: 0, gameOver: false } });
              const turned = tetrisLogic.rotatePiece(board, piece, 1);
              const expected = [
                tetrisLogic.fits(board, { ...piece, x: x - 1 }),
                tetrisLogic.fits(board, { ...piece, x: x + 1 }),
                turned !== null && (turned.rot !== rot || turned.x !== x || turned.y !== y),
                true,
                true,
                false,
                ...Array<boolean>(tetrisLogic.COLS).fill(true),
              ].map(Number);
              expect(mask, `${type} rot ${rot} at ${x},${y} on board ${n}`).toEqual(expected);
              refused += expected.filter((e) => !e).length - 1;
            }
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it("sokoban's mask allows exactly the drags the game's own rules push a box with", () => {
    const rng = new SeededRandom(5);
    const { FRAME, PUSH_CELLS } = sokobanLogic;
    let allowed = 0;
    for (let n = 1; n <= 8; n++) {
      const level = sokobanLogic.generateLevel(n, () => rng.next());
      const [ox, oy] = sokobanLogic.frameOffset(level.w, level.h);
      const boxes = level.boxes.slice();
      let player = level.player;
      for (const [k, d] of level.solution.entries()) {
        const globals = {
          ...level,
          boxes,
          player,
          level: n,
          scored: boxes.map(() => false),
          moves: k,
          pushes: 0,
          moveLimit: 999,
          lives: 3,
          score: 0,
          solved: 0,
        };
        const mask = maskOf(sokoban, { sokoban: { ...globals, gameOver: false, lastLoss: '', restarts: 0 } });
        const expected: number[] = [];
        for (let fy = 1; fy < FRAME - 1; fy++) {
          for (let fx = 1; fx < FRAME - 1; fx++) {
            const x = fx - ox;
            const y = fy - oy;
            const inside = x >= 0 && y >= 0 && x < level.w && y < level.h;
            for (const dir of [0, 1, 2, 3] as const) {
              expected.push(inside && sokobanLogic.pushMoves(level.walls, level.w, boxes, player, y * level.w + x, dir) ? 1 : 0);
            }
          }
        }
        expected.push(1);
        expect(mask, `level ${n}, move ${k}`).toEqual(expected);
        expect(mask).toHaveLength(PUSH_CELLS * PUSH_CELLS * 4 + 1);
        allowed += expected.reduce((a, b) => a + b, 0) - 1;
        const to = sokobanLogic.step(level.w, player, d);
        const bi = boxes.indexOf(to);
        if (bi >= 0) {
          // The solution's push is one the mask allows.
          expect(mask[sokobanLogic.pushAction((to % level.w) + ox, Math.floor(to / level.w) + oy, d)], `level ${n}, move ${k}: the solution's push`).toBe(1);
          boxes[bi] = sokobanLogic.step(level.w, to, d);
        }
        player = to;
      }
    }
    expect(allowed).toBeGreaterThan(100);
  });

  it("free-the-key masks exactly the slides the game's own rules refuse", () => {
    const rng = new SeededRandom(7);
    for (let n = 1; n <= 4; n++) {
      const { blocks, pos, optimal } = keyLogic.generatePuzzle(n, () => rng.next());
      for (let k = 0; k < 30; k++) {
        const occ = keyLogic.occupancy(blocks, pos);
        for (let selected = 0; selected < blocks.length; selected++) {
          const game = { level: n, blocks, pos, selected, moves: 0, moveLimit: 99, optimal, score: 0, solved: 0, totalMoves: 0, gameOver: false };
          const slides = (horiz: boolean, delta: -1 | 1) => blocks[selected].horiz === horiz && keyLogic.canSlide(blocks, pos, occ, selected, delta);
          const expected = [true, true, slides(false, -1), slides(false, 1), slides(true, -1), slides(true, 1)].map(Number);
          expect(maskOf(freeTheKey, { freeTheKey: game }), `puzzle ${n}, step ${k}, block ${selected}`).toEqual(expected);
        }
        const moves = keyLogic.legalMoves(blocks, pos);
        const [bi, delta] = moves[Math.floor(rng.next() * moves.length)];
        pos[bi] += delta;
      }
    }
  });

  it("hex-frvr masks exactly the ghost moves the game's own rules refuse, for every piece and cell", () => {
    const dirs: hexLogic.DirName[] = ['NW', 'NE', 'W', 'E', 'SW', 'SE'];
    for (const def of hexLogic.CATALOGUE) {
      const piece = { name: def.name, cells: def.cells, fits: true };
      for (const [q, r] of hexLogic.CELLS) {
        if (!hexLogic.inside(piece, q, r)) continue;
        const tallies = { selected: 0, score: 0, level: 1, lines: 0, combo: 0, moves: 0, sets: 1, gameOver: false };
        const game = { ...tallies, radius: 4, cells: hexLogic.CELLS, board: hexLogic.emptyBoard(), cursor: [q, r], pieces: [piece, null, piece] };
        const moved = dirs.map((d) => {
          const [nq, nr] = hexLogic.stepCursor(piece, q, r, d);
          return nq !== q || nr !== r ? 1 : 0;
        });
        expect(maskOf(hex, { hex: game }).slice(0, hexLogic.FIRST_DROP), `${def.name} at ${q},${r}`).toEqual([0, 0, 1, ...moved, 1]);
      }
    }
  });

  it("hex-frvr allows a drag exactly where the game's own rules drop the piece", () => {
    const rng = new SeededRandom(19);
    let allowed = 0;
    for (let board = 0; board < 40; board++) {
      const cells = hexLogic.CELLS.map(() => (rng.next() < 0.4 ? 1 : 0));
      const pieces = [0, 1, 2].map(() => {
        if (rng.next() < 0.2) return null;
        const def = hexLogic.CATALOGUE[Math.floor(rng.next() * hexLogic.CATALOGUE.length)];
        return { name: def.name, cells: def.cells, fits: hexLogic.fitsAnywhere(cells, def) };
      });
      const selected = Math.max(0, pieces.findIndex(Boolean));
      const tallies = { selected, score: 0, level: 1, lines: 0, combo: 0, moves: 0, sets: 1, gameOver: false };
      const mask = maskOf(hex, { hex: { ...tallies, radius: 4, cells: hexLogic.CELLS, board: cells, cursor: [0, 0], pieces } });
      expect(mask).toHaveLength(hexLogic.dropAction(2, hexLogic.CELLS.length - 1) + 1);
      pieces.forEach((p, k) => {
        hexLogic.CELLS.forEach(([q, r], i) => {
          const at = p && hexLogic.anchorForCell(p, q, r);
          if (p && at) expect(hexAnchorForCell({ radius: 4, cells: hexLogic.CELLS }, p.cells, q, r)).toEqual(at);
          const expected = p && at && hexLogic.fits(cells, p, at[0], at[1]) ? 1 : 0;
          expect(mask[hexLogic.dropAction(k, i)], `board ${board}, slot ${k}, cell ${q},${r}`).toBe(expected);
          allowed += expected;
        });
      });
    }
    expect(allowed).toBeGreaterThan(200);
  });

  it("emoji-sort masks exactly the drags the game's own pour rule refuses, on levels from play", () => {
    const rng = new SeededRandom(17);
    for (let level = 1; level <= 4; level++) {
      let { tubes } = emojiSortLogic.generateLevel(level, () => rng.next());
      for (let move = 0; move < 12; move++) {
        const globals = { level, kinds: 4, tubes, selected: -1, moves: 0, moveLimit: 30, par: 10, completed: [], score: 0, solved: 0, gameOver: false };
        const want: number[] = [];
        for (let a = 0; a < emojiSortLogic.TUBES; a++)
          for (let b = 0; b < emojiSortLogic.TUBES; b++) if (a !== b) want.push(emojiSortLogic.canMove(tubes, a, b) ? 1 : 0);
        expect(maskOf(emojiSort, { emojiSort: globals }), `level ${level}, move ${move}`).toEqual(want);
        const legal = emojiSortLogic.legalMoves(tubes);
        if (!legal.length) break;
        const [a, b] = legal[Math.floor(rng.next() * legal.length)];
        tubes = emojiSortLogic.applyMove(tubes, a, b).tubes;
      }
    }
  });

  it("the pipe puzzles' joints leave an opening unjoined exactly where the game's own rule sees a loose end", () => {
    const rng = new SeededRandom(23);
    for (let board = 0; board < 50; board++) {
      const tiles = Array.from({ length: 36 }, () => Math.floor(rng.next() * 16));
      for (let i = 0; i < 36; i++) {
        const joints = joined(tiles, 6, 6, i);
        const loose = [0, 1, 2, 3].some((d) => tiles[i] & (1 << d) && !joints[d]);
        expect(loose, `board ${board}, cell ${i}`).toBe(hasLooseEnd(tiles, 6, 6, i));
        // A joint is an opening of this cell, seen the same from the neighbour's side.
        joints.forEach((j, d) => {
          if (j) expect(tiles[i] & (1 << d), `board ${board}, cell ${i}, side ${d}`).not.toBe(0);
        });
        if (i % 6 < 5) expect(joints[1], `board ${board}, cells ${i} and ${i + 1}`).toBe(joined(tiles, 6, 6, i + 1)[3]);
        if (i < 30) expect(joints[2], `board ${board}, cells ${i} and ${i + 6}`).toBe(joined(tiles, 6, 6, i + 6)[0]);
      }
    }
  });

  it("shapes masks a tap on the selected piece exactly where the game's own turn leaves it as it is", () => {
    const rows = (...lines: string[]) => lines.flatMap((l, y) => [...l].flatMap((ch, x) => (ch === '#' ? [[x, y] as [number, number]] : [])));
    const shapesSeen = [
      rows('##', '##'),
      rows('.#.', '###', '.#.'),
      rows('###'),
      rows('##.', '.##'),
      rows('#..', '###'),
      rows('###', '.#.'),
      rows('#.', '##', '.#'),
    ];
    let symmetric = 0;
    for (const base of shapesSeen) {
      let cells = base;
      for (let turn = 0; turn < 4; turn++) {
        cells = shapeCells.rotateCells(cells);
        const outline = new Array(64).fill(1);
        const level = { level: 1, score: 0, moves: 0, moveLimit: 9, solvedLevels: 0, gameOver: false };
        const pieces = [{ cells, placed: false, at: null }];
        const game = {
          ...level,
          cols: 8,
          rows: 8,
          outline,
          filled: new Array(64).fill(0),
          pieces,
          active: 0,
          cursor: { x: 0, y: 0 },
          board: { x0: 0, y0: 0, cell: 1 },
        };
        const same = JSON.stringify(shapeCells.rotateCells(cells)) === JSON.stringify(cells);
        symmetric += same ? 1 : 0;
        expect(maskOf(shapes, { shapes: game })[shapeCells.FIRST_TAP], JSON.stringify(cells)).toBe(same ? 0 : 1);
      }
    }
    expect(symmetric).toBe(8);
  });
  it('shapes allows a drop exactly where the game puts the piece whole on empty outline cells', () => {
    const rng = new SeededRandom(11);
    const rows = (...lines: string[]) => lines.flatMap((l, y) => [...l].flatMap((ch, x) => (ch === '#' ? [[x, y] as [number, number]] : [])));
    const bases = [rows('##', '##'), rows('.#.', '###', '.#.'), rows('#####'), rows('##.', '.##'), rows('#..', '###'), rows('###', '.#.')];
    let allowed = 0;
    for (let board = 0; board < 40; board++) {
      const outline = Array.from({ length: 64 }, () => (rng.next() < 0.6 ? 1 : 0));
      const filled = outline.map((o) => (o && rng.next() < 0.2 ? 1 : 0));
      const pieces = bases.map((base) => {
        let cells = base;
        for (let t = Math.floor(rng.next() * 4); t > 0; t--) cells = shapeCells.rotateCells(cells);
        return { cells, placed: rng.next() < 0.2, at: null };
      });
      const game = {
        ...{ level: 1, score: 0, moves: 0, moveLimit: 9, solvedLevels: 0, gameOver: false },
        ...{ cols: 8, rows: 8, outline, filled, pieces, active: 0, cursor: { x: 0, y: 0 }, board: { x0: 0, y0: 0, cell: 1 } },
      };
      const mask = maskOf(shapes, { shapes: game });
      expect(mask).toHaveLength(shapeCells.LIFT + 1);
      expect(mask[shapeCells.LIFT]).toBe(pieces.some((p) => p.placed) ? 1 : 0);
      pieces.forEach((p, k) => {
        for (let y = 0; y < 8; y++) {
          for (let x = 0; x < 8; x++) {
            const at = shapeCells.aimedAt(p.cells, x, y, 8, 8);
            expect(shapesAimedAt(p.cells, x, y, 8, 8)).toEqual(at);
            const fits = p.cells.every(([cx, cy]) => outline[(at[1] + cy) * 8 + at[0] + cx] === 1 && filled[(at[1] + cy) * 8 + at[0] + cx] === 0);
            expect(mask[shapeCells.dropAction(k, x, y)], `board ${board}, piece ${k}, cell ${x},${y}`).toBe(!p.placed && fits ? 1 : 0);
            allowed += mask[shapeCells.dropAction(k, x, y)];
          }
        }
        // A tap turns a piece and selects it: the square (piece 0, selected) stays as it is.
        const symmetric = JSON.stringify(shapeCells.rotateCells(p.cells)) === JSON.stringify(p.cells);
        expect(mask[shapeCells.FIRST_TAP + k], `board ${board}, tap ${k}`).toBe(p.placed || (k === game.active && symmetric) ? 0 : 1);
      });
    }
    expect(allowed).toBeGreaterThan(100);
  });
  it("wood-blocks-3d allows a drag exactly where the game's own rules drop the piece", () => {
    const rng = new SeededRandom(13);
    let allowed = 0;
    for (let board = 0; board < 40; board++) {
      const cells = Array.from({ length: 8 }, () => Array.from({ length: 8 }, () => (rng.next() < 0.45 ? 1 : 0)));
      const pieces = [0, 1, 2].map(() => {
        if (rng.next() < 0.2) return null;
        const def = woodLogic.CATALOGUE[Math.floor(rng.next() * woodLogic.CATALOGUE.length)];
        return { ...def, fits: woodLogic.fitsAnywhere(cells, def) };
      });
      const globals = { size: 8, board: cells, pieces, selected: pieces.findIndex((p) => p), cursor: { col: 0, row: 0 } };
      const tallies = { score: 0, level: 1, lines: 0, combo: 0, moves: 0, sets: 1, gameOver: false };
      const mask = maskOf(woodBlocks, { woodBlocks: { ...globals, ...tallies } });
      expect(mask).toHaveLength(woodLogic.dropAction(2, 7, 7) + 1);
      pieces.forEach((p, k) => {
        for (let row = 0; row < 8; row++) {
          for (let col = 0; col < 8; col++) {
            const at = p && woodLogic.cornerForCell(col, row, p.w, p.h);
            if (p && at) expect(woodCornerForCell(col, row, p.w, p.h)).toEqual([at.col, at.row]);
            const expected = p && at && woodLogic.fits(cells, p, at.col, at.row) ? 1 : 0;
            expect(mask[woodLogic.dropAction(k, col, row)], `board ${board}, slot ${k}, cell ${col},${row}`).toBe(expected);
            allowed += expected;
          }
        }
      });
    }
    expect(allowed).toBeGreaterThan(200);
  });
});
