import { createCanvas2d, drawGameOverCard, drawStripBanner, paintSprite, toGameCoords } from '../shared/canvas';
import { heartPath, roundedSquarePath, starPath } from '../shared/paths';
import {
  BOMB,
  COL_BLASTER,
  ROW_BLASTER,
  SIZE,
  adjacent,
  cloneBoard,
  colourOf,
  hasMove,
  levelGoal,
  newBoard,
  specialOf,
  trySwap,
  type Board,
  type Cell,
  type Wave,
} from './logic';

/**
 * Match-3: swap neighbouring candies on an 8×8 board to line up three or more of a colour.
 * Each level asks for a target score within a number of swaps; reaching it starts the next
 * level (higher target) on the same board, running out of swaps below it ends the game.
 * The rules resolve a swap at once; the swap, clearing and falling are then animated over
 * time, and any new input skips the rest of the animation.
 */

const W = 400;
const H = 460;
const CELL = 48;
const BX = 8;
const BY = 68;
const SWAP_MS = 100;
const CLEAR_MS = 90;
const FALL_MS = 120;

interface Match3State {
  size: number;
  board: Board;
  cursor: Cell;
  /** A candy picked by a click or tap, waiting for a neighbour to swap with. */
  picked: Cell | null;
  score: number;
  level: number;
  target: number;
  levelScore: number;
  movesLeft: number;
  swaps: number;
  invalidSwaps: number;
  lastChain: number;
  shuffles: number;
  gameOver: boolean;
}

const { canvas, ctx: screen, width, height, pixelRatio } = createCanvas2d('Match 3', W, H);
/** Where the candy and board art is drawn: the screen, or an offscreen sprite while one is made. */
let ctx: CanvasRenderingContext2D = screen;

function newGame(): Match3State {
  const goal = levelGoal(1);
  return {
    size: SIZE,
    board: newBoard(Math.random),
    cursor: [Math.floor(SIZE / 2), Math.floor(SIZE / 2)],
    picked: null,
    score: 0,
    level: 1,
    target: goal.target,
    levelScore: 0,
    movesLeft: goal.moves,
    swaps: 0,
    invalidSwaps: 0,
    lastChain: 0,
    shuffles: 0,
    gameOver: false,
  };
}

const w = window as unknown as { match3: Match3State };
w.match3 = newGame();
let dirty = true;

// --- Animation: a queue of phases played back over time.
type Phase =
  | { kind: 'swap'; board: Board; a: Cell; b: Cell; back: boolean; ms: number }
  | { kind: 'clear'; wave: Wave; ms: number }
  | { kind: 'fall'; wave: Wave; ms: number };
let phases: Phase[] = [];
let phaseStart = 0;
let banner: { text: string; until: number } | null = null;

function play(list: Phase[]): void {
  phases = list;
  phaseStart = performance.now();
  dirty = true;
}

function skipAnimation(): void {
  phases = [];
  dirty = true;
}

function swap(a: Cell, b: Cell): void {
  const s = w.match3;
  if (s.gameOver || !adjacent(a, b)) return;
  skipAnimation();
  s.picked = null;
  const before = cloneBoard(s.board);
  const r = trySwap(s.board, a, b, Math.random);
  if (!r) {
    s.invalidSwaps++;
    play([{ kind: 'swap', board: before, a, b, back: true, ms: 2 * SWAP_MS }]);
    return;
  }
  s.board = r.board;
  s.score += r.points;
  s.levelScore += r.points;
  s.movesLeft--;
  s.swaps++;
  s.lastChain = r.waves.length;
  const list: Phase[] = [{ kind: 'swap', board: before, a, b, back: false, ms: SWAP_MS }];
  for (const wave of r.waves) list.push({ kind: 'clear', wave, ms: CLEAR_MS }, { kind: 'fall', wave, ms: FALL_MS });
  if (s.levelScore >= s.target) {
    s.level++;
    const goal = levelGoal(s.level);
    s.target = goal.target;
    s.levelScore = 0;
    s.movesLeft = goal.moves;
    banner = { text: `Level ${s.level}!`, until: performance.now() + 1000 };
  } else if (s.movesLeft <= 0) {
    s.gameOver = true;
  }
  if (!s.gameOver && !hasMove(s.board)) {
    s.board = newBoard(Math.random);
    s.shuffles++;
    banner = { text: 'No moves: new board', until: performance.now() + 1000 };
  }
  play(list);
}

