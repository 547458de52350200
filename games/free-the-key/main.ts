import { createCanvas2d, toGameCoords, drawStripBanner, drawGameOverCard } from '../shared/canvas';
import type { MoveLimits } from '../shared/level-puzzle';
import { EXIT_ROW, KEY_GOAL, N, blockCells, canSlide, generatePuzzle, moveLimit, occupancy, puzzlePoints, type Block, type Puzzle } from './logic';

/**
 * Free the key: a sliding-block puzzle on a 6×6 board. Blocks slide along their own axis, one
 * cell per move; the golden key must reach the exit on the right of its row. Puzzles come from
 * the seed with a known optimal solution that grows as puzzles are solved; each puzzle allows
 * twice its optimal move count plus ten, and running out ends the game.
 */

const W = 400;
const H = 440;
const CELL = 60;
const BX = 20;
const BY = 60;

/** The puzzle being played (its blocks, where they are, its optimal solution's length), and the game around it. */
interface KeyState extends Puzzle, MoveLimits {
  /** Where the blocks started. */
  start: number[];
  selected: number;
  solved: number;
  totalMoves: number;
}

const { canvas, ctx, width, height } = createCanvas2d('Free the Key', W, H);

function loadPuzzle(s: KeyState, n: number): void {
  const p = generatePuzzle(n, Math.random);
  s.level = n;
  s.blocks = p.blocks;
  s.pos = p.pos;
  s.start = p.pos.slice();
  s.selected = 0;
  s.moves = 0;
  s.optimal = p.optimal;
  s.moveLimit = moveLimit(p.optimal);
}

function newGame(): KeyState {
  const s = { score: 0, solved: 0, totalMoves: 0, gameOver: false } as KeyState;
  loadPuzzle(s, 1);
  return s;
}

const w = window as unknown as { freeTheKey: KeyState };
w.freeTheKey = newGame();
let dirty = true;
let banner: { text: string; until: number } | null = null;
/** The key sliding out through the exit after a solve (drawn over the next puzzle's first frames). */
let exitAnim: { row: number; until: number } | null = null;

function slide(delta: -1 | 1, axisHoriz: boolean): boolean {
  const s = w.freeTheKey;
  if (s.gameOver) return false;
  const bi = s.selected;
  const b = s.blocks[bi];
  if (b.horiz !== axisHoriz) return false;
  if (!canSlide(s.blocks, s.pos, occupancy(s.blocks, s.pos), bi, delta)) return false;
  s.pos[bi] += delta;
  s.moves++;
  s.totalMoves++;
  dirty = true;
  if (bi === 0 && s.pos[0] === KEY_GOAL) {
    const points = puzzlePoints(s.optimal);
    s.score += points;
    s.solved++;
    banner = { text: `Key freed! +${points}`, until: performance.now() + 900 };
    exitAnim = { row: EXIT_ROW, until: performance.now() + 400 };
    loadPuzzle(s, s.level + 1);
    return true;
  }
  if (s.moves >= s.moveLimit) s.gameOver = true;
  return true;
}

function select(delta: number): void {
  const s = w.freeTheKey;
  if (s.gameOver) return;
  const n = s.blocks.length;
  s.selected = (s.selected + delta + n) % n;
  dirty = true;
}

function restart(): void {
  w.freeTheKey = newGame();
  banner = null;
  exitAnim = null;
  dirty = true;
}

window.addEventListener('keydown', (e) => {
  const k = e.key;
  if (k === 'ArrowLeft' || k === 'a' || k === 'A') slide(-1, true);
  else if (k === 'ArrowRight' || k === 'd' || k === 'D') slide(1, true);
  else if (k === 'ArrowUp' || k === 'w' || k === 'W') slide(-1, false);
  else if (k === 'ArrowDown' || k === 's' || k === 'S') slide(1, false);
  else if (k === 'e' || k === 'E' || (k === 'Tab' && !e.shiftKey)) select(1);
  else if (k === 'q' || k === 'Q' || (k === 'Tab' && e.shiftKey)) select(-1);
  else if (k === 'Enter' && w.freeTheKey.gameOver) restart();
  else return;
  e.preventDefault();
});

