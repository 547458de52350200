import { createCanvas2d, onGameKeys, onPointerRelease } from '../shared/canvas';
import {
  COLS,
  ROWS,
  LINE_POINTS,
  LINES_PER_LEVEL,
  TYPES,
  dropRow,
  emptyBoard,
  fits,
  gravityMsForLevel,
  lockPiece,
  pieceCells,
  placementColumn,
  rotatePiece,
  shapeOf,
  spawnPiece,
  type Piece,
  type PieceType,
} from './logic';

/**
 * Falling blocks in a 10×20 well. Pieces come from a shuffled bag of all seven shapes; gravity
 * pulls the active piece down one row per tick on a setTimeout chain that speeds up every ten
 * cleared lines. A piece locks when gravity (or a soft drop) finds it resting on something;
 * the game ends when the next piece has no room to appear.
 */

const CELL = 20;
const WELL_X = 20;
const WELL_Y = 20;
const PANEL_X = WELL_X + COLS * CELL + 20;
const W = 360;
const H = 440;
const PREVIEW = 3;

const COLORS = ['#35d0e8', '#f4d03f', '#a569bd', '#58d68d', '#ec7063', '#5d8aeb', '#f0a04b'];
const LIGHT = ['#8ce8f5', '#f9e79f', '#d2b4de', '#abebc6', '#f5b7b1', '#aec6f5', '#f8c99a'];
const DARK = ['#1f8ea0', '#b7950b', '#6c3483', '#239b56', '#b03a2e', '#2e4f9e', '#b9770e'];

interface TetrisState {
  cols: number;
  rows: number;
  board: number[][];
  piece: Piece;
  queue: PieceType[];
  hold: PieceType | null;
  holdUsed: boolean;
  score: number;
  lines: number;
  level: number;
  pieces: number;
  gravityMs: number;
  ticks: number;
  gameOver: boolean;
}

const { canvas, ctx, width, height } = createCanvas2d('Tetris', W, H);

function refill(queue: PieceType[]): void {
  while (queue.length < 7) {
    const bag = [...TYPES];
    for (let i = bag.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [bag[i], bag[j]] = [bag[j], bag[i]];
    }
    queue.push(...bag);
  }
}

function newGame(): TetrisState {
  const queue: PieceType[] = [];
  refill(queue);
  const first = queue.shift()!;
  refill(queue);
  return {
    cols: COLS,
    rows: ROWS,
    board: emptyBoard(),
    piece: spawnPiece(first),
    queue,
    hold: null,
    holdUsed: false,
    score: 0,
    lines: 0,
    level: 1,
    pieces: 1,
    gravityMs: gravityMsForLevel(1),
    ticks: 0,
    gameOver: false,
  };
}

const w = window as unknown as { tetris: TetrisState };
w.tetris = newGame();
let gravityTimer = 0;
let dirty = true;
let flash: { rows: number[]; until: number } | null = null;

function scheduleGravity(): void {
  window.clearTimeout(gravityTimer);
  if (!w.tetris.gameOver) gravityTimer = window.setTimeout(gravityTick, w.tetris.gravityMs);
}

function spawn(type: PieceType): void {
  const s = w.tetris;
  s.piece = spawnPiece(type);
  if (!fits(s.board, s.piece)) s.gameOver = true;
}

function lockAndSpawn(): void {
  const s = w.tetris;
  const r = lockPiece(s.board, s.piece);
  s.board = r.board;
  dirty = true;
  if (r.toppedOut) {
    s.gameOver = true;
    return;
  }
  const n = r.cleared.length;
  if (n > 0) {
    s.score += LINE_POINTS[n] * s.level;
    s.lines += n;
    s.level = 1 + Math.floor(s.lines / LINES_PER_LEVEL);
    s.gravityMs = gravityMsForLevel(s.level);
    flash = { rows: r.cleared, until: performance.now() + 180 };
  }
  s.pieces++;
  s.holdUsed = false;
  spawn(s.queue.shift()!);
  refill(s.queue);
  scheduleGravity();
}

function gravityTick(): void {
  const s = w.tetris;
  if (s.gameOver) return;
  s.ticks++;
  if (fits(s.board, { ...s.piece, y: s.piece.y + 1 })) {
    s.piece.y++;
    dirty = true;
    scheduleGravity();
  } else {
    lockAndSpawn();
  }
}

function shift(dx: number): void {
  const s = w.tetris;
  const q = { ...s.piece, x: s.piece.x + dx };
  if (fits(s.board, q)) {
    s.piece = q;
    dirty = true;
  }
}

