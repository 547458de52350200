import * as THREE from 'three';
import { createStage, woodTexture, FACE_FRONT, FACE_LEFT, FACE_RIGHT, FACE_TOP, type MeshBuilder } from '../shared-three/stage';
import { drawBlockPuzzleHud } from '../shared-three/block-puzzle-hud';
import {
  BlockPuzzle,
  createBlockScene,
  floorUnder,
  newTallies,
  pickByTier,
  type BlockDrop,
  type BlockPick,
  type BlockPuzzleState,
} from '../shared-three/block-puzzle';
import {
  CATALOGUE,
  SIZE,
  cornerForCell,
  emptyBoard,
  fits,
  fitsAnywhere,
  keepCornerInside,
  levelFor,
  linePoints,
  place,
  tierWeights,
  type Board,
} from './logic';

/**
 * Wood Blocks 3D: an 8×8 wooden board seen in perspective. Three pieces are offered at a
 * time; pick one (1/2/3 or click it), move its ghost with the arrow keys (or click a cell)
 * and drop it with Enter/Space. Full rows and columns clear; clearing on consecutive moves
 * builds a combo. A new set arrives when all three are used, and the game ends when none of
 * the pieces left fits anywhere. Bigger and stranger pieces turn up as the score rises.
 */

const WIDTH = 400;
const HEIGHT = 480;

interface Offered {
  name: string;
  cells: [number, number][];
  w: number;
  h: number;
  color: number;
  /** Whether the piece fits somewhere on the current board. */
  fits: boolean;
}

export interface WoodBlocksState extends BlockPuzzleState<Board, Offered, { col: number; row: number }> {
  size: number;
  lastClear: { rows: number[]; cols: number[]; points: number } | null;
}

const WOODS = [0xe3b877, 0xc2703f, 0xb9563c, 0xd9a05b, 0xefd4a1, 0xa9782f];
const woodColors = WOODS.map((h) => new THREE.Color(h));

function clampCursor(s: WoodBlocksState): void {
  const p = s.pieces[s.selected];
  const w = p ? p.w : 1;
  const h = p ? p.h : 1;
  // In place: the state's cursor object is shared (a click's target becomes it).
  Object.assign(s.cursor, keepCornerInside(s.cursor.col, s.cursor.row, w, h));
}

// ---------------------------------------------------------------------------------------------
// Rules driven by input.

type Clearing = { col: number; row: number; color: number };
const puzzle = new BlockPuzzle<WoodBlocksState, Clearing, BlockDrop<Board, Clearing> & { rows: number[]; cols: number[] }>({
  global: 'woodBlocks',
  fresh: (): WoodBlocksState => ({ size: SIZE, board: emptyBoard(), cursor: { col: 3, row: 3 }, ...newTallies<Offered>(), lastClear: null }),
  offer(level): Offered {
    const def = pickByTier(CATALOGUE, tierWeights(level));
    const color = 1 + Math.floor(Math.random() * WOODS.length);
    return { name: def.name, cells: def.cells.map(([c, r]) => [c, r] as [number, number]), w: def.w, h: def.h, color, fits: true };
  },
  fitsAnywhere,
  keepInside: clampCursor,
  fitsAtCursor: (s, p) => fits(s.board, p, s.cursor.col, s.cursor.row),
  drop(s, p) {
    const r = place(s.board, p, s.cursor.col, s.cursor.row, p.color);
    const clearing: Clearing[] = [];
    for (const row of r.rows) for (let c = 0; c < SIZE; c++) clearing.push({ col: c, row, color: 0 });
    for (const col of r.cols) for (let row = 0; row < SIZE; row++) if (!r.rows.includes(row)) clearing.push({ col, row, color: 0 });
    // Colours of the cleared cells as they were just before the clear.
    const before = s.board.map((line) => line.slice());
    for (const [dc, dr] of p.cells) before[s.cursor.row + dr][s.cursor.col + dc] = p.color;
    for (const cell of clearing) cell.color = before[cell.row][cell.col];
    return { board: r.board, lines: r.rows.length + r.cols.length, cells: r.cells, clearing, rows: r.rows, cols: r.cols };
  },
  linePoints,
  levelFor,
  scored(s, d, points) {
    s.lastClear = d.lines > 0 ? { rows: d.rows, cols: d.cols, points } : null;
  },
  sameCursor: (a, b) => a.col === b.col && a.row === b.row,
});
const w = window as unknown as { woodBlocks: WoodBlocksState };

