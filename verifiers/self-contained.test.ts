import * as gem11Logic from '../games/gem-11/logic';
import * as tetrisLogic from '../games/tetris/logic';
import * as match3Logic from '../games/match3/logic';
import { swapMakesLine } from './match3';
import { SeededRandom } from '../gym/random';
import { ROOT, VERIFIERS_DIR } from '../gym/paths';
import gem11 from './gem-11';
import tetris from './tetris';
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Verifiers read page state and import no game code: a verifier's checksum (in every record)
 * must change only when the verifier does. Where one restates a rule of its game (piece
 * shapes, the spawn window), it is checked here against the game's own.
 */
const verifierFiles = readdirSync(VERIFIERS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'define.ts');
type Win = Parameters<typeof tetris.read>[0];

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
});
