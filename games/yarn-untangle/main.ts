import { createCanvas2d, toGameCoords } from '../shared/canvas';
import { LevelPuzzle, drawLevelEnd, type MoveLimitedLevel } from '../shared/level-puzzle';
import { nearestPeg, pegBeside, PEGS, ringPegs } from './pegs';
import { strandsCross, type P } from './strands';

/**
 * Yarn Untangle: balls of yarn joined by strands lie in a tangle. Move the balls from peg to
 * peg until no two strands cross. Every level's graph is planar by construction (a grid with
 * its sides and one diagonal per square, thinned at random), then its balls are dealt out
 * round the edge of the 8 × 8 pegboard in random order. Each move that brings the crossings below
 * their lowest so far scores, and a fully untangled level scores a bonus and brings a
 * bigger one. Each level has a move limit; running out while still tangled ends the game.
 */

const W = 480;
const H = 480;
const MIN_X = 30;
const MAX_X = 450;
const MIN_Y = 64;
const MAX_Y = 449;
const R = 15;
const GRAB = 20;
/** A tap this near an empty peg puts the selected ball there (half the pegs' spacing). */
const PEG_REACH = 27;
const BANNER_MS = 800;

interface YarnState extends MoveLimitedLevel {
  /** Ball positions in canvas coordinates. */
  nodes: [number, number][];
  edges: [number, number][];
  colors: string[];
  /** The ball the keyboard moves. */
  selected: number;
  crossings: number;
  /** 1 for strands that cross another strand. */
  crossed: number[];
  bestCrossings: number;
  startCrossings: number;
  solvedLevels: number;
  /** Canvas positions of the pegs balls sit on, row-major (8 × 8). */
  pegs: P[];
}

const { canvas, ctx } = createCanvas2d('Yarn Untangle', W, H);
const w = window as unknown as { yarnUntangle: YarnState };
const BALL_COLORS = ['#ef476f', '#ffd166', '#06d6a0', '#118ab2', '#f78c6b', '#c77dff', '#90be6d', '#f9c74f'];

function countCrossings(nodes: P[], edges: [number, number][]): { total: number; crossed: number[] } {
  const crossed = new Array(edges.length).fill(0);
  let total = 0;
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      if (strandsCross(nodes, edges[i][0], edges[i][1], edges[j][0], edges[j][1])) {
        total++;
        crossed[i] = 1;
        crossed[j] = 1;
      }
    }
  }
  return { total, crossed };
}

function gridSize(level: number): [number, number] {
  const sizes: [number, number][] = [
    [2, 3],
    [3, 3],
    [3, 4],
    [4, 4],
    [4, 5],
  ];
  return sizes[level - 1] ?? [5, 5];
}

function newLevel(level: number, score: number): YarnState {
  const [rows, cols] = gridSize(level);
  const n = rows * cols;
  const id = (r: number, c: number) => r * cols + c;
  const edgeSet = new Set<string>();
  const edges: [number, number][] = [];
  const add = (a: number, b: number) => {
    const k = a < b ? `${a}-${b}` : `${b}-${a}`;
    if (edgeSet.has(k)) return;
    edgeSet.add(k);
    edges.push(a < b ? [a, b] : [b, a]);
  };
  // A random spanning tree keeps the yarn in one piece…
  const seen = new Set([0]);
  const stack = [0];
  while (stack.length) {
    const v = stack[stack.length - 1];
    const r = Math.floor(v / cols);
    const c = v % cols;
    const next = [
      [r - 1, c],
      [r + 1, c],
      [r, c - 1],
      [r, c + 1],
    ].filter(([nr, nc]) => nr >= 0 && nc >= 0 && nr < rows && nc < cols && !seen.has(id(nr, nc)));
    if (!next.length) {
      stack.pop();
      continue;
    }
    const [nr, nc] = next[Math.floor(Math.random() * next.length)];
    add(v, id(nr, nc));
    seen.add(id(nr, nc));
    stack.push(id(nr, nc));
  }
  // …then more grid sides and at most one diagonal per square keep it planar.
  const sideP = Math.min(0.8, 0.55 + 0.05 * level);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && Math.random() < sideP) add(id(r, c), id(r, c + 1));
      if (r + 1 < rows && Math.random() < sideP) add(id(r, c), id(r + 1, c));
      if (r + 1 < rows && c + 1 < cols && Math.random() < 0.45) {
        if (Math.random() < 0.5) add(id(r, c), id(r + 1, c + 1));
        else add(id(r, c + 1), id(r + 1, c));
      }
    }
  }
  // Deal the balls round the board's edge in random order until enough strands cross.
  const ring = ringPegs();
  let nodes: P[] = [];
  let crossing = { total: 0, crossed: [] as number[] };
  const want = Math.max(2, Math.floor(n / 2));
  for (let attempt = 0; attempt < 60; attempt++) {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const turn = Math.floor(Math.random() * ring.length);
    nodes = new Array(n);
    order.forEach((v, k) => {
      const [x, y] = PEGS[ring[(turn + Math.floor((k * ring.length) / n)) % ring.length]];
      nodes[v] = [x, y];
    });
    crossing = countCrossings(nodes, edges);
    if (crossing.total >= want) break;
  }
  const colors = nodes.map(() => BALL_COLORS[Math.floor(Math.random() * BALL_COLORS.length)]);
  return {
    nodes,
    edges,
    colors,
    selected: 0,
    crossings: crossing.total,
    crossed: crossing.crossed,
    bestCrossings: crossing.total,
    startCrossings: crossing.total,
    level,
    score,
    moves: 0,
    moveLimit: 10 + 4 * n,
    solvedLevels: level - 1,
    gameOver: false,
    pegs: PEGS.map(([x, y]) => [x, y] as P),
    lastSolvedAt: -1e9,
  };
}

