import { createCanvas2d } from '../shared/canvas';
import { LevelPuzzle, drawGridLevelTop, type GridLevel, type GridLevelLook } from '../shared/level-puzzle';
import { TurnClock, hasLooseEnd, popcount, rot, rotationsBetween, scramble, turnTileAt } from '../shared/turn-tiles';
import { DX, DY, GRID_PUZZLE, drawGridBoard } from '../shared/grid-board';

/**
 * Infinity Loop: pipe tiles (end caps, lines, corners, Ts and crosses) sit on a 6×6 grid,
 * each turned the wrong way. Tapping a tile turns it 90° clockwise. A level is solved when
 * every opening meets an opening of its neighbour, so all lines close up. Levels are drawn
 * from a random set of grid edges (a solution exists by construction), then every tile is
 * spun. Each level has a move limit; running out ends the game.
 */

const { size: GRID, cell: CELL, x0: X0, y0: Y0, width: W, height: H } = GRID_PUZZLE;
const BANNER_MS = 700;

interface LoopState extends GridLevel {
  /** Opening bitmask per cell, row-major; 0 = empty. */
  tiles: number[];
  /** The part of the grid the level uses (cells outside it stay empty). */
  region: { x: number; y: number; w: number; h: number };
  /** Edges (between two cells) that have been matched at least once this level, by key. */
  matchedEver: Record<string, true>;
  matchedNow: number;
  totalEdges: number;
}

const { canvas, ctx } = createCanvas2d('Infinity Loop', W, H);
const w = window as unknown as { infinityLoop: LoopState };

function regionSize(level: number): [number, number] {
  const sizes: [number, number][] = [
    [4, 4],
    [5, 4],
    [5, 5],
    [6, 5],
  ];
  return sizes[level - 1] ?? [6, 6];
}

function newLevel(level: number, score: number): LoopState {
  const [rw, rh] = regionSize(level);
  const rx = Math.floor(Math.random() * (GRID - rw + 1));
  const ry = Math.floor(Math.random() * (GRID - rh + 1));
  const p = Math.min(0.72, 0.5 + 0.03 * (level - 1));
  let solution: number[] = [];
  // A random set of edges inside the region; reject layouts with too few tiles.
  for (let attempt = 0; attempt < 50; attempt++) {
    solution = new Array(GRID * GRID).fill(0);
    for (let y = ry; y < ry + rh; y++) {
      for (let x = rx; x < rx + rw; x++) {
        const i = y * GRID + x;
        if (x + 1 < rx + rw && Math.random() < p) {
          solution[i] |= 2;
          solution[i + 1] |= 8;
        }
        if (y + 1 < ry + rh && Math.random() < p) {
          solution[i] |= 4;
          solution[i + GRID] |= 1;
        }
      }
    }
    const tiles = solution.filter((m) => m !== 0).length;
    if (tiles >= Math.floor(rw * rh * 0.75)) break;
  }
  const tiles = solution.slice();
  let par = 0;
  scramble(tiles);
  // Never hand out a level that is already solved.
  if (isSolved(tiles)) {
    const i = tiles.findIndex((m) => m !== 0 && m !== 15 && m !== 5 && m !== 10);
    const j = i >= 0 ? i : tiles.findIndex((m) => m === 5 || m === 10);
    if (j >= 0) tiles[j] = rot(tiles[j]);
  }
  for (let i = 0; i < tiles.length; i++) par += rotationsBetween(tiles[i], solution[i]);
  let totalEdges = 0;
  for (const m of solution) totalEdges += popcount(m);
  const slack = 6 + Math.ceil(par * Math.max(0.3, 0.9 - 0.1 * (level - 1)));
  const s: LoopState = {
    cols: GRID,
    rows: GRID,
    tiles,
    region: { x: rx, y: ry, w: rw, h: rh },
    grid: { x0: X0, y0: Y0, cell: CELL },
    level,
    score,
    moves: 0,
    moveLimit: par + slack,
    par,
    matchedEver: {},
    matchedNow: 0,
    totalEdges: totalEdges / 2,
    solvedLevels: level - 1,
    gameOver: false,
    lastSolvedAt: -1e9,
  };
  s.matchedNow = scanMatches(s, false);
  return s;
}