function rotate(dir: 1 | -1): void {
  const s = w.tetris;
  const q = rotatePiece(s.board, s.piece, dir);
  if (q) {
    s.piece = q;
    dirty = true;
  }
}

function softDrop(): void {
  const s = w.tetris;
  if (fits(s.board, { ...s.piece, y: s.piece.y + 1 })) {
    s.piece.y++;
    dirty = true;
  } else {
    lockAndSpawn();
  }
}

function hardDrop(): void {
  const s = w.tetris;
  s.piece.y = dropRow(s.board, s.piece);
  lockAndSpawn();
}

function holdPiece(): void {
  const s = w.tetris;
  if (s.holdUsed) return;
  const current = s.piece.type;
  if (s.hold) {
    spawn(s.hold);
  } else {
    spawn(s.queue.shift()!);
    refill(s.queue);
  }
  s.hold = current;
  s.holdUsed = true;
  dirty = true;
  scheduleGravity();
}

function restart(): void {
  w.tetris = newGame();
  flash = null;
  dirty = true;
  scheduleGravity();
}

type Command = 'left' | 'right' | 'cw' | 'ccw' | 'soft' | 'hard' | 'hold';
function command(c: Command): void {
  if (w.tetris.gameOver) return;
  if (c === 'left') shift(-1);
  else if (c === 'right') shift(1);
  else if (c === 'cw') rotate(1);
  else if (c === 'ccw') rotate(-1);
  else if (c === 'soft') softDrop();
  else if (c === 'hard') hardDrop();
  else holdPiece();
}

const KEYS: Record<string, Command> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'cw',
  ArrowDown: 'soft',
  ' ': 'hard',
  x: 'cw',
  X: 'cw',
  z: 'ccw',
  Z: 'ccw',
  c: 'hold',
  C: 'hold',
  Shift: 'hold',
  a: 'left',
  A: 'left',
  d: 'right',
  D: 'right',
  w: 'cw',
  W: 'cw',
  s: 'soft',
  S: 'soft',
};
onGameKeys(KEYS, command, { isOver: () => w.tetris.gameOver, restart });

/**
 * Slides the piece, one column at a time as the arrow keys would, until its leftmost block is in
 * `column` (or the nearest column the piece fits the well at) or the stack blocks it, then
 * hard-drops it.
 */
function dropAtColumn(column: number): void {
  const s = w.tetris;
  if (s.gameOver) return;
  const cells = pieceCells(s.piece);
  const target = placementColumn(cells, COLS, column);
  for (let x = Math.min(...cells.map(([cx]) => cx)); x !== target; ) {
    const before = s.piece.x;
    shift(x < target ? 1 : -1);
    if (s.piece.x === before) break;
    x += x < target ? 1 : -1;
  }
  hardDrop();
}

// Touch and mouse: tap rotates, a horizontal swipe moves one column per 25 px, a swipe up holds,
// and a swipe down hard-drops the piece into the column it ends over (its leftmost block there).
onPointerRelease(canvas, width, height, (dx, dy, p) => {
  if (w.tetris.gameOver) return;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 12) command('cw');
  else if (Math.abs(dx) > Math.abs(dy)) for (let i = 0; i < Math.max(1, Math.round(Math.abs(dx) / 25)); i++) command(dx > 0 ? 'right' : 'left');
  else if (dy < 0) command('hold');
  else if (p.x >= WELL_X && p.x < WELL_X + COLS * CELL) dropAtColumn(Math.floor((p.x - WELL_X) / CELL));
  else command('hard');
});

// --- Drawing: only when something changed (or while a cleared line flashes).

function block(x: number, y: number, color: number, size = CELL): void {
  ctx.fillStyle = DARK[color];
  ctx.fillRect(x, y, size, size);
  ctx.fillStyle = LIGHT[color];
  ctx.fillRect(x + 1, y + 1, size - 3, size - 3);
  ctx.fillStyle = COLORS[color];
  ctx.fillRect(x + 3, y + 3, size - 6, size - 6);
}

function miniPiece(type: PieceType, cx: number, cy: number): void {
  const cells = shapeOf(type, 0);
  const size = 14;
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const wCells = Math.max(...xs) - Math.min(...xs) + 1;
  const hCells = Math.max(...ys) - Math.min(...ys) + 1;
  const ox = cx - (wCells * size) / 2 - Math.min(...xs) * size;
  const oy = cy - (hCells * size) / 2 - Math.min(...ys) * size;
  for (const [x, y] of cells) block(ox + x * size, oy + y * size, TYPES.indexOf(type), size);
}

