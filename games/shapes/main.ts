import { createCanvas2d, drawText, toGameCoords } from '../shared/canvas';
import { Redraw, drawLevelEnd, type MoveLimitedLevel } from '../shared/level-puzzle';
import { aimedAt, normalise, rotateCells, sizeOf, type Cell } from './cells';

/**
 * Shapes: fill a target outline on an 8×8 board exactly with the polyomino pieces in the
 * tray. Pick a piece, turn it, move it over the outline and place it; a piece only goes
 * down where every one of its cells covers an empty outline cell. Outlines are grown piece
 * by piece from the seeded random numbers (so they can always be filled), with more and
 * larger pieces as the levels go on. Placing and picking pieces back up are moves; each
 * level has a move limit, and running out before the outline is full ends the game.
 */

const COLS = 8;
const ROWS = 8;
const CELL = 34;
const BX = 16;
const BY = 48;
const W = 480;
const H = 480;
const TRAY_X = 12;
const TRAY_Y = 336;
const SLOT_W = 76;
const SLOT_H = 132;
const MINI = 18;
const BANNER_MS = 800;
const COLORS = ['#f97316', '#22c55e', '#3b82f6', '#eab308', '#ec4899', '#14b8a6'];

interface Piece {
  /** Cells of the piece in its current orientation, normalised to start at (0,0). */
  cells: Cell[];
  color: string;
  placed: boolean;
  /** Board position of the piece's (0,0) while placed. */
  at: Cell | null;
}

interface ShapesState extends MoveLimitedLevel {
  cols: number;
  rows: number;
  /** 1 where the cell belongs to the target outline, row-major. */
  outline: number[];
  /** Index+1 of the piece covering each cell, 0 if none. */
  filled: number[];
  filledEver: number[];
  pieces: Piece[];
  /** Index of the selected piece (always an unplaced one), -1 when all are placed. */
  active: number;
  /** Board position of the selected piece's (0,0). */
  cursor: { x: number; y: number };
  /** Order in which pieces were placed (for undo). */
  placedOrder: number[];
  board: { x0: number; y0: number; cell: number };
  solvedLevels: number;
  lastBadAt: number;
}

const { canvas, ctx } = createCanvas2d('Shapes', W, H);
const w = window as unknown as { shapes: ShapesState };

function generate(level: number): Cell[][] {
  const count = Math.min(6, 2 + Math.floor(level / 2));
  const minSize = level >= 3 ? 4 : 3;
  const maxSize = level >= 2 ? 5 : 4;
  for (;;) {
    const owner = new Array(COLS * ROWS).fill(-1);
    const pieces: Cell[][] = [];
    let ok = true;
    for (let p = 0; p < count && ok; p++) {
      const size = minSize + Math.floor(Math.random() * (maxSize - minSize + 1));
      let seed: number;
      if (p === 0) {
        seed = (2 + Math.floor(Math.random() * 4)) * COLS + 2 + Math.floor(Math.random() * 4);
      } else {
        const touching: number[] = [];
        for (let i = 0; i < COLS * ROWS; i++) {
          if (owner[i] !== -1) continue;
          const x = i % COLS;
          const y = Math.floor(i / COLS);
          const near = [
            [x + 1, y],
            [x - 1, y],
            [x, y + 1],
            [x, y - 1],
          ].some(([nx, ny]) => nx >= 0 && ny >= 0 && nx < COLS && ny < ROWS && owner[ny * COLS + nx] !== -1);
          if (near) touching.push(i);
        }
        if (!touching.length) {
          ok = false;
          break;
        }
        seed = touching[Math.floor(Math.random() * touching.length)];
      }
      const mine = [seed];
      owner[seed] = p;
      while (mine.length < size) {
        const frontier: number[] = [];
        for (const i of mine) {
          const x = i % COLS;
          const y = Math.floor(i / COLS);
          for (const [nx, ny] of [
            [x + 1, y],
            [x - 1, y],
            [x, y + 1],
            [x, y - 1],
          ]) {
            if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) continue;
            const j = ny * COLS + nx;
            if (owner[j] === -1 && !frontier.includes(j)) frontier.push(j);
          }
        }
        if (!frontier.length) {
          ok = false;
          break;
        }
        const j = frontier[Math.floor(Math.random() * frontier.length)];
        owner[j] = p;
        mine.push(j);
      }
      pieces.push(mine.map((i) => [i % COLS, Math.floor(i / COLS)] as Cell));
    }
    if (ok) return pieces;
  }
}

