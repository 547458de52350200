import { createCanvas2d, onDirectionInput, toGameCoords } from '../shared/canvas';
import { Redraw, drawLevelEnd } from '../shared/level-puzzle';
import { DX, DY } from '../shared/grid-board';
import { DIR_INDEX, mazeDistances, type Dir } from './logic';

/**
 * Maze: Path of Light. Guide an orb of light through a dark maze from one corner to the
 * exit in the opposite one; every cell it passes stays lit. Mazes come from a recursive
 * backtracker run on the seeded random numbers and grow by one row and column per level.
 * Each move spends one unit of the orb's energy (bumping into a wall is free); if the energy
 * runs out before the exit, the light goes out and the game ends.
 */

const W = 480;
const H = 480;
const TOP = 48;
const AREA = 420;
const MAX_N = 16;
const SLIDE_MS = 90;
const BANNER_MS = 700;

interface LightState {
  /** The maze is n×n cells. */
  n: number;
  /** Open passages per cell, row-major (N=1, E=2, S=4, W=8). */
  open: number[];
  /** 1 where the orb has been this level. */
  lit: number[];
  litCount: number;
  player: { x: number; y: number };
  exit: { x: number; y: number };
  start: { x: number; y: number };
  energy: number;
  energyMax: number;
  /** Length of the shortest route from start to exit. */
  shortest: number;
  level: number;
  score: number;
  moves: number;
  exitsReached: number;
  gameOver: boolean;
  grid: { x0: number; y0: number; cell: number };
  lastSolvedAt: number;
}

const { canvas, ctx } = createCanvas2d('Maze: Path of Light', W, H);
const w = window as unknown as { pathOfLight: LightState };

function carve(n: number): number[] {
  const open = new Array(n * n).fill(0);
  const seen = new Uint8Array(n * n);
  const first = Math.floor(Math.random() * n * n);
  const stack = [first];
  seen[first] = 1;
  while (stack.length) {
    const i = stack[stack.length - 1];
    const x = i % n;
    const y = Math.floor(i / n);
    const options: number[] = [];
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx >= 0 && ny >= 0 && nx < n && ny < n && !seen[ny * n + nx]) options.push(d);
    }
    if (!options.length) {
      stack.pop();
      continue;
    }
    const d = options[Math.floor(Math.random() * options.length)];
    const j = (y + DY[d]) * n + x + DX[d];
    open[i] |= 1 << d;
    open[j] |= 1 << ((d + 2) % 4);
    seen[j] = 1;
    stack.push(j);
  }
  return open;
}

function newLevel(level: number, score: number, exitsReached: number): LightState {
  const n = Math.min(MAX_N, 4 + level);
  const open = carve(n);
  const corner = Math.floor(Math.random() * 4);
  const sx = corner & 1 ? n - 1 : 0;
  const sy = corner & 2 ? n - 1 : 0;
  const start = { x: sx, y: sy };
  const exit = { x: n - 1 - sx, y: n - 1 - sy };
  const shortest = mazeDistances(n, open, sy * n + sx)[exit.y * n + exit.x];
  const slack = Math.max(4, Math.ceil(shortest * Math.max(0.25, 0.8 - 0.1 * (level - 1))));
  const cell = Math.floor(AREA / n);
  const lit = new Array(n * n).fill(0);
  lit[sy * n + sx] = 1;
  return {
    n,
    open,
    lit,
    litCount: 1,
    player: { ...start },
    exit,
    start,
    energy: shortest + slack,
    energyMax: shortest + slack,
    shortest,
    level,
    score,
    moves: 0,
    exitsReached,
    gameOver: false,
    grid: { x0: Math.floor((W - n * cell) / 2), y0: TOP + Math.floor((AREA - n * cell) / 2), cell },
    lastSolvedAt: -1e9,
  };
}

w.pathOfLight = newLevel(1, 0, 0);
const view = new Redraw();
let slideFrom = { x: 0, y: 0, at: -1e9 };

function move(dir: Dir): void {
  const s = w.pathOfLight;
  if (s.gameOver) return;
  const d = DIR_INDEX[dir];
  const { x, y } = s.player;
  if (!(s.open[y * s.n + x] & (1 << d))) return;
  const now = performance.now();
  slideFrom = { x, y, at: now };
  view.animUntil = now + SLIDE_MS;
  s.player = { x: x + DX[d], y: y + DY[d] };
  s.energy--;
  s.moves++;
  const i = s.player.y * s.n + s.player.x;
  if (!s.lit[i]) {
    s.lit[i] = 1;
    s.litCount++;
    s.score += 1;
  }
  if (s.player.x === s.exit.x && s.player.y === s.exit.y) {
    const next = view.solved(newLevel(s.level + 1, s.score + 10 * s.level + s.energy, s.exitsReached + 1), now, BANNER_MS);
    w.pathOfLight = next;
    slideFrom = { x: next.start.x, y: next.start.y, at: -1e9 };
  } else if (s.energy <= 0) {
    s.gameOver = true;
  }
  view.dirty = true;
}