function moveCursor(dr: number, dc: number): void {
  const s = w.match3;
  if (s.gameOver) return;
  s.cursor = [Math.max(0, Math.min(SIZE - 1, s.cursor[0] + dr)), Math.max(0, Math.min(SIZE - 1, s.cursor[1] + dc))];
  dirty = true;
}

function swapFromCursor(dr: number, dc: number): void {
  const s = w.match3;
  const [r, c] = s.cursor;
  const to: Cell = [r + dr, c + dc];
  if (to[0] < 0 || to[1] < 0 || to[0] >= SIZE || to[1] >= SIZE) return;
  swap([r, c], to);
}

function restart(): void {
  w.match3 = newGame();
  phases = [];
  banner = null;
  dirty = true;
}

const CURSOR_KEYS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const SWAP_KEYS: Record<string, [number, number]> = {
  w: [-1, 0],
  s: [1, 0],
  a: [0, -1],
  d: [0, 1],
  W: [-1, 0],
  S: [1, 0],
  A: [0, -1],
  D: [0, 1],
};
window.addEventListener('keydown', (e) => {
  if (CURSOR_KEYS[e.key]) moveCursor(...CURSOR_KEYS[e.key]);
  else if (SWAP_KEYS[e.key]) swapFromCursor(...SWAP_KEYS[e.key]);
  else if (e.key === 'Enter' && w.match3.gameOver) restart();
  else return;
  e.preventDefault();
});

// Pointer: drag a candy onto a neighbour, or click one candy and then a neighbour.
function cellAt(x: number, y: number): Cell | null {
  const c = Math.floor((x - BX) / CELL);
  const r = Math.floor((y - BY) / CELL);
  return r >= 0 && c >= 0 && r < SIZE && c < SIZE ? [r, c] : null;
}
let press: { cell: Cell; x: number; y: number } | null = null;
canvas.addEventListener('pointerdown', (e) => {
  const s = w.match3;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, width, height, e);
  const cell = cellAt(p.x, p.y);
  if (!cell) return;
  press = { cell, x: p.x, y: p.y };
  s.cursor = cell;
  dirty = true;
});
canvas.addEventListener('pointermove', (e) => {
  if (!press) return;
  const p = toGameCoords(canvas, width, height, e);
  const dx = p.x - press.x;
  const dy = p.y - press.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < CELL * 0.5) return;
  const from = press.cell;
  press = null;
  const to: Cell = Math.abs(dx) > Math.abs(dy) ? [from[0], from[1] + Math.sign(dx)] : [from[0] + Math.sign(dy), from[1]];
  if (to[0] >= 0 && to[1] >= 0 && to[0] < SIZE && to[1] < SIZE) swap(from, to);
});
canvas.addEventListener('pointerup', () => {
  if (!press) return;
  const s = w.match3;
  const cell = press.cell;
  press = null;
  if (s.picked && adjacent(s.picked, cell)) swap(s.picked, cell);
  else {
    s.picked = s.picked && s.picked[0] === cell[0] && s.picked[1] === cell[1] ? null : cell;
    dirty = true;
  }
});

// --- Drawing.

const FILL = ['#e74c3c', '#f39c12', '#f7dc30', '#2ecc71', '#3498db', '#9b59b6'];
const EDGE = ['#922b21', '#9c640c', '#9a7d0a', '#1d8348', '#1f618d', '#5b2c6f'];

function shapePath(colour: number, cx: number, cy: number, r: number): void {
  ctx.beginPath();
  if (colour === 0) ctx.arc(cx, cy, r, 0, Math.PI * 2);
  else if (colour === 1) {
    roundedSquarePath(ctx, cx, cy, r * 0.85, r * 0.3);
  } else if (colour === 2) {
    starPath(ctx, cx, cy, r * 0.48, r * 1.05);
  } else if (colour === 3) {
    ctx.moveTo(cx, cy - r * 1.05);
    ctx.lineTo(cx + r * 0.9, cy);
    ctx.lineTo(cx, cy + r * 1.05);
    ctx.lineTo(cx - r * 0.9, cy);
  } else if (colour === 4) {
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 6 + (i * Math.PI) / 3;
      ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  } else {
    heartPath(ctx, cx, cy, r, { tip: 0.9, wide: 1.3, low: 0.1, narrow: 0.6, high: 1.1 });
  }
  ctx.closePath();
}