function newLevel(level: number, score: number): ShapesState {
  const parts = generate(level);
  const outline = new Array(COLS * ROWS).fill(0);
  for (const part of parts) for (const [x, y] of part) outline[y * COLS + x] = 1;
  // Tray order and orientation are shuffled, so the outline gives nothing away.
  const order = parts.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const pieces: Piece[] = order.map((k, i) => {
    let cells = normalise(parts[k]);
    const turns = Math.floor(Math.random() * 4);
    for (let t = 0; t < turns; t++) cells = rotateCells(cells);
    return { cells, color: COLORS[i % COLORS.length], placed: false, at: null };
  });
  const slack = 2 + Math.floor(level / 3);
  // Pieces start over the outline's top-left corner.
  let cx = COLS;
  let cy = ROWS;
  outline.forEach((o, i) => {
    if (!o) return;
    cx = Math.min(cx, i % COLS);
    cy = Math.min(cy, Math.floor(i / COLS));
  });
  const s: ShapesState = {
    cols: COLS,
    rows: ROWS,
    outline,
    filled: new Array(COLS * ROWS).fill(0),
    filledEver: new Array(COLS * ROWS).fill(0),
    pieces,
    active: 0,
    cursor: { x: cx, y: cy },
    placedOrder: [],
    board: { x0: BX, y0: BY, cell: CELL },
    level,
    score,
    moves: 0,
    moveLimit: pieces.length + slack,
    solvedLevels: level - 1,
    gameOver: false,
    lastSolvedAt: -1e9,
    lastBadAt: -1e9,
  };
  clampCursor(s);
  return s;
}

w.shapes = newLevel(1, 0);
const view = new Redraw();

function clampCursor(s: ShapesState): void {
  if (s.active < 0) return;
  const [pw, ph] = sizeOf(s.pieces[s.active].cells);
  s.cursor.x = Math.max(0, Math.min(COLS - pw, s.cursor.x));
  s.cursor.y = Math.max(0, Math.min(ROWS - ph, s.cursor.y));
}

function fits(s: ShapesState, cells: Cell[], at: { x: number; y: number }): boolean {
  return cells.every(([x, y]) => {
    const bx = at.x + x;
    const by = at.y + y;
    if (bx < 0 || by < 0 || bx >= COLS || by >= ROWS) return false;
    const i = by * COLS + bx;
    return s.outline[i] === 1 && s.filled[i] === 0;
  });
}

function nextUnplaced(s: ShapesState, from: number): number {
  for (let k = 1; k <= s.pieces.length; k++) {
    const i = (from + k + s.pieces.length) % s.pieces.length;
    if (!s.pieces[i].placed) return i;
  }
  return -1;
}

function selectNext(): void {
  const s = w.shapes;
  if (s.gameOver || s.active < 0) return;
  s.active = nextUnplaced(s, s.active);
  clampCursor(s);
  view.dirty = true;
}

function select(i: number): void {
  const s = w.shapes;
  if (s.gameOver || s.pieces[i].placed) return;
  s.active = i;
  clampCursor(s);
  view.dirty = true;
}

function moveCursor(dx: number, dy: number): void {
  const s = w.shapes;
  if (s.gameOver || s.active < 0) return;
  s.cursor.x += dx;
  s.cursor.y += dy;
  clampCursor(s);
  view.dirty = true;
}

function rotateActive(): void {
  const s = w.shapes;
  if (s.gameOver || s.active < 0) return;
  const p = s.pieces[s.active];
  p.cells = rotateCells(p.cells);
  clampCursor(s);
  view.dirty = true;
}