/** True if every opening meets an opening of its neighbour. */
function isSolved(tiles: number[]): boolean {
  return tiles.every((_, i) => !hasLooseEnd(tiles, GRID, GRID, i));
}

/** Counts matched edges; with `award`, scores edges matched for the first time this level. */
function scanMatches(s: LoopState, award: boolean): number {
  let n = 0;
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const i = y * GRID + x;
      const m = s.tiles[i];
      // East and south neighbours only, so each edge is seen once.
      if (x + 1 < GRID && m & 2 && s.tiles[i + 1] & 8) {
        n++;
        const key = `${i}e`;
        if (!s.matchedEver[key]) {
          s.matchedEver[key] = true;
          if (award) s.score += 1;
        }
      }
      if (y + 1 < GRID && m & 4 && s.tiles[i + GRID] & 1) {
        n++;
        const key = `${i}s`;
        if (!s.matchedEver[key]) {
          s.matchedEver[key] = true;
          if (award) s.score += 1;
        }
      }
    }
  }
  return n;
}

// Edges already matched by the scramble do not score.
const puzzle = new LevelPuzzle('infinityLoop', newLevel, BANNER_MS);
const turns = new TurnClock(GRID * GRID);

function tap(cx: number, cy: number): void {
  const s = w.infinityLoop;
  const now = turnTileAt(s, GRID, cx, cy, puzzle, turns);
  if (now === null) return;
  s.matchedNow = scanMatches(s, true);
  if (puzzle.endMove(s, isSolved(s.tiles), s.score + 10 * s.level, now)) turns.reset();
}

// Taps, or on a keyboard: arrows move a cursor, Space or R acts on its tile, Enter restarts.
const cursor = puzzle.bindGrid({ canvas, width: W, height: H }, GRID_PUZZLE, ['r', 'R'], tap);

function drawTile(m: number, cx: number, cy: number, angle: number, color: string): void {
  ctx.save();
  ctx.translate(cx, cy);
  ctx.rotate(angle);
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineCap = 'round';
  ctx.lineWidth = 13;
  const r = CELL / 2;
  ctx.beginPath();
  for (let d = 0; d < 4; d++) {
    if (!(m & (1 << d))) continue;
    ctx.moveTo(0, 0);
    ctx.lineTo(DX[d] * r, DY[d] * r);
  }
  ctx.stroke();
  const deg = popcount(m);
  if (deg === 1) {
    ctx.beginPath();
    ctx.arc(0, 0, 14, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#0f1424';
    ctx.beginPath();
    ctx.arc(0, 0, 6, 0, Math.PI * 2);
    ctx.fill();
  } else if (deg >= 3) {
    ctx.beginPath();
    ctx.arc(0, 0, 9, 0, Math.PI * 2);
    ctx.fill();
  } else if (m === 3 || m === 6 || m === 12 || m === 9) {
    ctx.beginPath();
    ctx.arc(0, 0, 6.5, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** The cursor, the moves bar and the level's end (drawGridLevelTop). */
const LOOK: GridLevelLook = {
  cursor: '#fbbf24',
  bar: { color: '#e2e8f0', warnAt: 5 },
  banner: { text: 'Loop closed!', color: '#7dd3fc', font: 'bold 40px sans-serif', durationMs: BANNER_MS },
  over: { shade: 'rgba(5,8,16,0.72)', title: 'Out of moves' },
};

function draw(now: number): void {
  const s = w.infinityLoop;
  ctx.fillStyle = '#0f1424';
  ctx.fillRect(0, 0, W, H);
  drawGridBoard(ctx, GRID_PUZZLE, { frame: '#161d33', lines: '#222c4a', region: { ...s.region, fill: '#1c2540' } });
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const m = s.tiles[y * GRID + x];
      if (!m) continue;
      const angle = turns.angle(y * GRID + x, now);
      const ok = !hasLooseEnd(s.tiles, GRID, GRID, y * GRID + x);
      drawTile(m, X0 + x * CELL + CELL / 2, Y0 + y * CELL + CELL / 2, angle, ok ? '#7dd3fc' : '#8b93b0');
    }
  }
  drawGridLevelTop(ctx, cursor, s, now, LOOK, { left: `Level ${s.level}`, center: `Score ${s.score}`, centerX: W / 2 });
}

puzzle.start(draw);
