import { drawStatBox, drawText, type StatBoxLook } from '../shared/canvas';
import { TAP_BOARD, TapBoard } from '../shared/tap-board';
import { COLS, ROWS, applyClick, newState, valueOf, type Fall, type MergeDoubleState } from './logic';

/**
 * Merge-and-double on a 5×5 board. Clicking a tile merges every orthogonally connected tile
 * of the same number into it, and it doubles; the board then falls and refills from the top.
 * The logical board changes at once; the gather and fall are drawn afterwards over
 * GATHER_MS + FALL_MS of performance.now() time, and a click during an animation acts on the
 * settled board and replaces the animation.
 */

const { width: WIDTH, height: HEIGHT, header: HEADER, cell: CELL } = TAP_BOARD;
const GATHER_MS = 60;
const FALL_MS = 80;
const SHAKE_MS = 120;

type Anim =
  | {
      kind: 'merge';
      start: number;
      group: [number, number][];
      from: number[][];
      target: [number, number];
      oldLevel: number;
      falls: Fall[];
      at: [number, number];
    }
  | { kind: 'shake'; start: number; r: number; c: number };

const board = new TapBoard<Anim>('Merge Double', ROWS, COLS, { shade: 'rgba(10,12,20,0.72)', buttonFill: '#f2c14e', buttonText: '#20263a' });
const ctx = board.ctx;

const w = window as unknown as { mergeDouble: MergeDoubleState };
w.mergeDouble = newState(Math.random);

function clickCell(r: number, c: number): void {
  const s = w.mergeDouble;
  if (s.gameOver) return;
  const before = s.board.map((row) => row.slice());
  const oldLevel = before[r][c];
  const m = applyClick(s, r, c, Math.random);
  if (m) board.play({ kind: 'merge', start: performance.now(), group: m.group, from: before, target: [r, c], oldLevel, falls: m.falls, at: m.at });
  else board.play({ kind: 'shake', start: performance.now(), r, c });
}

function restart(): void {
  w.mergeDouble = newState(Math.random);
  board.play(null);
}

board.bindInput(() => w.mergeDouble.gameOver, restart, clickCell);

// ---- drawing ----

const COLORS = [
  '#e9e4d8',
  '#f2c14e',
  '#f78154',
  '#e84a5f',
  '#b83b8d',
  '#7b4fc9',
  '#4d6cd8',
  '#2fa4d8',
  '#26c0a4',
  '#6cc551',
  '#b7d132',
  '#f4d03f',
  '#f39c12',
  '#e74c3c',
  '#c0392b',
  '#8e44ad',
  '#2c3e50',
];
const colorOf = (level: number) => COLORS[Math.min(COLORS.length - 1, level)];

/** Each level's tile is drawn once into an off-screen sprite; frames then only copy sprites. */
const sprites = new Map<number, HTMLCanvasElement>();

function tileSprite(level: number): HTMLCanvasElement {
  let sprite = sprites.get(level);
  if (!sprite) {
    sprite = board.sprite(CELL, CELL, (g) => {
      const size = CELL - 8;
      const o = 4;
      g.fillStyle = 'rgba(0,0,0,0.25)';
      g.beginPath();
      g.roundRect(o, o + 3, size, size, 14);
      g.fill();
      g.fillStyle = colorOf(level);
      g.beginPath();
      g.roundRect(o, o, size, size, 14);
      g.fill();
      g.fillStyle = 'rgba(255,255,255,0.22)';
      g.beginPath();
      g.roundRect(o + 5, o + 4, size - 10, size * 0.35, 10);
      g.fill();
      const text = String(valueOf(level));
      g.fillStyle = level <= 1 ? '#4a4033' : '#ffffff';
      const font = text.length <= 2 ? 30 : text.length === 3 ? 26 : text.length === 4 ? 21 : 17;
      g.font = `bold ${font}px sans-serif`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText(text, CELL / 2, CELL / 2 + 2);
    });
    sprites.set(level, sprite);
  }
  return sprite;
}

function drawTile(x: number, y: number, level: number, scale = 1, alpha = 1): void {
  const size = CELL * scale;
  ctx.globalAlpha = alpha;
  ctx.drawImage(tileSprite(level), x + (CELL - size) / 2, y + (CELL - size) / 2, size, size);
  ctx.globalAlpha = 1;
}

let boardImage: HTMLCanvasElement | null = null;

