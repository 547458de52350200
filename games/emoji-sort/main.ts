import { createCanvas2d, toGameCoords, drawStripBanner, drawGameOverCard, paintSprite } from '../shared/canvas';
import type { MoveLimits } from '../shared/level-puzzle';
import { heartPath, roundedSquarePath, starPath } from '../shared/paths';
import { CAP, TUBES, applyMove, canMove, generateLevel, isFullSet, isSolved, legalMoves, levelKinds, moveLimit, type Tubes } from './logic';

/**
 * Emoji sort: eight tubes of stacked emoji faces. Click a tube to pick up its top run, click
 * another to pour it there (onto the same face, or into an empty tube). Sorting every face
 * into its own tube solves the level and deals a harder one with more kinds of face. Each level
 * is checked solvable by a solver when it is dealt and allows that solution's length plus twelve
 * moves; running out of moves, or of legal moves, ends the game.
 */

const W = 480;
const H = 360;
const SLOT = W / TUBES;
const TUBE_W = 46;
const ITEM = 40;
const TUBE_TOP = 118;
const TUBE_H = CAP * ITEM + 14;
const MOVE_MS = 140;
const POINTS_PER_TUBE = 10;
const POINTS_PER_LEVEL = 100;

interface SortState extends MoveLimits {
  kinds: number;
  tubes: Tubes;
  selected: number;
  /** Length of the solver's solution when the level was dealt. */
  par: number;
  /** Kinds whose full tube has already scored on this level. */
  completed: boolean[];
  solved: number;
}

const { canvas, ctx: screen, width, height, pixelRatio } = createCanvas2d('Emoji Sort', W, H);
/** Where drawing goes: the screen, or an offscreen sprite while one is painted. */
let ctx: CanvasRenderingContext2D = screen;

function deal(s: SortState, n: number): void {
  const lv = generateLevel(n, Math.random);
  s.level = n;
  s.kinds = levelKinds(n);
  s.tubes = lv.tubes;
  s.selected = -1;
  s.moves = 0;
  s.par = lv.solution.length;
  s.moveLimit = moveLimit(lv.solution.length);
  s.completed = new Array<boolean>(s.kinds).fill(false);
}

function newGame(): SortState {
  const s = { score: 0, solved: 0, gameOver: false } as SortState;
  deal(s, 1);
  return s;
}

const w = window as unknown as { emojiSort: SortState };
w.emojiSort = newGame();
let dirty = true;
let flight: { kind: number; count: number; from: number; to: number; fromHeight: number; toHeight: number; start: number } | null = null;
let banner: { text: string; until: number } | null = null;

function pour(from: number, to: number): void {
  const s = w.emojiSort;
  const fromHeight = s.tubes[from].length;
  const toHeight = s.tubes[to].length;
  const r = applyMove(s.tubes, from, to);
  flight = { kind: s.tubes[from][fromHeight - 1], count: r.moved, from, to, fromHeight, toHeight, start: performance.now() };
  s.tubes = r.tubes;
  s.moves++;
  for (const t of s.tubes) {
    if (isFullSet(t) && !s.completed[t[0]]) {
      s.completed[t[0]] = true;
      s.score += POINTS_PER_TUBE;
    }
  }
  if (isSolved(s.tubes)) {
    s.score += POINTS_PER_LEVEL;
    s.solved++;
    banner = { text: `Level ${s.level} sorted! +${POINTS_PER_LEVEL}`, until: performance.now() + 1000 };
    flight = null;
    deal(s, s.level + 1);
    return;
  }
  if (s.moves >= s.moveLimit || legalMoves(s.tubes).length === 0) s.gameOver = true;
}

function clickTube(i: number): void {
  const s = w.emojiSort;
  if (s.gameOver || i < 0 || i >= TUBES) return;
  dirty = true;
  if (s.selected < 0) {
    if (s.tubes[i].length) s.selected = i;
  } else if (s.selected === i) {
    s.selected = -1;
  } else if (canMove(s.tubes, s.selected, i)) {
    const from = s.selected;
    s.selected = -1;
    pour(from, i);
  } else {
    s.selected = s.tubes[i].length ? i : -1;
  }
}