const puzzle = new LevelPuzzle('yarnUntangle', newLevel, BANNER_MS);

function recount(s: YarnState): void {
  const c = countCrossings(s.nodes, s.edges);
  s.crossings = c.total;
  s.crossed = c.crossed;
}

/** A ball has been put down somewhere new: score, then maybe finish the level. */
function settle(s: YarnState): void {
  s.moves++;
  recount(s);
  if (s.crossings < s.bestCrossings) {
    s.score += s.bestCrossings - s.crossings;
    s.bestCrossings = s.crossings;
  }
  const now = performance.now();
  puzzle.endMove(s, s.crossings === 0, s.score + 10 + 5 * (s.level - 1), now);
}

const clampX = (x: number) => Math.round(Math.max(MIN_X, Math.min(MAX_X, x)));
const clampY = (y: number) => Math.round(Math.max(MIN_Y, Math.min(MAX_Y, y)));

/** The ball on peg `peg`, or -1. */
const ballOn = (s: YarnState, peg: number) => s.nodes.findIndex(([x, y]) => x === PEGS[peg][0] && y === PEGS[peg][1]);

/** Moves the selected ball to an empty peg (a move); says whether it went. */
function moveTo(peg: number): boolean {
  const s = w.yarnUntangle;
  if (s.gameOver || peg < 0 || ballOn(s, peg) >= 0) return false;
  s.nodes[s.selected] = [PEGS[peg][0], PEGS[peg][1]];
  settle(s);
  return true;
}

/** Moves the selected ball to the next peg that way, if that peg is free. */
function nudge(dc: number, dr: number): void {
  const s = w.yarnUntangle;
  moveTo(pegBeside(nearestPeg(...s.nodes[s.selected]), dc, dr));
}

function cycle(k: number): void {
  const s = w.yarnUntangle;
  if (s.gameOver) return;
  s.selected = (s.selected + k + s.nodes.length) % s.nodes.length;
  puzzle.dirty = true;
}

window.addEventListener('keydown', (e) => {
  const s = w.yarnUntangle;
  if (e.key === 'Enter' && s.gameOver) {
    puzzle.restart();
    puzzle.dirty = true;
    return;
  }
  const handled = (() => {
    switch (e.key) {
      case 'ArrowUp':
        nudge(0, -1);
        return true;
      case 'ArrowDown':
        nudge(0, 1);
        return true;
      case 'ArrowLeft':
        nudge(-1, 0);
        return true;
      case 'ArrowRight':
        nudge(1, 0);
        return true;
      case 'n':
      case 'N':
      case 'Tab':
        cycle(1);
        return true;
      case 'p':
      case 'P':
        cycle(-1);
        return true;
      default:
        return false;
    }
  })();
  if (handled) e.preventDefault();
});

let drag: { node: number; from: P } | null = null;

canvas.addEventListener('pointerdown', (e) => {
  e.preventDefault();
  const s = w.yarnUntangle;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, W, H, e);
  let best = -1;
  let bestD = GRAB * GRAB;
  s.nodes.forEach(([x, y], i) => {
    const d = (x - p.x) ** 2 + (y - p.y) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  });
  if (best < 0) {
    // A tap on an empty peg puts the selected ball there.
    moveTo(nearestPeg(p.x, p.y, PEG_REACH));
    return;
  }
  try {
    canvas.setPointerCapture(e.pointerId);
  } catch {
    // Synthetic pointers cannot be captured.
  }
  s.selected = best;
  drag = { node: best, from: [s.nodes[best][0], s.nodes[best][1]] };
  puzzle.dirty = true;
});

