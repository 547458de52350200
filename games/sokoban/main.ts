import { createCanvas2d, onPointerRelease, drawStripBanner, drawGameOverCard } from '../shared/canvas';
import type { MoveLimits } from '../shared/level-puzzle';
import { FRAME, frameOffset, generateLevel, isDeadlock, moveLimit, pushMoves, step, type Dir, type Level } from './logic';

/**
 * Box pushing. Every level is generated from the seed by reverse play (the boxes start on the
 * goals and are pulled away), so it is always solvable; levels grow bigger and hold more boxes
 * as they are solved. A box pushed into a dead position (an off-goal corner, or a 2×2 block of
 * boxes and walls) or running out of the level's moves costs one of three lives and resets the
 * level; losing the last life ends the game. Restarting a level by hand is free. Besides walking
 * step by step, a player can drag a box: the player walks round to it by the shortest way (each
 * step a move, as if walked by hand) and pushes it one cell.
 */

const W = 400;
const H = 440;
const HUD = 40;
const LIVES = 3;
const POINTS_PER_BOX = 10;
const POINTS_PER_LEVEL = 100;

/** The level being played (as generated, less its solution), its counters, and the game around it. */
interface SokobanState extends Omit<Level, 'solution'>, MoveLimits {
  startBoxes: number[];
  startPlayer: number;
  /** Boxes (by identity) that have already earned their first-time-on-a-goal points. */
  scored: boolean[];
  pushes: number;
  lives: number;
  solved: number;
  /** Why the last life was lost: 'deadlock' or 'moves' (empty when none yet). */
  lastLoss: string;
  /** Free restarts of a level (R). */
  restarts: number;
}

const { canvas, ctx, width, height } = createCanvas2d('Sokoban', W, H);

function loadLevel(s: SokobanState, n: number): void {
  const lv = generateLevel(n, Math.random);
  const goals = new Set(lv.goals);
  s.level = n;
  s.w = lv.w;
  s.h = lv.h;
  s.walls = lv.walls;
  s.goals = lv.goals;
  s.boxes = lv.boxes.slice();
  s.player = lv.player;
  s.startBoxes = lv.boxes.slice();
  s.startPlayer = lv.player;
  // A box the generator could not pull off its goal earns nothing.
  s.scored = lv.boxes.map((b) => goals.has(b));
  s.moves = 0;
  s.moveLimit = moveLimit(lv);
}

function newGame(): SokobanState {
  const s = {
    score: 0,
    lives: LIVES,
    solved: 0,
    pushes: 0,
    restarts: 0,
    gameOver: false,
    lastLoss: '',
  } as SokobanState;
  loadLevel(s, 1);
  return s;
}

const w = window as unknown as { sokoban: SokobanState };
w.sokoban = newGame();
let dirty = true;
let history: { player: number; boxes: number[] }[] = [];
let banner: { text: string; color: string; until: number } | null = null;

function showBanner(text: string, color: string): void {
  banner = { text, color, until: performance.now() + 900 };
  dirty = true;
}

function resetLevel(s: SokobanState): void {
  s.boxes = s.startBoxes.slice();
  s.player = s.startPlayer;
  s.moves = 0;
  history = [];
}

function restartLevel(): void {
  const s = w.sokoban;
  if (s.gameOver) return;
  resetLevel(s);
  s.restarts++;
  showBanner('Level restarted', '#f4d03f');
}

function loseLife(reason: 'deadlock' | 'moves'): void {
  const s = w.sokoban;
  s.lives--;
  s.lastLoss = reason;
  if (s.lives <= 0) {
    s.gameOver = true;
  } else {
    resetLevel(s);
    showBanner(reason === 'deadlock' ? 'Stuck! Level reset' : 'Out of moves! Level reset', '#ec7063');
  }
  dirty = true;
}

function move(d: Dir): void {
  const s = w.sokoban;
  if (s.gameOver) return;
  const to = step(s.w, s.player, d);
  if (s.walls[to]) return;
  const bi = s.boxes.indexOf(to);
  let pushed = -1;
  if (bi >= 0) {
    const beyond = step(s.w, to, d);
    if (s.walls[beyond] || s.boxes.includes(beyond)) return;
    history.push({ player: s.player, boxes: s.boxes.slice() });
    s.boxes[bi] = beyond;
    s.pushes++;
    pushed = bi;
  } else {
    history.push({ player: s.player, boxes: s.boxes.slice() });
  }
  s.player = to;
  s.moves++;
  dirty = true;
  const goals = new Set(s.goals);
  if (pushed >= 0) {
    const cell = s.boxes[pushed];
    if (goals.has(cell) && !s.scored[pushed]) {
      s.scored[pushed] = true;
      s.score += POINTS_PER_BOX;
    }
    if (s.boxes.every((b) => goals.has(b))) {
      s.score += POINTS_PER_LEVEL;
      s.solved++;
      loadLevel(s, s.level + 1);
      history = [];
      showBanner(`Level ${s.level - 1} solved!`, '#58d68d');
      return;
    }
    if (isDeadlock(s.walls, s.w, goals, new Set(s.boxes), cell)) {
      loseLife('deadlock');
      return;
    }
  }
  if (s.moves >= s.moveLimit) loseLife('moves');
}