/** The empty board with its cell wells, drawn once. */
function boardSprite(): HTMLCanvasElement {
  boardImage ??= board.sprite(WIDTH, HEIGHT - HEADER, (g) => {
    g.fillStyle = '#171c2b';
    g.fillRect(0, 0, WIDTH, HEIGHT - HEADER);
    g.fillStyle = '#1f2538';
    for (let r = 0; r < ROWS; r++)
      for (let c = 0; c < COLS; c++) {
        g.beginPath();
        g.roundRect(c * CELL + 4, r * CELL + 4, CELL - 8, CELL - 8, 14);
        g.fill();
      }
  });
  return boardImage;
}

const STAT_BOX: StatBoxLook = {
  fill: '#2e3650',
  label: { color: '#9aa5c4', font: 'bold 11px sans-serif' },
  value: { color: '#ffffff', font: 'bold 22px sans-serif', dy: 38 },
};

function drawHeader(s: MergeDoubleState): void {
  ctx.fillStyle = '#20263a';
  ctx.fillRect(0, 0, WIDTH, HEADER);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  drawText(ctx, 'Merge ×2', 12, 24, { color: '#f2c14e', font: 'bold 22px sans-serif' });
  drawText(ctx, `Level ${s.level} · make a ${valueOf(s.target)}`, 12, 56, { color: '#c9d1e6', font: '14px sans-serif' });
  const moves = { ...STAT_BOX, fill: s.movesLeft <= 3 ? '#7a2e3a' : STAT_BOX.fill };
  drawStatBox(ctx, { x: 188, y: 12, w: 96, h: 56 }, 'MOVES', String(s.movesLeft), moves);
  drawStatBox(ctx, { x: 294, y: 12, w: 96, h: 56 }, 'SCORE', String(s.score), STAT_BOX);
}

function drawBoard(now: number): void {
  const s = w.mergeDouble;
  ctx.drawImage(boardSprite(), 0, HEADER, WIDTH, HEIGHT - HEADER);
  const anim = board.anim;
  const t = anim ? now - anim.start : Infinity;
  if (anim?.kind === 'merge' && t < GATHER_MS) {
    // Gather: the group slides into the clicked tile and fades.
    const p = t / GATHER_MS;
    const [tr, tc] = anim.target;
    const inGroup = new Set(anim.group.map(([r, c]) => r * COLS + c));
    for (let r = 0; r < ROWS; r++)
      for (let c = 0; c < COLS; c++) {
        const l = anim.from[r][c];
        if (!l) continue;
        if (!inGroup.has(r * COLS + c) || (r === tr && c === tc)) drawTile(c * CELL, HEADER + r * CELL, l);
      }
    for (const [r, c] of anim.group) {
      if (r === tr && c === tc) continue;
      const x = (c + (tc - c) * p) * CELL;
      const y = HEADER + (r + (tr - r) * p) * CELL;
      drawTile(x, y, anim.oldLevel, 1 - 0.4 * p, 1 - 0.6 * p);
    }
    return;
  }
  let falling: Map<number, number> | null = null;
  let fallP = 1;
  if (anim?.kind === 'merge' && t < GATHER_MS + FALL_MS) {
    fallP = (t - GATHER_MS) / FALL_MS;
    falling = new Map(anim.falls.map((f) => [f.toR * COLS + f.c, f.fromR]));
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, HEADER, WIDTH, HEIGHT - HEADER);
  ctx.clip();
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++) {
      const l = s.board[r][c];
      if (!l) continue;
      let y = r;
      const from = falling?.get(r * COLS + c);
      if (from !== undefined) y = from + (r - from) * (fallP * fallP);
      let x = c * CELL;
      let scale = 1;
      if (falling && anim?.kind === 'merge' && anim.at[0] === r && anim.at[1] === c) scale = 1 + 0.15 * Math.sin(Math.PI * fallP);
      if (anim?.kind === 'shake' && anim.r === r && anim.c === c && t < SHAKE_MS) x += Math.sin((t / SHAKE_MS) * Math.PI * 4) * 5;
      drawTile(x, HEADER + y * CELL, l, scale);
    }
  ctx.restore();
}

function draw(now: number): void {
  const s = w.mergeDouble;
  drawHeader(s);
  drawBoard(now);
  board.drawEndCard(s.gameOver, s.movesLeft <= 0 ? 'Out of moves' : 'No pairs left', `Score ${s.score} · level ${s.level}`);
}

board.start((a) => (a.kind === 'shake' ? SHAKE_MS : GATHER_MS + FALL_MS), draw);