/** Puts the selected piece down at the cursor if it fits there; says whether it did. */
function place(): boolean {
  const s = w.shapes;
  if (s.gameOver || s.active < 0) return false;
  const p = s.pieces[s.active];
  const now = performance.now();
  if (!fits(s, p.cells, s.cursor)) {
    s.lastBadAt = now;
    view.animUntil = Math.max(view.animUntil, now + 250);
    view.dirty = true;
    return false;
  }
  for (const [x, y] of p.cells) {
    const i = (s.cursor.y + y) * COLS + s.cursor.x + x;
    s.filled[i] = s.active + 1;
    if (!s.filledEver[i]) {
      s.filledEver[i] = 1;
      s.score += 1;
    }
  }
  p.placed = true;
  p.at = [s.cursor.x, s.cursor.y];
  s.placedOrder.push(s.active);
  s.moves++;
  if (s.outline.every((o, i) => !o || s.filled[i])) {
    w.shapes = view.solved(newLevel(s.level + 1, s.score + 10 + 5 * (s.level - 1)), now, BANNER_MS);
  } else {
    s.active = nextUnplaced(s, s.active);
    clampCursor(s);
    if (s.moves >= s.moveLimit) s.gameOver = true;
  }
  view.dirty = true;
  return true;
}

/** Lifts a placed piece back into the tray and selects it; the last placed one by default. */
function pickUp(index = -1): boolean {
  const s = w.shapes;
  if (s.gameOver || !s.placedOrder.length) return false;
  const i = index >= 0 ? index : s.placedOrder[s.placedOrder.length - 1];
  const p = s.pieces[i];
  if (!p.placed || !p.at) return false;
  for (let k = 0; k < s.filled.length; k++) if (s.filled[k] === i + 1) s.filled[k] = 0;
  s.cursor = { x: p.at[0], y: p.at[1] };
  p.placed = false;
  p.at = null;
  s.placedOrder = s.placedOrder.filter((k) => k !== i);
  s.active = i;
  s.moves++;
  if (s.moves >= s.moveLimit) s.gameOver = true;
  view.dirty = true;
  return true;
}

window.addEventListener('keydown', (e) => {
  const s = w.shapes;
  if (e.key === 'Enter' && s.gameOver) {
    w.shapes = newLevel(1, 0);
    view.dirty = true;
    return;
  }
  const handled = (() => {
    switch (e.key) {
      case 'ArrowUp':
        moveCursor(0, -1);
        return true;
      case 'ArrowDown':
        moveCursor(0, 1);
        return true;
      case 'ArrowLeft':
        moveCursor(-1, 0);
        return true;
      case 'ArrowRight':
        moveCursor(1, 0);
        return true;
      case 'n':
      case 'N':
      case 'Tab':
        selectNext();
        return true;
      case 'r':
      case 'R':
      case 'x':
      case 'X':
        rotateActive();
        return true;
      case ' ':
      case 'Enter':
        place();
        return true;
      case 'u':
      case 'U':
      case 'Backspace':
      case 'z':
      case 'Z':
        pickUp();
        return true;
      default:
        return false;
    }
  })();
  if (handled) e.preventDefault();
});

// Pointer play: tap a tray piece to turn it (it becomes the selected one), drag it onto the
// outline or tap the board to drop it there; tap a placed piece to lift it back.
function slotAt(x: number, y: number): number {
  if (y < TRAY_Y || y > TRAY_Y + SLOT_H) return -1;
  const k = Math.floor((x - TRAY_X) / SLOT_W);
  return k >= 0 && k < w.shapes.pieces.length ? k : -1;
}
const boardCell = (x: number, y: number) => ({ x: Math.floor((x - BX) / CELL), y: Math.floor((y - BY) / CELL) });
const onBoard = (c: { x: number; y: number }) => c.x >= 0 && c.y >= 0 && c.x < COLS && c.y < ROWS;

interface Drag {
  piece: number;
  startX: number;
  startY: number;
  moved: boolean;
  /** For a drag from the tray, the selection and cursor before it (put back if its piece is not placed); null for one on the board. */
  fromTray: { active: number; cursor: { x: number; y: number } } | null;
}
let drag: Drag | null = null;

/** Puts the selected piece so its middle cell sits under board cell c. */
function aimAt(c: { x: number; y: number }): void {
  const s = w.shapes;
  if (s.active < 0) return;
  const [x, y] = aimedAt(s.pieces[s.active].cells, c.x, c.y, COLS, ROWS);
  s.cursor = { x, y };
  view.dirty = true;
}