function move(dc: number, dr: number): void {
  const s = w.woodBlocks;
  if (s.gameOver) return;
  s.cursor.col += dc;
  s.cursor.row += dr;
  clampCursor(s);
  puzzle.ghostDirty = true;
}

const MOVES: Record<string, [number, number]> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  w: [0, -1],
  s: [0, 1],
  a: [-1, 0],
  d: [1, 0],
  W: [0, -1],
  S: [0, 1],
  A: [-1, 0],
  D: [1, 0],
};
puzzle.bindKeys((e) => {
  const m = MOVES[e.key];
  if (!m) return false;
  e.preventDefault();
  move(m[0], m[1]);
  return true;
});

// ---------------------------------------------------------------------------------------------
// Scene.

const stage = createStage('Wood Blocks 3D', WIDTH, HEIGHT, 0x2b1d14);
const view = createBlockScene(stage, {
  eye: [0, 19.5, 10.5],
  target: [0, 0, 1.45],
  boardVertices: 2048,
  texture: woodTexture(),
  uvScale: { board: 0.35, blocks: 0.5 },
  ghostOpacity: 0.6,
});
const camera = view.camera;

const HALF = SIZE / 2;
const TRAY_Z = 6.25;
const TRAY_SCALE = 0.42;
const SLOT_X = [-2.95, 0, 2.95];

const C = (hex: number) => new THREE.Color(hex);
const BOARD_BASE = C(0x6b4226);
const BOARD_RIM = C(0x8b5a33);
const CELL_A = C(0x4a2e1b);
const CELL_B = C(0x53341f);
const TRAY_BASE = C(0x5a381f);
const SLOT_ON = C(0xf2d488);
const GHOST_BAD = C(0xd8452f);
const GHOST_OK = C(0x9be07a);
const LINE_GLOW = C(0xfff1b0);

function buildStatic(): void {
  const b = view.board.clear();
  // Board slab with a raised rim.
  b.box(-HALF - 0.45, -0.7, -HALF - 0.45, HALF + 0.45, -0.02, HALF + 0.45, BOARD_BASE, FACE_TOP | FACE_FRONT | FACE_LEFT | FACE_RIGHT);
  b.box(-HALF - 0.45, -0.02, -HALF - 0.45, HALF + 0.45, 0.12, -HALF - 0.05, BOARD_RIM, FACE_TOP | FACE_FRONT);
  b.box(-HALF - 0.45, -0.02, HALF + 0.05, HALF + 0.45, 0.12, HALF + 0.45, BOARD_RIM, FACE_TOP | FACE_FRONT | FACE_LEFT | FACE_RIGHT);
  b.box(-HALF - 0.45, -0.02, -HALF - 0.05, -HALF - 0.05, 0.12, HALF + 0.05, BOARD_RIM, FACE_TOP | FACE_RIGHT | FACE_LEFT);
  b.box(HALF + 0.05, -0.02, -HALF - 0.05, HALF + 0.45, 0.12, HALF + 0.05, BOARD_RIM, FACE_TOP | FACE_LEFT | FACE_RIGHT);
  // Cell wells.
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const x = -HALF + c;
      const z = -HALF + r;
      const col = (r + c) % 2 ? CELL_A : CELL_B;
      b.quad([x + 0.04, 0, z + 0.04], [x + 0.04, 0, z + 0.96], [x + 0.96, 0, z + 0.96], [x + 0.96, 0, z + 0.04], col);
    }
  }
  // The tray the offered pieces rest on.
  b.box(-4.5, -0.5, TRAY_Z - 1.25, 4.5, -0.1, TRAY_Z + 1.25, TRAY_BASE, FACE_TOP | FACE_FRONT | FACE_LEFT | FACE_RIGHT);
  b.commit();
}

