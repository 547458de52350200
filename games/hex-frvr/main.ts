import * as THREE from 'three';
import { createStage, type MeshBuilder } from '../shared-three/stage';
import { drawBlockPuzzleHud } from '../shared-three/block-puzzle-hud';
import { BlockPuzzle, createBlockScene, floorUnder, newTallies, pickByTier, type BlockPick, type BlockPuzzleState } from '../shared-three/block-puzzle';
import {
  CATALOGUE,
  CELLS,
  anchorForCell,
  LINES,
  cellIndex,
  emptyBoard,
  fits,
  fitsAnywhere,
  inside,
  key,
  levelFor,
  linePoints,
  nearestInside,
  place,
  stepCursor,
  tierWeights,
  type Axial,
  type DirName,
  type HexBoard,
} from './logic';

/**
 * Hex: a hexagonal board of 61 cells (radius 4) rendered as 3D hex prisms. Three pieces made of
 * hex cells are offered; pick one (1/2/3), steer its ghost across the board in the six hex
 * directions and drop it. Any full line along one of the three hex axes clears; clearing on
 * consecutive drops builds a combo. The game ends when none of the offered pieces fits.
 */

const WIDTH = 400;
const HEIGHT = 480;

interface Offered {
  name: string;
  cells: Axial[];
  color: number;
  fits: boolean;
}

/** The cursor is the axial cell of the selected piece's anchor (its first cell). */
export interface HexState extends BlockPuzzleState<HexBoard, Offered, Axial> {
  radius: number;
  /** [q, r] of every board cell, in the order of `board`. */
  cells: Axial[];
}

const PALETTE = [0xff6b6b, 0xffa94d, 0xffd43b, 0x69db7c, 0x4dabf7, 0x9775fa, 0xf783ac];
const colors = PALETTE.map((h) => new THREE.Color(h));

function keepInside(s: HexState): void {
  const p = s.pieces[s.selected];
  if (p && !inside(p, s.cursor[0], s.cursor[1])) s.cursor = nearestInside(p, s.cursor[0], s.cursor[1]);
}

// ---------------------------------------------------------------------------------------------
// Rules driven by input.

const puzzle = new BlockPuzzle<HexState, { i: number; color: number }>({
  global: 'hex',
  fresh: (): HexState => ({ radius: 4, cells: CELLS.map(([q, r]) => [q, r] as Axial), board: emptyBoard(), cursor: [0, 0], ...newTallies<Offered>() }),
  offer(level): Offered {
    const def = pickByTier(CATALOGUE, tierWeights(level));
    return { name: def.name, cells: def.cells.map(([q, r]) => [q, r] as Axial), color: 1 + Math.floor(Math.random() * PALETTE.length), fits: true };
  },
  fitsAnywhere,
  keepInside,
  fitsAtCursor: (s, p) => fits(s.board, p, s.cursor[0], s.cursor[1]),
  drop(s, p) {
    const before = s.board.slice();
    for (const [dq, dr] of p.cells) before[cellIndex.get(key(s.cursor[0] + dq, s.cursor[1] + dr))!] = p.color;
    const r = place(s.board, p, s.cursor[0], s.cursor[1], p.color);
    return { board: r.board, lines: r.lines.length, cells: r.cells, clearing: r.cleared.map((i) => ({ i, color: before[i] })) };
  },
  linePoints,
  levelFor,
  sameCursor: (a, b) => a[0] === b[0] && a[1] === b[1],
});
const w = window as unknown as { hex: HexState };

function move(dir: DirName): void {
  const s = w.hex;
  if (s.gameOver) return;
  const next = stepCursor(s.pieces[s.selected], s.cursor[0], s.cursor[1], dir);
  if (next[0] !== s.cursor[0] || next[1] !== s.cursor[1]) {
    s.cursor = next;
    puzzle.ghostDirty = true;
  }
}