canvas.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const s = w.yarnUntangle;
  const p = toGameCoords(canvas, W, H, e);
  s.nodes[drag.node] = [clampX(p.x), clampY(p.y)];
  recount(s);
  puzzle.dirty = true;
});

canvas.addEventListener('pointerup', (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  const s = w.yarnUntangle;
  if (s.gameOver) return;
  const p = toGameCoords(canvas, W, H, e);
  // The ball drops onto the nearest peg; onto its own or a taken one, it goes back (no move).
  const peg = nearestPeg(p.x, p.y);
  const [px, py] = PEGS[peg];
  const taken = s.nodes.some(([x, y], i) => i !== d.node && x === px && y === py);
  if (taken || (px === d.from[0] && py === d.from[1])) {
    s.nodes[d.node] = d.from;
    recount(s);
    puzzle.dirty = true;
    return;
  }
  s.nodes[d.node] = [px, py];
  settle(s);
});

function drawBall(x: number, y: number, color: string, selected: boolean): void {
  if (selected) {
    ctx.fillStyle = 'rgba(255,255,255,0.22)';
    ctx.beginPath();
    ctx.arc(x, y, R + 7, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(x, y, R, 0, Math.PI * 2);
  ctx.fill();
  // Wound threads: two families of curves across the ball.
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, R, 0, Math.PI * 2);
  ctx.clip();
  ctx.lineWidth = 1.4;
  ctx.strokeStyle = 'rgba(0,0,0,0.3)';
  for (let k = 0; k < 4; k++) {
    ctx.beginPath();
    ctx.arc(x - 2 * R, y - 2, R * (1.45 + 0.38 * k), -0.9, 0.9);
    ctx.stroke();
  }
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  for (let k = 0; k < 3; k++) {
    ctx.beginPath();
    ctx.arc(x + 3, y + 2 * R, R * (1.5 + 0.4 * k), -Math.PI / 2 - 0.9, -Math.PI / 2 + 0.9);
    ctx.stroke();
  }
  ctx.restore();
  ctx.strokeStyle = selected ? '#ffffff' : 'rgba(0,0,0,0.45)';
  ctx.lineWidth = selected ? 2.5 : 1.5;
  ctx.beginPath();
  ctx.arc(x, y, R, 0, Math.PI * 2);
  ctx.stroke();
}

function draw(now: number): void {
  const s = w.yarnUntangle;
  ctx.fillStyle = '#2a1f33';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#33263f';
  ctx.fillRect(MIN_X - 22, MIN_Y - 22, MAX_X - MIN_X + 44, MAX_Y - MIN_Y + 44);
  ctx.fillStyle = '#4a3a58';
  for (const [x, y] of PEGS) {
    ctx.beginPath();
    ctx.arc(x, y, 4, 0, Math.PI * 2);
    ctx.fill();
  }
  // Strands: a thick thread with a lighter twist along it.
  ctx.lineCap = 'round';
  s.edges.forEach(([a, b], i) => {
    const [x1, y1] = s.nodes[a];
    const [x2, y2] = s.nodes[b];
    const bad = s.crossed[i] === 1;
    ctx.strokeStyle = bad ? '#e4576e' : '#8fd694';
    ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
    ctx.strokeStyle = bad ? 'rgba(255,210,215,0.55)' : 'rgba(230,255,230,0.5)';
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 5]);
    ctx.stroke();
    ctx.setLineDash([]);
  });
  s.nodes.forEach(([x, y], i) => drawBall(x, y, s.colors[i], i === s.selected));
  ctx.fillStyle = '#f5ebff';
  ctx.font = 'bold 17px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillText(`Level ${s.level}   Score ${s.score}`, 16, 22);
  ctx.textAlign = 'center';
  ctx.fillStyle = s.crossings ? '#ffb3c1' : '#b7efc5';
  ctx.fillText(`Crossings ${s.crossings}`, W / 2 + 70, 22);
  ctx.textAlign = 'right';
  const left = s.moveLimit - s.moves;
  ctx.fillStyle = left <= 5 ? '#f87171' : '#f5ebff';
  ctx.fillText(`Moves ${left}`, W - 16, 22);
  ctx.textAlign = 'left';
  drawLevelEnd(ctx, W, H, s, now, {
    banner: { text: 'Untangled!', color: '#b7efc5', font: 'bold 38px sans-serif', durationMs: BANNER_MS },
    over: { shade: 'rgba(15,8,20,0.74)', title: 'Still tangled' },
  });
}

puzzle.start(draw);