function restart(): void {
  w.emojiSort = newGame();
  flight = null;
  banner = null;
  dirty = true;
}

window.addEventListener('keydown', (e) => {
  if (e.key >= '1' && e.key <= String(TUBES)) clickTube(Number(e.key) - 1);
  else if (e.key === 'Escape') {
    if (w.emojiSort.gameOver) return;
    w.emojiSort.selected = -1;
    dirty = true;
  } else if (e.key === 'Enter' && w.emojiSort.gameOver) restart();
  else return;
  e.preventDefault();
});

/** The tube under a pointer event, or -1 above or below the tubes. */
function tubeAt(e: PointerEvent): number {
  const p = toGameCoords(canvas, width, height, e);
  if (p.y < TUBE_TOP - 60 || p.y > TUBE_TOP + TUBE_H + 30) return -1;
  return Math.floor(p.x / SLOT);
}

/** The tube whose faces the pointer picked up and still holds, or -1. */
let dragFrom = -1;

canvas.addEventListener('pointerdown', (e) => {
  const i = tubeAt(e);
  dragFrom = -1;
  if (i < 0) return;
  clickTube(i);
  if (w.emojiSort.selected === i) dragFrom = i;
});

// Let go over another tube: a drag is a whole move. The faces pour there if they fit, else they
// go back, so a drag that cannot pour leaves the game as it was. Let go where they were picked
// up, it was a click: they stay picked up for the next one.
canvas.addEventListener('pointerup', (e) => {
  const from = dragFrom;
  dragFrom = -1;
  const s = w.emojiSort;
  const to = tubeAt(e);
  if (from < 0 || to < 0 || to === from || to >= TUBES || s.selected !== from || s.gameOver) return;
  if (canMove(s.tubes, from, to)) clickTube(to);
  else {
    s.selected = -1;
    dirty = true;
  }
});

// --- Drawing: emoji faces of six colours and shapes.

const FILL = ['#ff5a5f', '#ff9f1c', '#ffd23f', '#3ec46d', '#3a86ff', '#b15eff'];
const EDGE = ['#b8292e', '#b86a00', '#b89400', '#1f8a45', '#1d56b8', '#7420c0'];