const KEY_DIRS: Record<string, DirName> = { q: 'NW', e: 'NE', a: 'W', d: 'E', z: 'SW', c: 'SE', ArrowLeft: 'W', ArrowRight: 'E' };
puzzle.bindKeys((e) => {
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const s = w.hex;
  if (KEY_DIRS[k]) {
    e.preventDefault();
    move(KEY_DIRS[k]);
  } else if (k === 'ArrowUp' || k === 'w') {
    // Straight up zig-zags so the ghost stays in the same screen column.
    e.preventDefault();
    move(s.cursor[1] % 2 === 0 ? 'NE' : 'NW');
  } else if (k === 'ArrowDown' || k === 's') {
    e.preventDefault();
    move(s.cursor[1] % 2 === 0 ? 'SW' : 'SE');
  } else return false;
  return true;
});

// ---------------------------------------------------------------------------------------------
// Scene.

const stage = createStage('Hex', WIDTH, HEIGHT, 0x1c1a33);
const view = createBlockScene(stage, { eye: [0, 17.5, 9.4], target: [0, 0, 1.05], boardVertices: 4096, ghostOpacity: 0.62 });
const camera = view.camera;

const R = 0.52; // centre spacing (circumradius of a cell)
const SQ3 = Math.sqrt(3);
const HEX_ANGLE = Math.PI / 6; // pointy-topped cells
const TRAY_Z = 5.35;
const TRAY_SCALE = 0.42;
const SLOT_X = [-2.7, 0, 2.7];

const cellX = (q: number, r: number) => SQ3 * R * (q + r / 2);
const cellZ = (r: number) => 1.5 * R * r;

const C = (hex: number) => new THREE.Color(hex);
const BASE = C(0x2f2b55);
const BASE_EDGE = C(0x3d3870);
const TILE = C(0x4b4680);
const TILE_ALT = C(0x454078);
const TRAY = C(0x29264a);
const SLOT_ON = C(0xffe08a);
const GHOST_BAD = C(0xff4d4d);
const GHOST_OK = C(0xb2f2bb);
const GLOW = C(0xfff3bf);
const GREY = C(0x6c6a80);

function buildStatic(): void {
  const b = view.board.clear();
  b.prism(0, -0.55, 0, 4.75, -0.2, 6, 0, BASE_EDGE);
  b.prism(0, -0.2, 0, 4.55, -0.17, 6, 0, BASE, { skipBack: true });
  CELLS.forEach(([q, r]) => {
    b.prism(cellX(q, r), -0.17, cellZ(r), R * 0.92, 0, 6, HEX_ANGLE, (q - r) % 3 === 0 ? TILE_ALT : TILE);
  });
  // The tray of offered pieces.
  b.box(-4.1, -0.55, TRAY_Z - 1.15, 4.1, -0.15, TRAY_Z + 1.15, TRAY);
  b.commit();
}

function addCell(b: MeshBuilder, x: number, z: number, scale: number, y0: number, h: number, color: THREE.Color): void {
  b.prism(x, y0, z, R * 0.9 * scale, y0 + h, 6, HEX_ANGLE, color);
  // A lighter inner top gives the piece a bevelled, glossy look.
  b.prism(x, y0 + h, z, R * 0.62 * scale, y0 + h + 0.04 * scale, 6, HEX_ANGLE, color.clone().lerp(GLOW, 0.25), { skipBack: true });
}

function buildBlocks(b: MeshBuilder, s: HexState, now: number): boolean {
  CELLS.forEach(([q, r], i) => {
    const v = s.board[i];
    if (v) addCell(b, cellX(q, r), cellZ(r), 1, 0, 0.36, colors[v - 1]);
  });
  const animating = puzzle.clearAnimation(now, (c, t) => {
    const [q, r] = CELLS[c.i];
    addCell(b, cellX(q, r), cellZ(r), 1 - t, 0.4 * t, 0.36 * (1 - t), colors[c.color - 1].clone().lerp(GLOW, 0.6));
  });
  s.pieces.forEach((p, i) => {
    const cx = SLOT_X[i];
    if (i === s.selected && p && !s.gameOver) {
      b.box(cx - 1.25, -0.15, TRAY_Z - 1.05, cx + 1.25, -0.13, TRAY_Z + 1.05, SLOT_ON);
      b.box(cx - 1.17, -0.13, TRAY_Z - 0.97, cx + 1.17, -0.12, TRAY_Z + 0.97, TRAY);
    }
    if (!p) return;
    const xs = p.cells.map(([q, r]) => cellX(q, r));
    const zs = p.cells.map(([, r]) => cellZ(r));
    const mx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const mz = (Math.min(...zs) + Math.max(...zs)) / 2;
    const lift = i === s.selected ? 0.2 : 0;
    p.cells.forEach(([q, r]) => {
      addCell(
        b,
        cx + (cellX(q, r) - mx) * TRAY_SCALE,
        TRAY_Z + (cellZ(r) - mz) * TRAY_SCALE,
        TRAY_SCALE,
        -0.12 + lift,
        0.36 * TRAY_SCALE,
        p.fits ? colors[p.color - 1] : GREY,
      );
    });
  });
  return animating;
}