/** A wooden block with bevelled top edges: (x, z) is its back-left corner, s its side. */
function addBlock(b: MeshBuilder, x: number, z: number, s: number, y0: number, hgt: number, color: THREE.Color): void {
  const m = 0.04 * s; // gap to the neighbours
  const bev = 0.12 * s;
  const x0 = x + m;
  const x1 = x + s - m;
  const z0 = z + m;
  const z1 = z + s - m;
  const y1 = y0 + hgt;
  const yb = y1 - bev;
  b.box(x0, y0, z0, x1, yb, z1, color, FACE_FRONT | FACE_LEFT | FACE_RIGHT);
  const tx0 = x0 + bev;
  const tx1 = x1 - bev;
  const tz0 = z0 + bev;
  const tz1 = z1 - bev;
  b.quad([tx0, y1, tz0], [tx0, y1, tz1], [tx1, y1, tz1], [tx1, y1, tz0], color);
  b.quad([x0, yb, z1], [x1, yb, z1], [tx1, y1, tz1], [tx0, y1, tz1], color); // front bevel
  b.quad([tx0, y1, tz0], [tx1, y1, tz0], [x1, yb, z0], [x0, yb, z0], color); // back bevel
  b.quad([x1, yb, z1], [x1, yb, z0], [tx1, y1, tz0], [tx1, y1, tz1], color); // right bevel
  b.quad([x0, yb, z0], [x0, yb, z1], [tx0, y1, tz1], [tx0, y1, tz0], color); // left bevel
}

const GREY = C(0x7d7268);

function buildBlocks(b: MeshBuilder, s: WoodBlocksState, now: number): boolean {
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const v = s.board[r][c];
      if (v) addBlock(b, -HALF + c, -HALF + r, 1, 0, 0.5, woodColors[v - 1]);
    }
  }
  const animating = puzzle.clearAnimation(now, (cell, t) => {
    const col = woodColors[cell.color - 1].clone().lerp(LINE_GLOW, 0.6);
    const size = 1 - t;
    addBlock(b, -HALF + cell.col + (1 - size) / 2, -HALF + cell.row + (1 - size) / 2, size, 0.5 * t, 0.5 * size, col);
  });
  // Offered pieces on the tray.
  s.pieces.forEach((p, i) => {
    const cx = SLOT_X[i];
    if (i === s.selected && p && !s.gameOver) {
      const r0 = 1.32;
      b.quad([cx - r0, -0.09, TRAY_Z - 1.08], [cx - r0, -0.09, TRAY_Z + 1.08], [cx + r0, -0.09, TRAY_Z + 1.08], [cx + r0, -0.09, TRAY_Z - 1.08], SLOT_ON);
      b.quad(
        [cx - r0 + 0.08, -0.085, TRAY_Z - 1.0],
        [cx - r0 + 0.08, -0.085, TRAY_Z + 1.0],
        [cx + r0 - 0.08, -0.085, TRAY_Z + 1.0],
        [cx + r0 - 0.08, -0.085, TRAY_Z - 1.0],
        TRAY_BASE,
      );
    }
    if (!p) return;
    const sc = TRAY_SCALE;
    const lift = i === s.selected ? 0.25 : 0;
    for (const [dc, dr] of p.cells) {
      const x = cx + (dc - p.w / 2) * sc;
      const z = TRAY_Z + (dr - p.h / 2) * sc;
      addBlock(b, x, z, sc, -0.1 + lift, 0.5 * sc, p.fits ? woodColors[p.color - 1] : GREY);
    }
  });
  return animating;
}

