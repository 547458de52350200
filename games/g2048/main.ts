import { createCanvas2d, drawStatBox, drawText, onDirectionInput, paintSprite, type StatBoxLook } from '../shared/canvas';
import { canMove, emptyCells, emptyGrid, maxTile, slide, type Dir, type Grid, type TileMove } from './logic';

/**
 * 2048 on a 4×4 board. A move updates the logical board at once (the verifier always sees
 * the settled state); the slide and pop that follow are only drawn, over SLIDE_MS + POP_MS
 * of performance.now() time. A move made while an animation still plays starts from the
 * settled board and replaces the animation, so input timing never changes the outcome.
 */

const SIZE = 4;
const WIDTH = 400;
const HEIGHT = 480;
const HEADER = 80;
const GAP = 12;
const CELL = (WIDTH - GAP * (SIZE + 1)) / SIZE;
const SLIDE_MS = 80;
const POP_MS = 60;

interface G2048State {
  size: number;
  grid: Grid;
  score: number;
  /** Moves that changed the board. */
  moves: number;
  maxTile: number;
  /** Reached 2048 (play goes on). */
  won: boolean;
  gameOver: boolean;
  /** Points scored by the last move. */
  lastGain: number;
}

interface Animation {
  start: number;
  tiles: TileMove[];
  merged: { r: number; c: number; value: number }[];
  spawned: { r: number; c: number; value: number } | null;
}

const { canvas, ctx, pixelRatio } = createCanvas2d('2048', WIDTH, HEIGHT);

function spawn(grid: Grid): { r: number; c: number; value: number } | null {
  const free = emptyCells(grid);
  if (free.length === 0) return null;
  const [r, c] = free[Math.floor(Math.random() * free.length)];
  const value = Math.random() < 0.9 ? 2 : 4;
  grid[r][c] = value;
  return { r, c, value };
}

function newGame(): G2048State {
  const grid = emptyGrid(SIZE);
  spawn(grid);
  spawn(grid);
  return { size: SIZE, grid, score: 0, moves: 0, maxTile: maxTile(grid), won: false, gameOver: false, lastGain: 0 };
}

const w = window as unknown as { g2048: G2048State };
w.g2048 = newGame();
let anim: Animation | null = null;
let dirty = true;

function move(dir: Dir): void {
  const s = w.g2048;
  if (s.gameOver) return;
  const r = slide(s.grid, dir);
  if (!r.moved) return;
  const grid = r.grid;
  const spawned = spawn(grid);
  s.grid = grid;
  s.score += r.gained;
  s.lastGain = r.gained;
  s.moves++;
  s.maxTile = maxTile(grid);
  if (s.maxTile >= 2048) s.won = true;
  if (!canMove(grid)) s.gameOver = true;
  anim = { start: performance.now(), tiles: r.tiles, merged: r.merged, spawned };
  dirty = true;
}

function restart(): void {
  w.g2048 = newGame();
  anim = null;
  dirty = true;
}

onDirectionInput(move, { isOver: () => w.g2048.gameOver, restart });
canvas.addEventListener('pointerdown', () => {
  if (w.g2048.gameOver) restart();
});

// ---- drawing ----

/** Tile colours by log2 of the value: cool greens and teals rising to warm ambers and reds. */
const TILE_COLORS = [
  '#cdd9c5',
  '#c3e0bd',
  '#9fd8b8',
  '#6cc9b4',
  '#45b3c0',
  '#3a8fd0',
  '#5b6fd6',
  '#8b5bd3',
  '#c04fc1',
  '#e0508f',
  '#f06a4f',
  '#f7a334',
  '#f5cf2f',
  '#b8e62c',
  '#4fe0a0',
  '#2cc6e0',
  '#ffffff',
];

function tileColor(v: number): string {
  const k = Math.max(1, Math.round(Math.log2(v)));
  return TILE_COLORS[Math.min(TILE_COLORS.length - 1, k - 1)];
}

const cellX = (c: number) => GAP + c * (CELL + GAP);
const cellY = (r: number) => HEADER + GAP + r * (CELL + GAP);

/** Each tile value is drawn once into an off-screen sprite; frames then only copy sprites. */
const sprites = new Map<number, HTMLCanvasElement>();