// Pointer: press on a block to select it, drag to slide it (one move per cell crossed).
let drag: { block: number; anchor: number; horiz: boolean } | null = null;
function blockAt(x: number, y: number): number {
  const s = w.freeTheKey;
  const cx = Math.floor((x - BX) / CELL);
  const cy = Math.floor((y - BY) / CELL);
  if (cx < 0 || cy < 0 || cx >= N || cy >= N) return -1;
  return occupancy(s.blocks, s.pos)[cy * N + cx] - 1;
}
canvas.addEventListener('pointerdown', (e) => {
  const s = w.freeTheKey;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, width, height, e);
  const bi = blockAt(p.x, p.y);
  if (bi < 0) return;
  s.selected = bi;
  dirty = true;
  const horiz = s.blocks[bi].horiz;
  drag = { block: bi, anchor: horiz ? p.x : p.y, horiz };
  try {
    canvas.setPointerCapture(e.pointerId);
  } catch {
    // Synthetic pointers cannot be captured; moves still arrive on the canvas.
  }
});
canvas.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const p = toGameCoords(canvas, width, height, e);
  const at = drag.horiz ? p.x : p.y;
  // Slide one cell each time the pointer has travelled a cell past the anchor.
  while (Math.abs(at - drag.anchor) >= CELL * 0.6) {
    const s = w.freeTheKey;
    const delta = at > drag.anchor ? 1 : -1;
    if (s.selected !== drag.block || !slide(delta, drag.horiz) || s.selected !== drag.block) {
      drag = null;
      return;
    }
    drag.anchor += delta * CELL;
  }
});
const endDrag = () => {
  drag = null;
};
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

// --- Drawing.

const PALETTE = ['#5dade2', '#af7ac5', '#48c9b0', '#ec7063', '#f0b27a', '#7fb3d5', '#c39bd3', '#76d7c4', '#f1948a', '#a3e4d7', '#85c1e9', '#d7bde2', '#f8c471'];

function roundRect(x: number, y: number, w2: number, h2: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w2, y, x + w2, y + h2, r);
  ctx.arcTo(x + w2, y + h2, x, y + h2, r);
  ctx.arcTo(x, y + h2, x, y, r);
  ctx.arcTo(x, y, x + w2, y, r);
  ctx.closePath();
}

function drawKeyIcon(cx: number, cy: number): void {
  ctx.strokeStyle = '#7a5a00';
  ctx.fillStyle = '#7a5a00';
  ctx.lineWidth = 5;
  ctx.beginPath();
  ctx.arc(cx - 18, cy, 10, 0, Math.PI * 2);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(cx - 8, cy);
  ctx.lineTo(cx + 26, cy);
  ctx.moveTo(cx + 16, cy);
  ctx.lineTo(cx + 16, cy + 10);
  ctx.moveTo(cx + 24, cy);
  ctx.lineTo(cx + 24, cy + 8);
  ctx.stroke();
  ctx.lineWidth = 1;
}

function drawBlock(b: Block, p: number, i: number, selected: boolean, offsetX = 0): void {
  const cells = blockCells(b, p);
  const x0 = BX + (cells[0] % N) * CELL + offsetX;
  const y0 = BY + Math.floor(cells[0] / N) * CELL;
  const bw = b.horiz ? b.len * CELL : CELL;
  const bh = b.horiz ? CELL : b.len * CELL;
  const m = 4;
  roundRect(x0 + m, y0 + m + 3, bw - 2 * m, bh - 2 * m, 10);
  ctx.fillStyle = 'rgba(0,0,0,0.35)';
  ctx.fill();
  roundRect(x0 + m, y0 + m, bw - 2 * m, bh - 2 * m, 10);
  ctx.fillStyle = i === 0 ? '#f4c430' : PALETTE[(i - 1) % PALETTE.length];
  ctx.fill();
  ctx.fillStyle = 'rgba(255,255,255,0.25)';
  roundRect(x0 + m + 4, y0 + m + 4, bw - 2 * m - 8, (b.horiz ? bh : CELL) / 3, 6);
  ctx.fill();
  if (i === 0) drawKeyIcon(x0 + bw / 2, y0 + bh / 2);
  else {
    ctx.fillStyle = 'rgba(0,0,0,0.25)';
    ctx.font = 'bold 14px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(i), x0 + bw / 2, y0 + bh / 2);
  }
  if (selected) {
    roundRect(x0 + 2, y0 + 2, bw - 4, bh - 4, 12);
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 3;
    ctx.stroke();
    ctx.lineWidth = 1;
  }
}