function panelBox(label: string, y: number, h: number): void {
  ctx.fillStyle = '#161d29';
  ctx.fillRect(PANEL_X, y, 100, h);
  ctx.strokeStyle = '#2c3a50';
  ctx.strokeRect(PANEL_X + 0.5, y + 0.5, 99, h - 1);
  ctx.fillStyle = '#8b9bb4';
  ctx.font = 'bold 12px sans-serif';
  ctx.fillText(label, PANEL_X + 8, y + 6);
}

function draw(now: number): void {
  requestAnimationFrame(draw);
  if (flash && now >= flash.until) {
    flash = null;
    dirty = true;
  }
  if (!dirty && !flash) return;
  dirty = false;
  const s = w.tetris;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'start';
  ctx.fillStyle = '#0d1117';
  ctx.fillRect(0, 0, width, height);
  // Well.
  ctx.fillStyle = '#111824';
  ctx.fillRect(WELL_X, WELL_Y, COLS * CELL, ROWS * CELL);
  ctx.strokeStyle = '#1a2434';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = 1; x < COLS; x++) {
    ctx.moveTo(WELL_X + x * CELL + 0.5, WELL_Y);
    ctx.lineTo(WELL_X + x * CELL + 0.5, WELL_Y + ROWS * CELL);
  }
  for (let y = 1; y < ROWS; y++) {
    ctx.moveTo(WELL_X, WELL_Y + y * CELL + 0.5);
    ctx.lineTo(WELL_X + COLS * CELL, WELL_Y + y * CELL + 0.5);
  }
  ctx.stroke();
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const v = s.board[y][x];
      if (v) block(WELL_X + x * CELL, WELL_Y + y * CELL, v - 1);
    }
  }
  if (!s.gameOver) {
    const color = TYPES.indexOf(s.piece.type);
    const ghostY = dropRow(s.board, s.piece);
    ctx.strokeStyle = COLORS[color];
    ctx.globalAlpha = 0.45;
    for (const [x, y] of pieceCells({ ...s.piece, y: ghostY })) {
      if (y >= 0) ctx.strokeRect(WELL_X + x * CELL + 1.5, WELL_Y + y * CELL + 1.5, CELL - 3, CELL - 3);
    }
    ctx.globalAlpha = 1;
    for (const [x, y] of pieceCells(s.piece)) if (y >= 0) block(WELL_X + x * CELL, WELL_Y + y * CELL, color);
  }
  if (flash) {
    const f = Math.max(0, (flash.until - now) / 180);
    ctx.fillStyle = `rgba(255,255,255,${(0.8 * f).toFixed(3)})`;
    // The cleared rows have collapsed already: flash the band they left at the bottom of the gap.
    const n = flash.rows.length;
    const bottom = flash.rows[n - 1];
    ctx.fillRect(WELL_X, WELL_Y + (bottom - n + 1) * CELL, COLS * CELL, n * CELL);
  }
  ctx.strokeStyle = '#3b4d6b';
  ctx.lineWidth = 2;
  ctx.strokeRect(WELL_X - 1, WELL_Y - 1, COLS * CELL + 2, ROWS * CELL + 2);
  ctx.lineWidth = 1;

  // Side panel.
  panelBox('NEXT', WELL_Y, 150);
  s.queue.slice(0, PREVIEW).forEach((t, i) => miniPiece(t, PANEL_X + 50, WELL_Y + 42 + i * 40));
  panelBox('HOLD', WELL_Y + 160, 64);
  if (s.hold) {
    ctx.globalAlpha = s.holdUsed ? 0.4 : 1;
    miniPiece(s.hold, PANEL_X + 50, WELL_Y + 200);
    ctx.globalAlpha = 1;
  }
  const stats: [string, number][] = [
    ['SCORE', s.score],
    ['LINES', s.lines],
    ['LEVEL', s.level],
  ];
  stats.forEach(([label, value], i) => {
    const y = WELL_Y + 236 + i * 52;
    panelBox(label, y, 46);
    ctx.fillStyle = '#e6edf3';
    ctx.font = 'bold 18px sans-serif';
    ctx.fillText(String(value), PANEL_X + 8, y + 22);
  });

  if (s.gameOver) {
    ctx.fillStyle = 'rgba(0,0,0,0.65)';
    ctx.fillRect(0, 0, width, height);
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.font = 'bold 30px sans-serif';
    ctx.fillText('Game over', width / 2, height / 2 - 34);
    ctx.font = '16px sans-serif';
    ctx.fillText(`Score ${s.score}`, width / 2, height / 2 + 4);
    ctx.fillText('Press Enter to play again', width / 2, height / 2 + 28);
    ctx.textAlign = 'start';
  }
}

scheduleGravity();
requestAnimationFrame(draw);