function undo(): void {
  const s = w.sokoban;
  const last = history.pop();
  if (s.gameOver || !last) return;
  s.player = last.player;
  s.boxes = last.boxes;
  // Undoing still spends a move, so the move limit means the same for everyone.
  s.moves++;
  dirty = true;
  if (s.moves >= s.moveLimit) loseLife('moves');
}

function restart(): void {
  w.sokoban = newGame();
  history = [];
  banner = null;
  dirty = true;
}

const KEYS: Record<string, Dir> = {
  ArrowUp: 0,
  ArrowRight: 1,
  ArrowDown: 2,
  ArrowLeft: 3,
  w: 0,
  d: 1,
  s: 2,
  a: 3,
  W: 0,
  D: 1,
  S: 2,
  A: 3,
};
window.addEventListener('keydown', (e) => {
  const d = KEYS[e.key];
  if (d !== undefined) {
    e.preventDefault();
    move(d);
  } else if (e.key === 'r' || e.key === 'R') {
    restartLevel();
  } else if (e.key === 'z' || e.key === 'Z' || e.key === 'Backspace' || e.key === 'u' || e.key === 'U') {
    e.preventDefault();
    undo();
  } else if (e.key === 'Enter' && w.sokoban.gameOver) {
    restart();
  }
});

/**
 * Pushes the box on `box` one cell towards `d`, walking round to it first, move by move; stops
 * early when a move ends the level attempt (a life lost, the level solved, the game over).
 */
function pushBox(box: number, d: Dir): void {
  const s = w.sokoban;
  if (s.gameOver) return;
  const moves = pushMoves(s.walls, s.w, s.boxes, s.player, box, d);
  if (!moves) return;
  const { level, lives } = s;
  for (const m of moves) {
    move(m);
    const now = w.sokoban;
    if (now.gameOver || now.level !== level || now.lives !== lives) return;
  }
}

// --- Layout and pointer input: drag a box to push it, or tap a cell to step toward it.

/** Cells are a fixed size: the level sits in the frame (logic.ts, FRAME) whatever its size. */
function layout(s: SokobanState): { cell: number; ox: number; oy: number } {
  const cell = Math.floor(Math.min(W, H - HUD) / FRAME);
  const [fx, fy] = frameOffset(s.w, s.h);
  return { cell, ox: Math.floor((W - cell * FRAME) / 2) + fx * cell, oy: HUD + Math.floor((H - HUD - cell * FRAME) / 2) + fy * cell };
}

onPointerRelease(canvas, width, height, (dx, dy, p) => {
  const s = w.sokoban;
  const { cell, ox, oy } = layout(s);
  if (Math.max(Math.abs(dx), Math.abs(dy)) >= 16) {
    // A drag pushes the box it starts on; one that starts elsewhere does nothing.
    const x = Math.floor((p.x - dx - ox) / cell);
    const y = Math.floor((p.y - dy - oy) / cell);
    if (x < 0 || y < 0 || x >= s.w || y >= s.h) return;
    pushBox(y * s.w + x, Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 1 : 3) : dy > 0 ? 2 : 0);
    return;
  }
  dx = p.x - (ox + ((s.player % s.w) + 0.5) * cell);
  dy = p.y - (oy + (Math.floor(s.player / s.w) + 0.5) * cell);
  if (Math.max(Math.abs(dx), Math.abs(dy)) < cell / 2) return;
  move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 1 : 3) : dy > 0 ? 2 : 0);
});

// --- Drawing, only when something changed.

function drawWall(x: number, y: number, c: number): void {
  ctx.fillStyle = '#7a4e35';
  ctx.fillRect(x, y, c, c);
  ctx.strokeStyle = '#4f3022';
  ctx.lineWidth = 1;
  ctx.beginPath();
  const rows = 3;
  for (let r = 0; r < rows; r++) {
    const yy = y + (r * c) / rows;
    ctx.moveTo(x, yy + 0.5);
    ctx.lineTo(x + c, yy + 0.5);
    const off = r % 2 ? c / 4 : (3 * c) / 4;
    ctx.moveTo(x + off + 0.5, yy);
    ctx.lineTo(x + off + 0.5, yy + c / rows);
  }
  ctx.stroke();
}