canvas.addEventListener('pointerdown', (e) => {
  e.preventDefault();
  const s = w.shapes;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, W, H, e);
  try {
    canvas.setPointerCapture(e.pointerId);
  } catch {
    // Synthetic pointers cannot be captured; nothing to do.
  }
  const k = slotAt(p.x, p.y);
  if (k >= 0 && !s.pieces[k].placed) {
    drag = { piece: k, startX: p.x, startY: p.y, moved: false, fromTray: { active: s.active, cursor: { ...s.cursor } } };
    select(k);
    return;
  }
  const c = boardCell(p.x, p.y);
  if (!onBoard(c)) return;
  const owner = s.filled[c.y * COLS + c.x];
  if (owner > 0) {
    if (pickUp(owner - 1) && !s.gameOver) {
      drag = { piece: owner - 1, startX: p.x, startY: p.y, moved: true, fromTray: null };
      aimAt(c);
    }
    return;
  }
  if (s.active >= 0) drag = { piece: s.active, startX: p.x, startY: p.y, moved: false, fromTray: null };
});

canvas.addEventListener('pointermove', (e) => {
  if (!drag || w.shapes.gameOver) return;
  const p = toGameCoords(canvas, W, H, e);
  if (Math.abs(p.x - drag.startX) + Math.abs(p.y - drag.startY) > 6) drag.moved = true;
  const c = boardCell(p.x, p.y);
  if (drag.moved && onBoard(c)) aimAt(c);
});

canvas.addEventListener('pointerup', (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  const s = w.shapes;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, W, H, e);
  const c = boardCell(p.x, p.y);
  // A tap on a tray piece (selected as the pointer went down) turns it.
  if (d.fromTray && !d.moved) {
    rotateActive();
    return;
  }
  if (onBoard(c)) aimAt(c);
  const placed = onBoard(c) && place();
  // A piece dragged from the tray that does not go down goes back, and the selection with it.
  if (!placed && d.fromTray && !s.gameOver) {
    s.active = d.fromTray.active;
    s.cursor = d.fromTray.cursor;
    view.dirty = true;
  }
});

function drawCellBlock(x: number, y: number, size: number, color: string, alpha = 1): void {
  ctx.globalAlpha = alpha;
  ctx.fillStyle = color;
  ctx.fillRect(x + 1, y + 1, size - 2, size - 2);
  ctx.fillStyle = 'rgba(255,255,255,0.22)';
  ctx.fillRect(x + 1, y + 1, size - 2, Math.max(2, size * 0.15));
  ctx.fillStyle = 'rgba(0,0,0,0.18)';
  ctx.fillRect(x + 1, y + size - 1 - Math.max(2, size * 0.12), size - 2, Math.max(2, size * 0.12));
  ctx.globalAlpha = 1;
}

