import { drawStatBox, drawText } from '../shared/canvas';
import { TAP_BOARD, TapBoard } from '../shared/tap-board';
import { COLS, ROWS, TOP_GEM, applyPlace, newState, spawnRange, type Board, type Gem11State, type MergeStep } from './logic';

/**
 * Gem-11: place the incoming gem on a free cell of a 5×5 board; three or more equal gems
 * that touch fuse into one gem of the next value on the cell just played, and fusions chain.
 * An 11 scores a big bonus and bursts. The board filling up ends the game.
 * The logical board changes at once; the drop, fusions and burst are drawn afterwards, and
 * a click during an animation acts on the settled board and replaces the animation.
 */

const { width: WIDTH, height: HEIGHT, header: HEADER, cell: CELL } = TAP_BOARD;
const PLACE_MS = 50;
const MERGE_MS = 50;
const BURST_MS = 90;

interface Anim {
  start: number;
  r: number;
  c: number;
  value: number;
  /** boards[k]: the board before fusion k (boards[0] holds the placed gem). */
  boards: Board[];
  steps: MergeStep[];
  madeTop: boolean;
  end: number;
}

const board = new TapBoard<Anim>('Gem 11', ROWS, COLS, { shade: 'rgba(8,6,16,0.74)', buttonFill: '#ffd700', buttonText: '#1b1530' });
const ctx = board.ctx;

const w = window as unknown as { gem11: Gem11State };
w.gem11 = newState(Math.random);

function clickCell(r: number, c: number): void {
  const s = w.gem11;
  if (s.gameOver) return;
  const value = s.next;
  const before = s.board.map((row) => row.slice());
  const p = applyPlace(s, r, c, Math.random);
  if (!p) return;
  const boards: Board[] = [];
  const b = before;
  b[r][c] = value;
  boards.push(b.map((row) => row.slice()));
  for (const m of p.merges) {
    for (const [y, x] of m.cells) b[y][x] = 0;
    b[r][c] = m.made < TOP_GEM ? m.made : 0;
    boards.push(b.map((row) => row.slice()));
  }
  const end = PLACE_MS + p.merges.length * MERGE_MS + (p.madeTop ? BURST_MS : 0);
  board.play({ start: performance.now(), r, c, value, boards, steps: p.merges, madeTop: p.madeTop, end });
}

function restart(): void {
  w.gem11 = newState(Math.random);
  board.play(null);
}

board.bindInput(() => w.gem11.gameOver, restart, clickCell);

// ---- drawing ----

const GEM_COLORS = ['', '#e5484d', '#f76b15', '#ffc53d', '#46a758', '#12a594', '#0090ff', '#3e63dd', '#8e4ec6', '#d6409f', '#c2c8d0', '#ffd700'];
const GEM_SIDES = [0, 3, 4, 5, 6, 8, 3, 4, 5, 6, 8, 10];

function polygon(g: CanvasRenderingContext2D, cx: number, cy: number, radius: number, sides: number, rotation: number, star = false): void {
  g.beginPath();
  const n = star ? sides * 2 : sides;
  for (let i = 0; i < n; i++) {
    const a = rotation + (i * Math.PI * 2) / n;
    const rr = star && i % 2 ? radius * 0.5 : radius;
    const x = cx + Math.cos(a) * rr;
    const y = cy + Math.sin(a) * rr;
    if (i === 0) g.moveTo(x, y);
    else g.lineTo(x, y);
  }
  g.closePath();
}

/** A faceted gem of radius 32 centred in a CELL × CELL sprite. */
function paintGem(g: CanvasRenderingContext2D, v: number): void {
  const cx = CELL / 2;
  const cy = CELL / 2;
  const sides = GEM_SIDES[v];
  const radius = 32;
  const rot = -Math.PI / 2;
  const star = v === TOP_GEM;
  g.fillStyle = 'rgba(0,0,0,0.3)';
  polygon(g, cx, cy + 3, radius, sides, rot, star);
  g.fill();
  g.fillStyle = GEM_COLORS[v];
  polygon(g, cx, cy, radius, sides, rot, star);
  g.fill();
  // Facets: a lighter table in the middle and lines out to the girdle.
  g.fillStyle = 'rgba(255,255,255,0.28)';
  polygon(g, cx, cy - 2, radius * 0.55, sides, rot, star);
  g.fill();
  g.strokeStyle = 'rgba(255,255,255,0.35)';
  g.lineWidth = 1.5;
  const n = star ? sides * 2 : sides;
  g.beginPath();
  for (let i = 0; i < n; i++) {
    const a = rot + (i * Math.PI * 2) / n;
    const rr = star && i % 2 ? 0.5 : 1;
    g.moveTo(cx + Math.cos(a) * radius * 0.55 * rr, cy - 2 + Math.sin(a) * radius * 0.55 * rr);
    g.lineTo(cx + Math.cos(a) * radius * rr, cy + Math.sin(a) * radius * rr);
  }
  g.stroke();
  g.font = 'bold 22px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.lineWidth = 4;
  g.strokeStyle = 'rgba(20,20,35,0.8)';
  g.strokeText(String(v), cx, cy + 1);
  g.fillStyle = '#ffffff';
  g.fillText(String(v), cx, cy + 1);
}

/** Each gem value is drawn once into an off-screen sprite; frames then only copy sprites. */
const sprites = new Map<number, HTMLCanvasElement>();