function drawBox(x: number, y: number, c: number, onGoal: boolean): void {
  const m = Math.max(2, c * 0.08);
  ctx.fillStyle = onGoal ? '#2e8b57' : '#b9793f';
  ctx.fillRect(x + m, y + m, c - 2 * m, c - 2 * m);
  ctx.strokeStyle = onGoal ? '#1b5e3a' : '#7a4a1f';
  ctx.lineWidth = Math.max(2, c * 0.08);
  ctx.strokeRect(x + m * 1.5, y + m * 1.5, c - 3 * m, c - 3 * m);
  ctx.beginPath();
  ctx.moveTo(x + m * 1.5, y + m * 1.5);
  ctx.lineTo(x + c - m * 1.5, y + c - m * 1.5);
  ctx.moveTo(x + c - m * 1.5, y + m * 1.5);
  ctx.lineTo(x + m * 1.5, y + c - m * 1.5);
  ctx.stroke();
  ctx.lineWidth = 1;
}

function drawPlayer(x: number, y: number, c: number): void {
  const cx = x + c / 2;
  ctx.fillStyle = '#3b82f6';
  ctx.beginPath();
  ctx.arc(cx, y + c * 0.68, c * 0.28, Math.PI, 0);
  ctx.lineTo(cx + c * 0.28, y + c * 0.86);
  ctx.lineTo(cx - c * 0.28, y + c * 0.86);
  ctx.fill();
  ctx.fillStyle = '#f5cba7';
  ctx.beginPath();
  ctx.arc(cx, y + c * 0.36, c * 0.18, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#1f2937';
  ctx.beginPath();
  ctx.arc(cx - c * 0.065, y + c * 0.34, c * 0.03, 0, Math.PI * 2);
  ctx.arc(cx + c * 0.065, y + c * 0.34, c * 0.03, 0, Math.PI * 2);
  ctx.fill();
}

function draw(now: number): void {
  requestAnimationFrame(draw);
  if (banner && now >= banner.until) {
    banner = null;
    dirty = true;
  }
  if (!dirty) return;
  dirty = false;
  const s = w.sokoban;
  ctx.fillStyle = '#0d1117';
  ctx.fillRect(0, 0, width, height);
  const { cell, ox, oy } = layout(s);
  const goals = new Set(s.goals);
  const boxes = new Set(s.boxes);
  for (let y = 0; y < s.h; y++) {
    for (let x = 0; x < s.w; x++) {
      const i = y * s.w + x;
      const px = ox + x * cell;
      const py = oy + y * cell;
      if (s.walls[i]) {
        drawWall(px, py, cell);
        continue;
      }
      ctx.fillStyle = (x + y) % 2 ? '#2a2f3a' : '#303643';
      ctx.fillRect(px, py, cell, cell);
      if (goals.has(i)) {
        ctx.strokeStyle = '#f4d03f';
        ctx.fillStyle = 'rgba(244,208,63,0.25)';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(px + cell / 2, py + cell / 2, cell * 0.3, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
        ctx.lineWidth = 1;
      }
      if (boxes.has(i)) drawBox(px, py, cell, goals.has(i));
    }
  }
  drawPlayer(ox + (s.player % s.w) * cell, oy + Math.floor(s.player / s.w) * cell, cell);

  // HUD.
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'start';
  ctx.fillStyle = '#e6edf3';
  ctx.font = 'bold 16px sans-serif';
  ctx.fillText(`Level ${s.level}`, 10, HUD / 2);
  ctx.fillText(`Score ${s.score}`, 92, HUD / 2);
  const left = s.moveLimit - s.moves;
  ctx.fillStyle = left <= 10 ? '#ec7063' : '#e6edf3';
  ctx.fillText(`Moves left ${left}`, 196, HUD / 2);
  for (let i = 0; i < LIVES; i++) {
    const cx = 340 + i * 22;
    ctx.fillStyle = i < s.lives ? '#ec4863' : '#3a3f4b';
    ctx.beginPath();
    ctx.moveTo(cx, HUD / 2 + 8);
    ctx.bezierCurveTo(cx - 14, HUD / 2 - 2, cx - 6, HUD / 2 - 12, cx, HUD / 2 - 4);
    ctx.bezierCurveTo(cx + 6, HUD / 2 - 12, cx + 14, HUD / 2 - 2, cx, HUD / 2 + 8);
    ctx.fill();
  }

  if (banner && !s.gameOver) drawStripBanner(ctx, W, H, banner.text, { shade: 'rgba(0,0,0,0.55)', color: banner.color });
  if (s.gameOver)
    drawGameOverCard(ctx, W, H, {
      title: 'Game over',
      titleFont: 'bold 30px sans-serif',
      line: `Score ${s.score} · ${s.solved} level${s.solved === 1 ? '' : 's'} solved`,
    });
}

requestAnimationFrame(draw);