function draw(now: number): void {
  const s = w.shapes;
  ctx.fillStyle = '#141821';
  ctx.fillRect(0, 0, W, H);
  // Board and outline
  ctx.fillStyle = '#0d1017';
  ctx.fillRect(BX - 4, BY - 4, COLS * CELL + 8, ROWS * CELL + 8);
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const i = y * COLS + x;
      ctx.fillStyle = s.outline[i] ? '#2b3a55' : '#161b26';
      ctx.fillRect(BX + x * CELL + 1, BY + y * CELL + 1, CELL - 2, CELL - 2);
    }
  }
  ctx.strokeStyle = '#93c5fd';
  ctx.lineWidth = 3;
  ctx.lineCap = 'square';
  ctx.beginPath();
  const inOutline = (x: number, y: number) => x >= 0 && y >= 0 && x < COLS && y < ROWS && s.outline[y * COLS + x] === 1;
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      if (!inOutline(x, y)) continue;
      const px = BX + x * CELL;
      const py = BY + y * CELL;
      if (!inOutline(x, y - 1)) {
        ctx.moveTo(px, py);
        ctx.lineTo(px + CELL, py);
      }
      if (!inOutline(x, y + 1)) {
        ctx.moveTo(px, py + CELL);
        ctx.lineTo(px + CELL, py + CELL);
      }
      if (!inOutline(x - 1, y)) {
        ctx.moveTo(px, py);
        ctx.lineTo(px, py + CELL);
      }
      if (!inOutline(x + 1, y)) {
        ctx.moveTo(px + CELL, py);
        ctx.lineTo(px + CELL, py + CELL);
      }
    }
  }
  ctx.stroke();
  for (let i = 0; i < COLS * ROWS; i++) {
    if (!s.filled[i]) continue;
    drawCellBlock(BX + (i % COLS) * CELL, BY + Math.floor(i / COLS) * CELL, CELL, s.pieces[s.filled[i] - 1].color);
  }
  // The selected piece hovers over the board where it would go.
  if (s.active >= 0 && !s.gameOver) {
    const p = s.pieces[s.active];
    const ok = fits(s, p.cells, s.cursor);
    const shake = now - s.lastBadAt < 250 ? Math.sin((now - s.lastBadAt) / 20) * 4 : 0;
    for (const [x, y] of p.cells) {
      const px = BX + (s.cursor.x + x) * CELL + shake;
      const py = BY + (s.cursor.y + y) * CELL;
      drawCellBlock(px, py, CELL, p.color, 0.55);
      ctx.strokeStyle = ok ? '#ffffff' : '#f87171';
      ctx.lineWidth = 2;
      ctx.strokeRect(px + 2, py + 2, CELL - 4, CELL - 4);
    }
  }
  // Side panel
  ctx.textBaseline = 'middle';
  drawText(ctx, 'Shapes', 16, 24, { color: '#e5e7eb', font: 'bold 22px sans-serif', align: 'left' });
  ctx.font = 'bold 17px sans-serif';
  const px = 306;
  const filled = s.filled.filter((f) => f).length;
  const total = s.outline.filter((o) => o).length;
  const left = s.moveLimit - s.moves;
  const lines: [string, string][] = [
    [`Level ${s.level}`, '#e5e7eb'],
    [`Score ${s.score}`, '#e5e7eb'],
    [`Filled ${filled}/${total}`, '#93c5fd'],
    [`Moves ${left}`, left <= 1 ? '#f87171' : '#e5e7eb'],
  ];
  lines.forEach(([t, c], k) => {
    ctx.fillStyle = c;
    ctx.fillText(t, px, 64 + k * 30);
  });
  ctx.font = '12px sans-serif';
  ctx.fillStyle = '#9ca3af';
  ['Arrows: move piece', 'R: turn   N: next piece', 'Space: place   U: lift', 'Mouse: drag pieces,', 'tap a piece to turn it'].forEach((t, k) =>
    ctx.fillText(t, px, 200 + k * 18),
  );
  // Tray
  s.pieces.forEach((p, k) => {
    const sx = TRAY_X + k * SLOT_W;
    ctx.fillStyle = k === s.active ? '#2d3748' : '#1b2030';
    ctx.beginPath();
    ctx.roundRect(sx + 2, TRAY_Y, SLOT_W - 6, SLOT_H, 8);
    ctx.fill();
    if (k === s.active) {
      ctx.strokeStyle = '#fbbf24';
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    if (p.placed) {
      ctx.fillStyle = '#4b5563';
      ctx.font = 'bold 13px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('placed', sx + SLOT_W / 2 - 1, TRAY_Y + SLOT_H / 2);
      ctx.textAlign = 'left';
      return;
    }
    const [pw, ph] = sizeOf(p.cells);
    const mini = Math.min(MINI, Math.floor(64 / Math.max(pw, ph)));
    const ox = sx + (SLOT_W - 4 - pw * mini) / 2;
    const oy = TRAY_Y + (SLOT_H - ph * mini) / 2;
    for (const [x, y] of p.cells) drawCellBlock(ox + x * mini, oy + y * mini, mini, p.color);
  });
  drawLevelEnd(ctx, W, H, s, now, {
    banner: {
      text: 'Perfect fit!',
      x: BX + (COLS * CELL) / 2,
      y: BY + (ROWS * CELL) / 2,
      color: '#fde047',
      font: 'bold 36px sans-serif',
      durationMs: BANNER_MS,
    },
    over: { shade: 'rgba(8,10,14,0.74)', title: 'Out of moves' },
  });
}

view.start(draw);
