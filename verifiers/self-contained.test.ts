import * as keyLogic from '../games/free-the-key/logic';
import * as gem11Logic from '../games/gem-11/logic';
import { rotateCells } from '../games/shapes/cells';
import * as tetrisLogic from '../games/tetris/logic';
import { ROOT, VERIFIERS_DIR } from '../gym/paths';
import { SeededRandom } from '../gym/random/seeded-random';
import freeTheKey from './free-the-key';
import gem11 from './gem-11';
import shapes from './shapes';
import tetris from './tetris';
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

  it("shapes masks a turn exactly where the game's own turn leaves the piece as it is", () => {
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
        cells = rotateCells(cells);
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
        const same = JSON.stringify(rotateCells(cells)) === JSON.stringify(cells);
        symmetric += same ? 1 : 0;
        expect(maskOf(shapes, { shapes: game })[5], JSON.stringify(cells)).toBe(same ? 0 : 1);
      }
    }
    expect(symmetric).toBe(8);
  });
});