function tileSprite(value: number): HTMLCanvasElement {
  let sprite = sprites.get(value);
  if (sprite) return sprite;
  sprite = paintSprite(pixelRatio, CELL, CELL, (g) => {
    g.fillStyle = tileColor(value);
    g.beginPath();
    g.roundRect(0, 0, CELL, CELL, 8);
    g.fill();
    g.fillStyle = value <= 4 ? '#3b4a3a' : '#ffffff';
    const digits = String(value).length;
    const font = digits <= 2 ? 40 : digits === 3 ? 34 : digits === 4 ? 27 : 21;
    g.font = `bold ${font}px sans-serif`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(String(value), CELL / 2, CELL / 2 + 2);
  });
  sprites.set(value, sprite);
  return sprite;
}

let board: HTMLCanvasElement | null = null;

/** The empty board (background and cell wells), drawn once. */
function boardSprite(): HTMLCanvasElement {
  if (board) return board;
  board = paintSprite(pixelRatio, WIDTH, HEIGHT - HEADER, (g) => {
    g.fillStyle = '#2b3340';
    g.fillRect(0, 0, WIDTH, HEIGHT - HEADER);
    g.fillStyle = '#3a4452';
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        g.beginPath();
        g.roundRect(cellX(c), cellY(r) - HEADER, CELL, CELL, 8);
        g.fill();
      }
    }
  });
  return board;
}

function drawTile(x: number, y: number, value: number, scale: number): void {
  const size = CELL * scale;
  ctx.drawImage(tileSprite(value), x + (CELL - size) / 2, y + (CELL - size) / 2, size, size);
}

const STAT_BOX: StatBoxLook = {
  fill: '#2d3748',
  label: { color: '#a0aec0', font: 'bold 12px sans-serif' },
  value: { color: '#ffffff', font: 'bold 22px sans-serif', dy: 36 },
};

function drawHeader(s: G2048State): void {
  ctx.fillStyle = '#1d2430';
  ctx.fillRect(0, 0, WIDTH, HEADER);
  ctx.textBaseline = 'middle';
  drawText(ctx, '2048', 14, HEADER / 2, { color: '#f5cf2f', font: 'bold 44px sans-serif', align: 'left' });
  drawStatBox(ctx, { x: 160, y: 14, w: 110, h: 52 }, 'MOVES', String(s.moves), STAT_BOX);
  drawStatBox(ctx, { x: 280, y: 14, w: 110, h: 52 }, 'SCORE', String(s.score), STAT_BOX);
}

function draw(now: number): void {
  const s = w.g2048;
  const t = anim ? now - anim.start : Infinity;
  if (anim && t >= SLIDE_MS + POP_MS) {
    anim = null;
    dirty = true;
  }
  if (!dirty && !anim) return;
  dirty = false;
  drawHeader(s);
  ctx.drawImage(boardSprite(), 0, HEADER, WIDTH, HEIGHT - HEADER);
  if (anim && t < SLIDE_MS) {
    // Slide: every old tile glides from its cell to its destination.
    const p = t / SLIDE_MS;
    const e = 1 - (1 - p) * (1 - p);
    for (const m of anim.tiles) {
      const x = cellX(m.fromC) + (cellX(m.toC) - cellX(m.fromC)) * e;
      const y = cellY(m.fromR) + (cellY(m.toR) - cellY(m.fromR)) * e;
      drawTile(x, y, m.value, 1);
    }
  } else {
    // Settled board; merged tiles pop and the new tile grows in while the pop plays.
    const p = anim ? Math.min(1, (t - SLIDE_MS) / POP_MS) : 1;
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const v = s.grid[r][c];
        if (!v) continue;
        let scale = 1;
        if (anim) {
          if (anim.spawned && anim.spawned.r === r && anim.spawned.c === c) scale = 0.2 + 0.8 * p;
          else if (anim.merged.some((m) => m.r === r && m.c === c)) scale = 1 + 0.14 * Math.sin(Math.PI * p);
        }
        drawTile(cellX(c), cellY(r), v, scale);
      }
    }
  }
  if (s.gameOver && !anim) {
    ctx.fillStyle = 'rgba(20,24,32,0.7)';
    ctx.fillRect(0, HEADER, WIDTH, HEIGHT - HEADER);
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.font = 'bold 40px sans-serif';
    ctx.fillText('Game over', WIDTH / 2, HEADER + 170);
    ctx.font = '18px sans-serif';
    ctx.fillText(`Score ${s.score} · best tile ${s.maxTile}`, WIDTH / 2, HEADER + 215);
    ctx.fillText('Press Enter or tap to play again', WIDTH / 2, HEADER + 245);
  }
}

function frame(now: number): void {
  draw(now);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