function paintCandy(v: number, cx: number, cy: number): void {
  const scale = 1;
  const colour = colourOf(v);
  const sp = specialOf(v);
  const r = CELL * 0.36 * scale;
  shapePath(colour, cx, cy, r);
  ctx.fillStyle = FILL[colour];
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = EDGE[colour];
  ctx.stroke();
  ctx.fillStyle = 'rgba(255,255,255,0.45)';
  ctx.beginPath();
  ctx.arc(cx - r * 0.3, cy - r * 0.35, r * 0.2, 0, Math.PI * 2);
  ctx.fill();
  if (sp === ROW_BLASTER || sp === COL_BLASTER) {
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    for (const k of [-0.35, 0, 0.35]) {
      if (sp === ROW_BLASTER) {
        ctx.moveTo(cx - r * 0.7, cy + k * r);
        ctx.lineTo(cx + r * 0.7, cy + k * r);
      } else {
        ctx.moveTo(cx + k * r, cy - r * 0.7);
        ctx.lineTo(cx + k * r, cy + r * 0.7);
      }
    }
    ctx.stroke();
  } else if (sp === BOMB) {
    ctx.fillStyle = '#1b1f27';
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.45, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (let i = 0; i < 4; i++) {
      const a = (i * Math.PI) / 4;
      ctx.moveTo(cx - Math.cos(a) * r * 0.3, cy - Math.sin(a) * r * 0.3);
      ctx.lineTo(cx + Math.cos(a) * r * 0.3, cy + Math.sin(a) * r * 0.3);
    }
    ctx.stroke();
  }
  ctx.lineWidth = 1;
}

// Candies are painted once per kind into offscreen sprites; a frame then only copies images.
const sprites = new Map<number, HTMLCanvasElement>();
function sprite(v: number): HTMLCanvasElement {
  let c = sprites.get(v);
  if (!c) {
    c = paintSprite(pixelRatio, CELL, CELL, (g) => {
      ctx = g;
      paintCandy(v, CELL / 2, CELL / 2);
      ctx = screen;
    });
    sprites.set(v, c);
  }
  return c;
}

function drawCandy(v: number, cx: number, cy: number, scale = 1): void {
  if (v < 0 || scale <= 0.02) return;
  const size = CELL * scale;
  ctx.drawImage(sprite(v), cx - size / 2, cy - size / 2, size, size);
}

let background: HTMLCanvasElement | null = null;
function drawBackground(): void {
  if (!background) {
    background = paintSprite(pixelRatio, SIZE * CELL, SIZE * CELL, (g) => {
      for (let r = 0; r < SIZE; r++) {
        for (let c = 0; c < SIZE; c++) {
          g.fillStyle = (r + c) % 2 ? '#2a2245' : '#312852';
          g.fillRect(c * CELL, r * CELL, CELL, CELL);
        }
      }
    });
  }
  ctx.drawImage(background, BX, BY, SIZE * CELL, SIZE * CELL);
}

const centre = (r: number, c: number): [number, number] => [BX + c * CELL + CELL / 2, BY + r * CELL + CELL / 2];

function drawBoard(b: Board, skip?: (r: number, c: number) => boolean): void {
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      if (skip && skip(r, c)) continue;
      drawCandy(b[r][c], ...centre(r, c));
    }
  }
}