function shape(kind: number, cx: number, cy: number, r: number): void {
  ctx.beginPath();
  if (kind === 0) ctx.arc(cx, cy, r, 0, Math.PI * 2);
  else if (kind === 1) {
    roundedSquarePath(ctx, cx, cy, r * 0.88, r * 0.35);
  } else if (kind === 2) {
    starPath(ctx, cx, cy, r * 0.62, r * 1.08);
  } else if (kind === 3) {
    // A rounded triangle.
    ctx.moveTo(cx, cy - r * 1.02);
    ctx.quadraticCurveTo(cx + r * 0.2, cy - r * 0.9, cx + r * 1.0, cy + r * 0.7);
    ctx.quadraticCurveTo(cx + r * 0.95, cy + r * 0.9, cx, cy + r * 0.88);
    ctx.quadraticCurveTo(cx - r * 0.95, cy + r * 0.9, cx - r * 1.0, cy + r * 0.7);
    ctx.quadraticCurveTo(cx - r * 0.2, cy - r * 0.9, cx, cy - r * 1.02);
  } else if (kind === 4) {
    for (let i = 0; i < 6; i++) {
      const a = (i * Math.PI) / 3;
      ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  } else {
    heartPath(ctx, cx, cy, r, { tip: 0.95, wide: 1.35, low: 0.05, narrow: 0.65, high: 1.15 });
  }
  ctx.closePath();
}

/** Each kind has its own expression, so faces differ without colour too. */
function face(kind: number, cx: number, cy: number, r: number): void {
  const ink = '#2b1d0e';
  ctx.fillStyle = ink;
  ctx.strokeStyle = ink;
  ctx.lineWidth = Math.max(1.5, r * 0.12);
  ctx.lineCap = 'round';
  const ex = r * 0.32,
    ey = cy - r * 0.12,
    er = r * 0.11;
  const eyes = () => {
    ctx.beginPath();
    ctx.arc(cx - ex, ey, er, 0, Math.PI * 2);
    ctx.arc(cx + ex, ey, er, 0, Math.PI * 2);
    ctx.fill();
  };
  ctx.beginPath();
  if (kind === 0) {
    eyes();
    ctx.beginPath();
    ctx.arc(cx, cy + r * 0.05, r * 0.38, 0.15 * Math.PI, 0.85 * Math.PI);
    ctx.stroke();
  } else if (kind === 1) {
    // Grin with teeth.
    eyes();
    ctx.beginPath();
    ctx.moveTo(cx - r * 0.4, cy + r * 0.22);
    ctx.quadraticCurveTo(cx, cy + r * 0.7, cx + r * 0.4, cy + r * 0.22);
    ctx.closePath();
    ctx.fillStyle = '#ffffff';
    ctx.fill();
    ctx.stroke();
  } else if (kind === 2) {
    // Wink.
    ctx.beginPath();
    ctx.arc(cx - ex, ey, er, 0, Math.PI * 2);
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(cx + ex - er * 1.4, ey);
    ctx.lineTo(cx + ex + er * 1.4, ey);
    ctx.moveTo(cx - r * 0.25, cy + r * 0.3);
    ctx.quadraticCurveTo(cx, cy + r * 0.5, cx + r * 0.25, cy + r * 0.3);
    ctx.stroke();
  } else if (kind === 3) {
    // Surprised.
    eyes();
    ctx.beginPath();
    ctx.arc(cx, cy + r * 0.35, r * 0.14, 0, Math.PI * 2);
    ctx.fill();
  } else if (kind === 4) {
    // Cool: sunglasses.
    ctx.fillRect(cx - r * 0.6, ey - r * 0.14, r * 0.5, r * 0.28);
    ctx.fillRect(cx + r * 0.1, ey - r * 0.14, r * 0.5, r * 0.28);
    ctx.fillRect(cx - r * 0.15, ey - r * 0.08, r * 0.3, r * 0.07);
    ctx.beginPath();
    ctx.moveTo(cx - r * 0.25, cy + r * 0.32);
    ctx.lineTo(cx + r * 0.25, cy + r * 0.28);
    ctx.stroke();
  } else {
    // Happy closed eyes and a tongue.
    ctx.beginPath();
    ctx.arc(cx - ex, ey + er, er * 1.3, Math.PI * 1.1, Math.PI * 1.9);
    ctx.moveTo(cx + ex + er * 1.2, ey + er * 0.6);
    ctx.arc(cx + ex, ey + er, er * 1.3, Math.PI * 1.9, Math.PI * 1.1, true);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy + r * 0.22, r * 0.28, 0, Math.PI);
    ctx.fill();
    ctx.fillStyle = '#ff7aa2';
    ctx.beginPath();
    ctx.arc(cx, cy + r * 0.38, r * 0.12, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.lineCap = 'butt';
  ctx.lineWidth = 1;
}

// Each face is painted once into an offscreen sprite; frames only copy images.
const sprites = new Map<number, HTMLCanvasElement>();
function drawItem(kind: number, cx: number, cy: number): void {
  let sp = sprites.get(kind);
  if (!sp) {
    sp = paintSprite(pixelRatio, ITEM, ITEM, (g) => {
      ctx = g;
      paintItem(kind, ITEM / 2, ITEM / 2);
      ctx = screen;
    });
    sprites.set(kind, sp);
  }
  ctx.drawImage(sp, cx - ITEM / 2, cy - ITEM / 2, ITEM, ITEM);
}

function paintItem(kind: number, cx: number, cy: number): void {
  const r = ITEM * 0.42;
  shape(kind, cx, cy, r);
  ctx.fillStyle = FILL[kind];
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = EDGE[kind];
  ctx.stroke();
  face(kind, cx, cy, r);
}

const slotX = (i: number) => i * SLOT + SLOT / 2;
const itemY = (level: number) => TUBE_TOP + TUBE_H - 8 - ITEM / 2 - level * ITEM;
/** How far a picked-up run rises: its top face hovers just above the tube's mouth. */
const lift = (height: number) => itemY(height - 1) - (TUBE_TOP - ITEM / 2 - 6);

function drawTube(i: number, s: SortState, hideTop: number): void {
  const cx = slotX(i);
  const x = cx - TUBE_W / 2;
  const done = isFullSet(s.tubes[i]);
  ctx.fillStyle = done ? 'rgba(62,196,109,0.18)' : 'rgba(255,255,255,0.06)';
  ctx.strokeStyle = i === s.selected ? '#ffd23f' : done ? '#3ec46d' : '#8895b3';
  ctx.lineWidth = i === s.selected ? 3 : 2;
  ctx.beginPath();
  ctx.moveTo(x, TUBE_TOP);
  ctx.lineTo(x, TUBE_TOP + TUBE_H - TUBE_W / 2);
  ctx.arc(cx, TUBE_TOP + TUBE_H - TUBE_W / 2, TUBE_W / 2, Math.PI, 0, true);
  ctx.lineTo(x + TUBE_W, TUBE_TOP);
  ctx.fill();
  ctx.stroke();
  ctx.lineWidth = 1;
  const t = s.tubes[i];
  const lifted = i === s.selected ? topRunLength(t) : 0;
  for (let k = 0; k < t.length - hideTop; k++) {
    const up = k >= t.length - lifted ? lift(t.length) : 0;
    drawItem(t[k], cx, itemY(k) - up);
  }
  ctx.fillStyle = '#8895b3';
  ctx.font = '12px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(String(i + 1), cx, TUBE_TOP + TUBE_H + 16);
  ctx.textAlign = 'start';
}

function topRunLength(t: number[]): number {
  let n = t.length ? 1 : 0;
  while (n < t.length && t[t.length - 1 - n] === t[t.length - 1]) n++;
  return n;
}

function draw(now: number): void {
  requestAnimationFrame(draw);
  if (flight && now - flight.start >= MOVE_MS) {
    flight = null;
    dirty = true;
  }
  if (banner && now >= banner.until) {
    banner = null;
    dirty = true;
  }
  if (!dirty && !flight) return;
  dirty = false;
  const s = w.emojiSort;
  ctx.fillStyle = '#1a1530';
  ctx.fillRect(0, 0, width, height);
  ctx.textBaseline = 'middle';
  for (let i = 0; i < TUBES; i++) drawTube(i, s, flight && flight.to === i ? flight.count : 0);
  if (flight) {
    // The poured items arc from the source's top to their places in the target.
    const t = Math.min(1, (now - flight.start) / MOVE_MS);
    for (let k = 0; k < flight.count; k++) {
      const x0 = slotX(flight.from),
        y0 = itemY(flight.fromHeight - 1 - k) - lift(flight.fromHeight);
      const x1 = slotX(flight.to),
        y1 = itemY(flight.toHeight + k);
      const x = x0 + (x1 - x0) * t;
      const y = y0 + (y1 - y0) * t - Math.sin(Math.PI * t) * 50;
      drawItem(flight.kind, x, y);
    }
  }

  // HUD.
  ctx.fillStyle = '#f2eefe';
  ctx.font = 'bold 18px sans-serif';
  ctx.textAlign = 'start';
  ctx.fillText(`Level ${s.level}`, 14, 24);
  ctx.fillText(`Score ${s.score}`, 130, 24);
  const left = s.moveLimit - s.moves;
  ctx.fillStyle = left <= 4 ? '#ff7b7b' : '#f2eefe';
  ctx.fillText(`Moves left ${left}`, 270, 24);
  ctx.fillStyle = '#8895b3';
  ctx.font = '13px sans-serif';
  ctx.fillText(`par ${s.par}`, 420, 24);
  ctx.fillText('Sort each face into its own tube', 14, 52);

  if (banner && !s.gameOver) drawStripBanner(ctx, W, H, banner.text, { shade: 'rgba(0,0,0,0.6)', color: '#ffd23f' });
  if (s.gameOver)
    drawGameOverCard(ctx, W, H, {
      title: 'Game over',
      titleFont: 'bold 28px sans-serif',
      line: `Score ${s.score} · ${s.solved} level${s.solved === 1 ? '' : 's'} sorted`,
    });
}

requestAnimationFrame(draw);