function buildGhost(b: MeshBuilder, s: HexState, p: Offered, dx: number): void {
  const ok = fits(s.board, p, s.cursor[0], s.cursor[1]);
  const color = ok ? colors[p.color - 1].clone().lerp(GLOW, 0.3) : GHOST_BAD;
  for (const [dq, dr] of p.cells) {
    const q = s.cursor[0] + dq;
    const r = s.cursor[1] + dr;
    const x = cellX(q, r) + dx;
    const z = cellZ(r);
    b.prism(x, 0.005, z, R * 0.92, 0.01, 6, HEX_ANGLE, ok ? GHOST_OK : GHOST_BAD, { skipBack: true });
    addCell(b, x, z, 1, 0.6, 0.36, color);
  }
  if (ok) {
    const r = place(s.board, p, s.cursor[0], s.cursor[1], p.color);
    for (const i of r.cleared) {
      const [q, rr] = CELLS[i];
      b.prism(cellX(q, rr), 0.41, cellZ(rr), R * 0.5, 0.42, 6, HEX_ANGLE, GLOW, { skipBack: true });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// HUD.

const top = stage.hud.panel(0, 0, WIDTH, 46);
const labels = stage.hud.panel(0, HEIGHT - 24, WIDTH, 24);
const over = stage.hud.panel(50, 150, 300, 130);

labels.draw('labels', (ctx, _lw, lh) => {
  ctx.font = 'bold 14px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = 'rgba(220,215,255,0.7)';
  for (let i = 0; i < 3; i++) {
    const v = new THREE.Vector3(SLOT_X[i], 0, TRAY_Z + 1.15).project(camera);
    ctx.fillText(String(i + 1), ((v.x + 1) / 2) * WIDTH, lh / 2);
  }
});

function drawHud(): void {
  drawBlockPuzzleHud(
    top,
    over,
    w.hex,
    { shade: '12,10,30', text: '#f3f0ff', combo: '#ffd43b', card: 'rgba(20,16,44,0.9)', border: '#9775fa', dim: '#c5bff0' },
    'No more moves',
  );
}

// ---------------------------------------------------------------------------------------------
// Pointer: click a tray piece to pick it, a cell to move the ghost's anchor there, the same cell
// again (or the hovered one) to drop it; or drag a tray piece onto the board.

function axialAt(x: number, z: number): Axial {
  const rf = z / (1.5 * R);
  const qf = x / (SQ3 * R) - rf / 2;
  const sf = -qf - rf;
  let q = Math.round(qf);
  let r = Math.round(rf);
  const s = Math.round(sf);
  const dq = Math.abs(q - qf);
  const dr = Math.abs(r - rf);
  const ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

function pick(e: PointerEvent): BlockPick<Axial> {
  const hit = floorUnder(stage, camera, WIDTH, HEIGHT, e);
  if (!hit) return null;
  if (hit.z > TRAY_Z - 1.3) return { kind: 'slot', index: hit.x < -1.35 ? 0 : hit.x < 1.35 ? 1 : 2 };
  const [q, r] = axialAt(hit.x, hit.z);
  if (!cellIndex.has(key(q, r))) return null;
  return { kind: 'cell', cursor: anchorForCell(w.hex.pieces[w.hex.selected], q, r) };
}

puzzle.bindPointer(stage.canvas, pick);

// ---------------------------------------------------------------------------------------------

buildStatic();
puzzle.run(stage, view, { blocks: buildBlocks, ghost: buildGhost, hud: drawHud });
void LINES;