function buildGhost(b: MeshBuilder, s: WoodBlocksState, p: Offered, dx: number): void {
  const ok = fits(s.board, p, s.cursor.col, s.cursor.row);
  const color = ok ? woodColors[p.color - 1].clone().lerp(LINE_GLOW, 0.35) : GHOST_BAD;
  const mark = ok ? GHOST_OK : GHOST_BAD;
  for (const [dc, dr] of p.cells) {
    const x = -HALF + s.cursor.col + dc + dx;
    const z = -HALF + s.cursor.row + dr;
    b.quad([x + 0.02, 0.01, z + 0.02], [x + 0.02, 0.01, z + 0.98], [x + 0.98, 0.01, z + 0.98], [x + 0.98, 0.01, z + 0.02], mark, 1);
    addBlock(b, x, z, 1, 0.7, 0.5, color);
  }
  if (ok) {
    // Light up the lines this drop would complete.
    const r = place(s.board, p, s.cursor.col, s.cursor.row, p.color);
    const y = 0.52;
    for (const row of r.rows)
      b.quad([-HALF, y, -HALF + row + 0.1], [-HALF, y, -HALF + row + 0.9], [HALF, y, -HALF + row + 0.9], [HALF, y, -HALF + row + 0.1], LINE_GLOW, 1);
    for (const col of r.cols)
      b.quad([-HALF + col + 0.1, y, -HALF], [-HALF + col + 0.1, y, HALF], [-HALF + col + 0.9, y, HALF], [-HALF + col + 0.9, y, -HALF], LINE_GLOW, 1);
  }
}

// ---------------------------------------------------------------------------------------------
// HUD.

const top = stage.hud.panel(0, 0, WIDTH, 46);
const labels = stage.hud.panel(0, HEIGHT - 26, WIDTH, 26);
const over = stage.hud.panel(50, 150, 300, 130);

function slotScreenX(i: number): number {
  const v = new THREE.Vector3(SLOT_X[i], 0, TRAY_Z + 1.25).project(camera);
  return ((v.x + 1) / 2) * WIDTH;
}

labels.draw('labels', (ctx, lw, lh) => {
  ctx.font = 'bold 14px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < 3; i++) {
    ctx.fillStyle = 'rgba(255,236,200,0.75)';
    ctx.fillText(String(i + 1), slotScreenX(i), lh / 2);
  }
  void lw;
});

function drawHud(): void {
  drawBlockPuzzleHud(
    top,
    over,
    w.woodBlocks,
    { shade: '20,12,6', text: '#ffe9c2', combo: '#ffd36b', card: 'rgba(30,18,10,0.88)', border: '#c99a5b', dim: '#d8bf98' },
    'No room left!',
  );
}

// ---------------------------------------------------------------------------------------------
// Pointer: click a tray piece to pick it, a cell to move the ghost there, the same cell again
// (or a hovered cell) to drop it; or drag a tray piece onto the board.

/** Cursor for a piece held by the clicked cell: the piece is centred on it, then kept on the board. */
function cursorFor(col: number, row: number): { col: number; row: number } {
  const p = w.woodBlocks.pieces[w.woodBlocks.selected];
  return cornerForCell(col, row, p ? p.w : 1, p ? p.h : 1);
}

function pick(e: PointerEvent): BlockPick<{ col: number; row: number }> {
  const hit = floorUnder(stage, camera, WIDTH, HEIGHT, e);
  if (!hit) return null;
  if (hit.z > TRAY_Z - 1.6) return { kind: 'slot', index: hit.x < -1.45 ? 0 : hit.x < 1.45 ? 1 : 2 };
  const col = Math.floor(hit.x + HALF);
  const row = Math.floor(hit.z + HALF);
  if (col < 0 || row < 0 || col >= SIZE || row >= SIZE) return null;
  return { kind: 'cell', cursor: cursorFor(col, row) };
}

puzzle.bindPointer(stage.canvas, pick);

// ---------------------------------------------------------------------------------------------

buildStatic();
puzzle.run(stage, view, { blocks: buildBlocks, ghost: buildGhost, hud: drawHud });
