import { createCanvas2d } from '../shared/canvas';
import { LevelPuzzle, drawGridLevelTop, type GridLevel, type GridLevelLook } from '../shared/level-puzzle';
import { TurnClock, popcount, reachable, rot, rotationsBetween, scramble, turnTileAt } from '../shared/turn-tiles';
import { DX, DY, GRID_PUZZLE, drawGridBoard } from '../shared/grid-board';

/**
 * Energy: a power source and light bulbs are joined by wire tiles that have been turned
 * the wrong way. Tap a tile to turn it 90° clockwise; current flows from the source through
 * every pair of openings that meet, and a bulb it reaches lights up. Light every bulb to
 * finish the level. Levels are random spanning trees of a growing part of the 6×6 grid,
 * with the bulbs at the leaves; each level has a move limit, and running out ends the game.
 */

const { size: GRID, cell: CELL, x0: X0, y0: Y0, width: W, height: H } = GRID_PUZZLE;
const BANNER_MS = 700;

interface EnergyState extends GridLevel {
  /** Wire openings per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  source: number;
  bulbs: number[];
  /** 1 where current reaches the cell. */
  powered: number[];
  litEver: Record<number, true>;
  region: { x: number; y: number; w: number; h: number };
}

const { canvas, ctx } = createCanvas2d('Energy', W, H);
const w = window as unknown as { energy: EnergyState };

function regionSize(level: number): [number, number] {
  const sizes: [number, number][] = [
    [4, 3],
    [4, 4],
    [5, 4],
    [5, 5],
    [6, 5],
  ];
  return sizes[level - 1] ?? [6, 6];
}

/** A random spanning tree of the region grown from the source (growing-tree algorithm). */
function randomTree(rx: number, ry: number, rw: number, rh: number, source: number): number[] {
  const tiles = new Array(GRID * GRID).fill(0);
  const seen = new Set<number>([source]);
  const active = [source];
  while (active.length) {
    const k = Math.random() < 0.5 ? active.length - 1 : Math.floor(Math.random() * active.length);
    const i = active[k];
    const x = i % GRID;
    const y = Math.floor(i / GRID);
    const options: number[] = [];
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx < rx || ny < ry || nx >= rx + rw || ny >= ry + rh) continue;
      if (!seen.has(ny * GRID + nx)) options.push(d);
    }
    if (!options.length) {
      active.splice(k, 1);
      continue;
    }
    const d = options[Math.floor(Math.random() * options.length)];
    const j = (y + DY[d]) * GRID + x + DX[d];
    tiles[i] |= 1 << d;
    tiles[j] |= 1 << ((d + 2) % 4);
    seen.add(j);
    active.push(j);
  }
  return tiles;
}

function computePower(s: EnergyState): void {
  s.powered = reachable(s.tiles, GRID, GRID, s.source);
}

function newLevel(level: number, score: number): EnergyState {
  const [rw, rh] = regionSize(level);
  const rx = Math.floor(Math.random() * (GRID - rw + 1));
  const ry = Math.floor(Math.random() * (GRID - rh + 1));
  let solution: number[] = [];
  let source = 0;
  let bulbs: number[] = [];
  for (let attempt = 0; attempt < 40; attempt++) {
    source = (ry + 1 + Math.floor(Math.random() * (rh - 2))) * GRID + rx + 1 + Math.floor(Math.random() * (rw - 2));
    solution = randomTree(rx, ry, rw, rh, source);
    bulbs = [];
    for (let i = 0; i < solution.length; i++) if (i !== source && popcount(solution[i]) === 1) bulbs.push(i);
    if (bulbs.length >= Math.min(3 + Math.floor(level / 2), 8)) break;
  }
  const tiles = solution.slice();
  scramble(tiles);
  const s: EnergyState = {
    cols: GRID,
    rows: GRID,
    tiles,
    source,
    bulbs,
    powered: [],
    litEver: {},
    region: { x: rx, y: ry, w: rw, h: rh },
    grid: { x0: X0, y0: Y0, cell: CELL },
    level,
    score,
    moves: 0,
    moveLimit: 0,
    par: 0,
    solvedLevels: level - 1,
    gameOver: false,
    lastSolvedAt: -1e9,
  };
  computePower(s);
  // Never start solved: turning a bulb that is lit cuts it off.
  if (bulbs.every((b) => s.powered[b])) {
    s.tiles[bulbs[0]] = rot(s.tiles[bulbs[0]]);
    computePower(s);
  }
  // Bulbs lit from the start do not score.
  for (const b of bulbs) if (s.powered[b]) s.litEver[b] = true;
  let par = 0;
  for (let i = 0; i < tiles.length; i++) par += rotationsBetween(s.tiles[i], solution[i]);
  s.par = par;
  s.moveLimit = par + 6 + Math.ceil(par * Math.max(0.3, 0.9 - 0.1 * (level - 1)));
  return s;
}

const puzzle = new LevelPuzzle('energy', newLevel, BANNER_MS);
const turns = new TurnClock(GRID * GRID);

function tap(cx: number, cy: number): void {
  const s = w.energy;
  const now = turnTileAt(s, GRID, cx, cy, puzzle, turns);
  if (now === null) return;
  computePower(s);
  for (const b of s.bulbs) {
    if (s.powered[b] && !s.litEver[b]) {
      s.litEver[b] = true;
      s.score += 5;
    }
  }
  if (
    puzzle.endMove(
      s,
      s.bulbs.every((b) => s.powered[b]),
      s.score + 20 * s.level,
      now,
    )
  )
    turns.reset();
}