onDirectionInput(move, {
  isOver: () => w.pathOfLight.gameOver,
  restart: () => {
    w.pathOfLight = newLevel(1, 0, 0);
    view.dirty = true;
  },
});
// Tapping a cell next to the orb moves there too.
canvas.addEventListener('pointerdown', (e) => {
  const s = w.pathOfLight;
  const p = toGameCoords(canvas, W, H, e);
  const cx = Math.floor((p.x - s.grid.x0) / s.grid.cell);
  const cy = Math.floor((p.y - s.grid.y0) / s.grid.cell);
  const dx = cx - s.player.x;
  const dy = cy - s.player.y;
  if (Math.abs(dx) + Math.abs(dy) !== 1) return;
  move(dx === 1 ? 'right' : dx === -1 ? 'left' : dy === 1 ? 'down' : 'up');
});

function draw(now: number): void {
  const s = w.pathOfLight;
  const { x0, y0, cell } = s.grid;
  const n = s.n;
  ctx.fillStyle = '#07091a';
  ctx.fillRect(0, 0, W, H);
  // Lit cells glow; unlit ones stay in the dark.
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      ctx.fillStyle = s.lit[i] ? '#5b4a1c' : '#0e1230';
      ctx.fillRect(x0 + x * cell, y0 + y * cell, cell, cell);
    }
  }
  // The trail: a soft line through neighbouring lit cells.
  ctx.strokeStyle = 'rgba(255, 214, 120, 0.55)';
  ctx.lineWidth = Math.max(2, cell * 0.18);
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      if (!s.lit[i]) continue;
      const cx = x0 + x * cell + cell / 2;
      const cy = y0 + y * cell + cell / 2;
      if (s.open[i] & 2 && x + 1 < n && s.lit[i + 1]) {
        ctx.moveTo(cx, cy);
        ctx.lineTo(cx + cell, cy);
      }
      if (s.open[i] & 4 && y + 1 < n && s.lit[i + n]) {
        ctx.moveTo(cx, cy);
        ctx.lineTo(cx, cy + cell);
      }
    }
  }
  ctx.stroke();
  // Walls
  ctx.strokeStyle = '#8b9bd6';
  ctx.lineWidth = Math.max(2, cell * 0.08);
  ctx.lineCap = 'square';
  ctx.beginPath();
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const m = s.open[y * n + x];
      const px = x0 + x * cell;
      const py = y0 + y * cell;
      if (!(m & 1)) {
        ctx.moveTo(px, py);
        ctx.lineTo(px + cell, py);
      }
      if (!(m & 8)) {
        ctx.moveTo(px, py);
        ctx.lineTo(px, py + cell);
      }
      if (x === n - 1 && !(m & 2)) {
        ctx.moveTo(px + cell, py);
        ctx.lineTo(px + cell, py + cell);
      }
      if (y === n - 1 && !(m & 4)) {
        ctx.moveTo(px, py + cell);
        ctx.lineTo(px + cell, py + cell);
      }
    }
  }
  ctx.stroke();
  // Exit portal
  const ex = x0 + s.exit.x * cell + cell / 2;
  const ey = y0 + s.exit.y * cell + cell / 2;
  ctx.strokeStyle = '#67e8f9';
  ctx.lineWidth = Math.max(2, cell * 0.09);
  ctx.beginPath();
  ctx.arc(ex, ey, cell * 0.32, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = 'rgba(103, 232, 249, 0.35)';
  ctx.beginPath();
  ctx.arc(ex, ey, cell * 0.2, 0, Math.PI * 2);
  ctx.fill();
  // The orb slides between cells.
  const t = Math.min(1, (now - slideFrom.at) / SLIDE_MS);
  const fx = slideFrom.at < 0 ? s.player.x : slideFrom.x + (s.player.x - slideFrom.x) * t;
  const fy = slideFrom.at < 0 ? s.player.y : slideFrom.y + (s.player.y - slideFrom.y) * t;
  const ox = x0 + fx * cell + cell / 2;
  const oy = y0 + fy * cell + cell / 2;
  const glow = ctx.createRadialGradient(ox, oy, 0, ox, oy, cell * 0.75);
  glow.addColorStop(0, 'rgba(255, 240, 180, 0.9)');
  glow.addColorStop(0.35, 'rgba(255, 200, 90, 0.45)');
  glow.addColorStop(1, 'rgba(255, 180, 60, 0)');
  ctx.fillStyle = glow;
  ctx.fillRect(ox - cell, oy - cell, cell * 2, cell * 2);
  ctx.fillStyle = '#fffbe6';
  ctx.beginPath();
  ctx.arc(ox, oy, cell * 0.22, 0, Math.PI * 2);
  ctx.fill();
  // HUD with an energy bar.
  ctx.fillStyle = '#e0e7ff';
  ctx.font = 'bold 17px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillText(`Level ${s.level}   Score ${s.score}`, 16, 22);
  ctx.textAlign = 'right';
  ctx.fillText(`Energy ${s.energy}`, W - 146, 22);
  ctx.textAlign = 'left';
  ctx.fillStyle = '#1e2550';
  ctx.fillRect(W - 136, 14, 120, 16);
  const frac = Math.max(0, s.energy / s.energyMax);
  ctx.fillStyle = frac < 0.25 ? '#f87171' : '#fcd34d';
  ctx.fillRect(W - 136, 14, 120 * frac, 16);
  drawLevelEnd(ctx, W, H, s, now, {
    banner: { text: 'Out of the maze!', color: '#fde68a', font: 'bold 38px sans-serif', durationMs: BANNER_MS },
    over: { shade: 'rgba(2,3,10,0.75)', title: 'The light went out' },
  });
}

view.start(draw);