function draw(now: number): void {
  requestAnimationFrame(draw);
  if (banner && now >= banner.until) {
    banner = null;
    dirty = true;
  }
  if (exitAnim && now >= exitAnim.until) {
    exitAnim = null;
    dirty = true;
  }
  if (!dirty && !exitAnim) return;
  dirty = false;
  const s = w.freeTheKey;
  ctx.fillStyle = '#0d1117';
  ctx.fillRect(0, 0, width, height);
  // Frame and board.
  roundRect(BX - 10, BY - 10, N * CELL + 20, N * CELL + 20, 14);
  ctx.fillStyle = '#3b2f2a';
  ctx.fill();
  ctx.fillStyle = '#1c2430';
  ctx.fillRect(BX, BY, N * CELL, N * CELL);
  ctx.strokeStyle = '#263243';
  ctx.beginPath();
  for (let i = 1; i < N; i++) {
    ctx.moveTo(BX + i * CELL + 0.5, BY);
    ctx.lineTo(BX + i * CELL + 0.5, BY + N * CELL);
    ctx.moveTo(BX, BY + i * CELL + 0.5);
    ctx.lineTo(BX + N * CELL, BY + i * CELL + 0.5);
  }
  ctx.stroke();
  // Exit gap with an arrow.
  ctx.fillStyle = '#1c2430';
  ctx.fillRect(BX + N * CELL, BY + EXIT_ROW * CELL + 6, 12, CELL - 12);
  ctx.fillStyle = '#f4c430';
  ctx.beginPath();
  const ay = BY + EXIT_ROW * CELL + CELL / 2;
  ctx.moveTo(BX + N * CELL + 4, ay - 8);
  ctx.lineTo(BX + N * CELL + 12, ay);
  ctx.lineTo(BX + N * CELL + 4, ay + 8);
  ctx.fill();

  s.blocks.forEach((b, i) => drawBlock(b, s.pos[i], i, i === s.selected && !s.gameOver));
  if (exitAnim) {
    // The freed key slides off to the right over the new puzzle.
    const t = 1 - (exitAnim.until - now) / 400;
    ctx.globalAlpha = Math.max(0, 1 - t);
    drawBlock({ horiz: true, len: 2, line: EXIT_ROW }, KEY_GOAL, 0, false, t * 2 * CELL);
    ctx.globalAlpha = 1;
  }

  // HUD.
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'start';
  ctx.font = 'bold 16px sans-serif';
  ctx.fillStyle = '#e6edf3';
  ctx.fillText(`Puzzle ${s.level}`, 12, 24);
  ctx.fillText(`Score ${s.score}`, 110, 24);
  const left = s.moveLimit - s.moves;
  ctx.fillStyle = left <= 5 ? '#ec7063' : '#e6edf3';
  ctx.fillText(`Moves left ${left}`, 220, 24);
  ctx.fillStyle = '#8b9bb4';
  ctx.font = '12px sans-serif';
  ctx.fillText(`par ${s.optimal}`, 350, 24);

  if (banner && !s.gameOver) drawStripBanner(ctx, W, H, banner.text, { shade: 'rgba(0,0,0,0.55)', color: '#f4c430' });
  if (s.gameOver)
    drawGameOverCard(ctx, W, H, {
      title: 'Out of moves',
      titleFont: 'bold 28px sans-serif',
      line: `Score ${s.score} · ${s.solved} puzzle${s.solved === 1 ? '' : 's'} solved`,
    });
}

requestAnimationFrame(draw);