function drawPhase(p: Phase, t: number): void {
  if (p.kind === 'swap') {
    const k = p.back ? (t < 0.5 ? t * 2 : 2 - t * 2) : t;
    const isA = (r: number, c: number) => (r === p.a[0] && c === p.a[1]) || (r === p.b[0] && c === p.b[1]);
    drawBoard(p.board, isA);
    const [ax, ay] = centre(...p.a);
    const [bx, by] = centre(...p.b);
    drawCandy(p.board[p.a[0]][p.a[1]], ax + (bx - ax) * k, ay + (by - ay) * k);
    drawCandy(p.board[p.b[0]][p.b[1]], bx + (ax - bx) * k, by + (ay - by) * k);
  } else if (p.kind === 'clear') {
    const cleared = (r: number, c: number) => p.wave.cleared[r * SIZE + c];
    drawBoard(p.wave.before, cleared);
    for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) if (cleared(r, c)) drawCandy(p.wave.before[r][c], ...centre(r, c), 1 - t);
    if (p.wave.multiplier > 1) {
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 28px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(`x${p.wave.multiplier}`, W / 2, BY + (SIZE * CELL) / 2);
      ctx.textAlign = 'start';
    }
  } else if (p.kind === 'fall') {
    const e = 1 - (1 - t) * (1 - t);
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const from = p.wave.fromRow[r][c];
        const [x, y] = centre(r, c);
        const y0 = BY + from * CELL + CELL / 2;
        drawCandy(p.wave.after[r][c], x, y0 + (y - y0) * e);
      }
    }
  }
}

function draw(now: number): void {
  requestAnimationFrame(draw);
  // Drop finished phases.
  while (phases.length && now - phaseStart >= phases[0].ms) {
    phaseStart += phases[0].ms;
    phases.shift();
    dirty = true;
  }
  if (banner && now >= banner.until) {
    banner = null;
    dirty = true;
  }
  if (!dirty && !phases.length) return;
  dirty = false;
  const s = w.match3;
  ctx.fillStyle = '#151026';
  ctx.fillRect(0, 0, width, height);
  drawBackground();
  ctx.save();
  ctx.beginPath();
  ctx.rect(BX, BY, SIZE * CELL, SIZE * CELL);
  ctx.clip();
  if (phases.length) drawPhase(phases[0], Math.min(1, (now - phaseStart) / phases[0].ms));
  else drawBoard(s.board);
  ctx.restore();

  // Cursor and picked candy.
  if (!s.gameOver) {
    const [cr, cc] = s.cursor;
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 3;
    ctx.strokeRect(BX + cc * CELL + 2.5, BY + cr * CELL + 2.5, CELL - 5, CELL - 5);
    if (s.picked) {
      ctx.strokeStyle = '#f7dc30';
      ctx.setLineDash([5, 4]);
      ctx.strokeRect(BX + s.picked[1] * CELL + 6.5, BY + s.picked[0] * CELL + 6.5, CELL - 13, CELL - 13);
      ctx.setLineDash([]);
    }
    ctx.lineWidth = 1;
  }

  // HUD: score, level, moves and a progress bar toward the level's target.
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'start';
  ctx.fillStyle = '#f2eefe';
  ctx.font = 'bold 17px sans-serif';
  ctx.fillText(`Score ${s.score}`, 10, 18);
  ctx.fillText(`Level ${s.level}`, 160, 18);
  ctx.fillStyle = s.movesLeft <= 3 ? '#ff7b7b' : '#f2eefe';
  ctx.fillText(`Moves ${s.movesLeft}`, 290, 18);
  ctx.fillStyle = '#2a2245';
  ctx.fillRect(10, 36, W - 20, 16);
  const f = Math.min(1, s.levelScore / s.target);
  ctx.fillStyle = '#2ecc71';
  ctx.fillRect(10, 36, (W - 20) * f, 16);
  ctx.fillStyle = '#f2eefe';
  ctx.font = 'bold 12px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(`${s.levelScore} / ${s.target}`, W / 2, 44);
  ctx.textAlign = 'start';

  if (banner && !s.gameOver) {
    drawStripBanner(ctx, W, H, banner.text, { shade: 'rgba(0,0,0,0.55)', color: '#f7dc30', y: BY + (SIZE * CELL) / 2, font: 'bold 26px sans-serif' });
  }
  if (s.gameOver) drawGameOverCard(ctx, W, H, { title: 'Out of moves', titleFont: 'bold 28px sans-serif', line: `Score ${s.score} · level ${s.level}` });
}

requestAnimationFrame(draw);