// Taps, or on a keyboard: arrows move a cursor, Space or R acts on its tile, Enter restarts.
const cursor = puzzle.bindGrid({ canvas, width: W, height: H }, GRID_PUZZLE, ['r', 'R'], tap);

function bolt(cx: number, cy: number, size: number): void {
  ctx.beginPath();
  ctx.moveTo(cx + 0.15 * size, cy - 0.5 * size);
  ctx.lineTo(cx - 0.3 * size, cy + 0.08 * size);
  ctx.lineTo(cx - 0.02 * size, cy + 0.08 * size);
  ctx.lineTo(cx - 0.15 * size, cy + 0.5 * size);
  ctx.lineTo(cx + 0.3 * size, cy - 0.1 * size);
  ctx.lineTo(cx + 0.02 * size, cy - 0.1 * size);
  ctx.closePath();
  ctx.fill();
}

/** The cursor, the moves bar and the level's end (drawGridLevelTop). */
const LOOK: GridLevelLook = {
  cursor: '#38bdf8',
  bar: { color: '#f4f4f5', centerColor: '#fde047', warnAt: 5 },
  banner: { text: 'All lights on!', color: '#fde047', font: 'bold 40px sans-serif', durationMs: BANNER_MS },
  over: { shade: 'rgba(5,5,8,0.72)', title: 'Out of moves' },
};

function draw(now: number): void {
  const s = w.energy;
  ctx.fillStyle = '#111114';
  ctx.fillRect(0, 0, W, H);
  drawGridBoard(ctx, GRID_PUZZLE, { frame: '#18181d', lines: '#26272f', region: { ...s.region, fill: '#1f2027' } });
  const bulbSet = new Set(s.bulbs);
  // One halo path for all live wires, so overlapping ends do not stack up.
  ctx.strokeStyle = 'rgba(250,204,21,0.22)';
  ctx.lineWidth = 18;
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (let i = 0; i < GRID * GRID; i++) {
    const m = s.tiles[i];
    if (!m || s.powered[i] !== 1) continue;
    const a = turns.angle(i, now);
    const cx = X0 + (i % GRID) * CELL + CELL / 2;
    const cy = Y0 + Math.floor(i / GRID) * CELL + CELL / 2;
    for (let d = 0; d < 4; d++) {
      if (!(m & (1 << d))) continue;
      const ex = (DX[d] * CELL) / 2;
      const ey = (DY[d] * CELL) / 2;
      ctx.moveTo(cx, cy);
      ctx.lineTo(cx + ex * Math.cos(a) - ey * Math.sin(a), cy + ex * Math.sin(a) + ey * Math.cos(a));
    }
  }
  ctx.stroke();
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const i = y * GRID + x;
      const m = s.tiles[i];
      if (!m) continue;
      const on = s.powered[i] === 1;
      const cx = X0 + x * CELL + CELL / 2;
      const cy = Y0 + y * CELL + CELL / 2;
      ctx.save();
      ctx.translate(cx, cy);
      ctx.rotate(turns.angle(i, now));
      ctx.lineCap = 'round';
      ctx.strokeStyle = on ? '#facc15' : '#6b7280';
      ctx.lineWidth = 8;
      ctx.beginPath();
      for (let d = 0; d < 4; d++)
        if (m & (1 << d)) {
          ctx.moveTo(0, 0);
          ctx.lineTo((DX[d] * CELL) / 2, (DY[d] * CELL) / 2);
        }
      ctx.stroke();
      ctx.restore();
      if (i === s.source) {
        ctx.fillStyle = '#0ea5e9';
        ctx.beginPath();
        ctx.roundRect(cx - 20, cy - 20, 40, 40, 8);
        ctx.fill();
        ctx.fillStyle = '#fef08a';
        bolt(cx, cy, 30);
      } else if (bulbSet.has(i)) {
        if (on) {
          ctx.fillStyle = 'rgba(253,224,71,0.22)';
          ctx.beginPath();
          ctx.arc(cx, cy, 27, 0, Math.PI * 2);
          ctx.fill();
        }
        ctx.fillStyle = on ? '#fde047' : '#3f3f46';
        ctx.strokeStyle = on ? '#fff7c2' : '#71717a';
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.arc(cx, cy, 16, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
        ctx.strokeStyle = on ? '#a16207' : '#52525b';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(cx - 6, cy + 4);
        ctx.lineTo(cx - 3, cy - 4);
        ctx.lineTo(cx, cy + 2);
        ctx.lineTo(cx + 3, cy - 4);
        ctx.lineTo(cx + 6, cy + 4);
        ctx.stroke();
      } else {
        ctx.fillStyle = on ? '#facc15' : '#6b7280';
        ctx.beginPath();
        ctx.arc(cx, cy, 5, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
  drawGridLevelTop(ctx, cursor, s, now, LOOK, {
    left: `Level ${s.level}   Score ${s.score}`,
    center: `Lit ${s.bulbs.filter((b) => s.powered[b]).length}/${s.bulbs.length}`,
    centerX: W / 2 + 60,
  });
}

puzzle.start(draw);