function drawGem(cx: number, cy: number, value: number, scale = 1, alpha = 1): void {
  const v = Math.max(1, Math.min(TOP_GEM, value));
  let sprite = sprites.get(v);
  if (!sprite) {
    sprite = board.sprite(CELL, CELL, (g) => paintGem(g, v));
    sprites.set(v, sprite);
  }
  const size = CELL * scale;
  ctx.globalAlpha = alpha;
  ctx.drawImage(sprite, cx - size / 2, cy - size / 2, size, size);
  ctx.globalAlpha = 1;
}

let boardImage: HTMLCanvasElement | null = null;

const centerX = (c: number) => c * CELL + CELL / 2;
const centerY = (r: number) => HEADER + r * CELL + CELL / 2;

function drawHeader(s: Gem11State): void {
  ctx.fillStyle = '#1b1530';
  ctx.fillRect(0, 0, WIDTH, HEADER);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  drawText(ctx, 'Gem 11', 12, 26, { color: '#ffd700', font: 'bold 26px sans-serif' });
  const [lo, hi] = spawnRange(s.bestGem);
  drawText(ctx, `Best ${s.bestGem} · gems ${lo}–${hi} · 11s ${s.elevens}`, 12, 58, { color: '#bfb6dc', font: '13px sans-serif' });
  drawStatBox(ctx, { x: 196, y: 10, w: 86, h: 60 }, 'SCORE', String(s.score), {
    fill: '#2b2348',
    label: { color: '#9f95c6', font: 'bold 11px sans-serif' },
    value: { color: '#ffffff', font: 'bold 21px sans-serif', dy: 39 },
  });
  ctx.fillStyle = '#2b2348';
  ctx.beginPath();
  ctx.roundRect(290, 6, 104, 68, 8);
  ctx.fill();
  ctx.fillStyle = '#9f95c6';
  ctx.font = 'bold 11px sans-serif';
  ctx.fillText('NEXT', 316, 40);
  if (!s.gameOver) drawGem(360, 40, s.next, 0.85);
}

function drawBoard(now: number): void {
  const s = w.gem11;
  boardImage ??= board.sprite(WIDTH, HEIGHT - HEADER, (g) => {
    for (let r = 0; r < ROWS; r++)
      for (let c = 0; c < COLS; c++) {
        g.fillStyle = (r + c) % 2 ? '#1d1736' : '#221b3f';
        g.fillRect(c * CELL, r * CELL, CELL, CELL);
      }
  });
  ctx.drawImage(boardImage, 0, HEADER, WIDTH, HEIGHT - HEADER);
  const anim = board.anim;
  const t = anim ? now - anim.start : Infinity;
  if (!anim || t >= anim.end) {
    for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) if (s.board[r][c]) drawGem(centerX(c), centerY(r), s.board[r][c]);
    return;
  }
  const a = anim;
  if (t < PLACE_MS) {
    const b = a.boards[0];
    for (let r = 0; r < ROWS; r++)
      for (let c = 0; c < COLS; c++) {
        if (!b[r][c]) continue;
        const placed = r === a.r && c === a.c;
        drawGem(centerX(c), centerY(r), b[r][c], placed ? 0.4 + 0.6 * (t / PLACE_MS) : 1);
      }
    return;
  }
  const k = Math.floor((t - PLACE_MS) / MERGE_MS);
  if (k < a.steps.length) {
    // Fusion k: the group's gems glide into the played cell.
    const p = (t - PLACE_MS - k * MERGE_MS) / MERGE_MS;
    const step = a.steps[k];
    const moving = new Set(step.cells.map(([y, x]) => y * COLS + x));
    const b = a.boards[k];
    for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) if (b[r][c] && !moving.has(r * COLS + c)) drawGem(centerX(c), centerY(r), b[r][c]);
    for (const [y, x] of step.cells) {
      const cx = centerX(x) + (centerX(a.c) - centerX(x)) * p;
      const cy = centerY(y) + (centerY(a.r) - centerY(y)) * p;
      drawGem(cx, cy, step.value, 1 - 0.3 * p, 1 - 0.5 * p);
    }
    return;
  }
  // The settled board, with an 11 bursting on the played cell.
  for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) if (s.board[r][c]) drawGem(centerX(c), centerY(r), s.board[r][c]);
  const p = (t - PLACE_MS - a.steps.length * MERGE_MS) / BURST_MS;
  const cx = centerX(a.c);
  const cy = centerY(a.r);
  drawGem(cx, cy, TOP_GEM, 1 + p, 1 - p);
  ctx.strokeStyle = `rgba(255,215,0,${1 - p})`;
  ctx.lineWidth = 3;
  ctx.beginPath();
  for (let i = 0; i < 12; i++) {
    const ang = (i * Math.PI) / 6;
    ctx.moveTo(cx + Math.cos(ang) * 30 * (1 + p), cy + Math.sin(ang) * 30 * (1 + p));
    ctx.lineTo(cx + Math.cos(ang) * 60 * (1 + p), cy + Math.sin(ang) * 60 * (1 + p));
  }
  ctx.stroke();
}

function draw(now: number): void {
  const s = w.gem11;
  drawHeader(s);
  drawBoard(now);
  board.drawEndCard(s.gameOver, 'Board full', `Score ${s.score} · best gem ${s.bestGem}`);
}

board.start((a) => a.end, draw);
