import * as THREE from 'three';
import { bakedMaterial, builderMesh, MeshBuilder, type Stage } from './stage';

/**
 * The rules and controls the 3D block puzzles (hex-frvr, wood-blocks-3d) share: three pieces
 * are offered at a time, one is selected and steered as a ghost, a drop that fits scores its
 * cells plus its cleared lines (more on a streak), a new set comes when all three are used, and
 * the game ends when none of those left fits. Each game brings its board, its pieces and its
 * drawing; this keeps the state, the drop, the animations' clocks and the input.
 */

/** What a block puzzle keeps in its window global (the verifier reads it). */
export interface BlockPuzzleState<B, P, Cur> {
  board: B;
  pieces: (P | null)[];
  selected: number;
  /** Where the selected piece's ghost is. */
  cursor: Cur;
  score: number;
  level: number;
  lines: number;
  combo: number;
  moves: number;
  sets: number;
  gameOver: boolean;
}

/** The tallies of a new game, before its first set is dealt. */
export function newTallies<P>(): Omit<BlockPuzzleState<never, P, never>, 'board' | 'cursor'> {
  return { pieces: [null, null, null], selected: 0, score: 0, level: 1, lines: 0, combo: 0, moves: 0, sets: 0, gameOver: false };
}

/** A drop worked out on the board: the new board, the lines it clears and their cells (for the animation). */
export interface BlockDrop<B, C> {
  board: B;
  lines: number;
  /** Cells placed. */
  cells: number;
  clearing: C[];
}

type AnyState = BlockPuzzleState<unknown, { fits: boolean }, unknown>;
type PieceOf<S extends AnyState> = NonNullable<S['pieces'][number]>;

export interface BlockPuzzleRules<S extends AnyState, C, D extends BlockDrop<S['board'], C>> {
  /** The window property that holds the state. */
  global: string;
  /** A new game's state before its first set is dealt. */
  fresh(): S;
  /** One offered piece for a set dealt at `level`. */
  offer(level: number): PieceOf<S>;
  fitsAnywhere(board: S['board'], p: PieceOf<S>): boolean;
  /** Moves the cursor back to where the selected piece lies on the board. */
  keepInside(s: S): void;
  fitsAtCursor(s: S, p: PieceOf<S>): boolean;
  /** The drop of `p` at the cursor (it fits); leaves `s` alone. */
  drop(s: S, p: PieceOf<S>): D;
  linePoints(lines: number, combo: number): number;
  levelFor(score: number): number;
  /** Extra bookkeeping of a game after a drop's score (its lines scored `points`). */
  scored?(s: S, d: D, points: number): void;
  sameCursor(a: S['cursor'], b: S['cursor']): boolean;
}

/** Where a pointer event lands: a tray slot, or the cursor a click on a board cell asks for. */
export type BlockPick<Cur> = { kind: 'slot'; index: number } | { kind: 'cell'; cursor: Cur } | null;

/** A catalogue entry drawn by tier weight, each tier's weight split evenly among its pieces. */
export function pickByTier<T extends { tier: number }>(catalogue: readonly T[], weights: readonly number[]): T {
  const per = (t: number) => weights[t] / catalogue.filter((q) => q.tier === t).length;
  const total = catalogue.reduce((s, p) => s + per(p.tier), 0);
  let x = Math.random() * total;
  for (const p of catalogue) {
    x -= per(p.tier);
    if (x < 0) return p;
  }
  return catalogue[0];
}

/** The 3D scene of a block puzzle: a camera looking down at the board, and mesh builders for the board, the blocks and the ghost. */
export interface BlockScene {
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  board: MeshBuilder;
  blocks: MeshBuilder;
  ghost: MeshBuilder;
}

export function createBlockScene(
  stage: Stage,
  o: {
    eye: [number, number, number];
    target: [number, number, number];
    boardVertices: number;
    texture?: THREE.Texture;
    uvScale?: { board: number; blocks: number };
    ghostOpacity: number;
  },
): BlockScene {
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(34, stage.width / stage.height, 1, 80);
  camera.position.set(...o.eye);
  camera.lookAt(...o.target);
  camera.updateMatrixWorld();
  const board = new MeshBuilder(o.boardVertices);
  if (o.uvScale) board.uvScale = o.uvScale.board;
  const blocks = new MeshBuilder(4096);
  if (o.uvScale) blocks.uvScale = o.uvScale.blocks;
  const ghost = new MeshBuilder(1024);
  scene.add(builderMesh(board, bakedMaterial(o.texture)));
  scene.add(builderMesh(blocks, bakedMaterial(o.texture)));
  const ghostMesh = builderMesh(ghost, bakedMaterial(undefined, { transparent: true, opacity: o.ghostOpacity }));
  // Drawn after the opaque board and blocks, so they show through it.
  ghostMesh.renderOrder = 2;
  scene.add(ghostMesh);
  return { scene, camera, board, blocks, ghost };
}

const CLEAR_ANIM_MS = 90;
const SHAKE_MS = 90;

export class BlockPuzzle<S extends AnyState, C, D extends BlockDrop<S['board'], C> = BlockDrop<S['board'], C>> {
  /** The board (with the tray) needs building again. */
  boardDirty = true;
  /** The ghost needs building again. */
  ghostDirty = true;
  private clearing: C[] = [];
  private clearStart = -1;
  private shakeStart = -1;
  private readonly win = window as unknown as Record<string, S>;

  constructor(private readonly rules: BlockPuzzleRules<S, C, D>) {
    this.win[rules.global] = this.newGame();
  }

  get state(): S {
    return this.win[this.rules.global];
  }

  private newGame(): S {
    const s = this.rules.fresh();
    this.deal(s);
    this.rules.keepInside(s);
    this.refreshFits(s);
    return s;
  }

  private deal(s: S): void {
    s.pieces = [0, 1, 2].map(() => this.rules.offer(s.level));
    s.sets++;
    s.selected = 0;
  }

  private refreshFits(s: S): void {
    for (const p of s.pieces) if (p) p.fits = this.rules.fitsAnywhere(s.board, p);
    if (!s.pieces.some((p) => p?.fits)) s.gameOver = true;
  }

  select(i: number): void {
    const s = this.state;
    if (s.gameOver || !s.pieces[i] || s.selected === i) return;
    s.selected = i;
    this.rules.keepInside(s);
    this.boardDirty = true;
    this.ghostDirty = true;
  }

  /** Drops the selected piece at the cursor, or shakes its ghost when it does not fit there; says whether it dropped. */
  tryPlace(): boolean {
    const s = this.state;
    if (s.gameOver) return false;
    const p = s.pieces[s.selected];
    if (!p || !this.rules.fitsAtCursor(s, p)) {
      this.shakeStart = performance.now();
      this.ghostDirty = true;
      return false;
    }
    const d = this.rules.drop(s, p);
    this.clearing = d.clearing;
    this.clearStart = this.clearing.length ? performance.now() : -1;
    s.board = d.board;
    s.combo = d.lines > 0 ? s.combo + 1 : 0;
    const points = this.rules.linePoints(d.lines, Math.max(1, s.combo));
    s.score += d.cells + points;
    s.lines += d.lines;
    s.moves++;
    this.rules.scored?.(s, d, points);
    s.level = this.rules.levelFor(s.score);
    s.pieces[s.selected] = null;
    if (s.pieces.every((q) => q === null)) this.deal(s);
    else s.selected = s.pieces.findIndex((q) => q !== null);
    this.rules.keepInside(s);
    this.refreshFits(s);
    this.boardDirty = true;
    this.ghostDirty = true;
    return true;
  }

  restart(): void {
    this.win[this.rules.global] = this.newGame();
    this.clearing = [];
    this.clearStart = -1;
    this.boardDirty = true;
    this.ghostDirty = true;
  }

  /** Draws the cells of the lines just cleared at progress t (0 → 1) while that runs; says whether it still runs. */
  clearAnimation(now: number, draw: (cell: C, t: number) => void): boolean {
    if (this.clearStart < 0) return false;
    const t = (now - this.clearStart) / CLEAR_ANIM_MS;
    if (t < 1) {
      for (const c of this.clearing) draw(c, t);
      return true;
    }
    this.clearStart = -1;
    this.clearing = [];
    return false;
  }

  /** The ghost's sideways offset while it shakes off a refused drop. */
  private shake(now: number): { dx: number; animating: boolean } {
    if (this.shakeStart >= 0) {
      const t = (now - this.shakeStart) / SHAKE_MS;
      if (t < 1) return { dx: 0.15 * Math.sin(t * Math.PI * 4) * (1 - t), animating: true };
      this.shakeStart = -1;
    }
    return { dx: 0, animating: false };
  }

  /**
   * Keyboard: `moveKey` handles (and says it handled) the game's own movement keys; 1–3 pick a
   * piece, Enter or Space drops it, and Enter restarts a game that is over.
   */
  bindKeys(moveKey: (e: KeyboardEvent) => boolean): void {
    window.addEventListener('keydown', (e) => {
      if (moveKey(e)) return;
      if (e.key === '1' || e.key === '2' || e.key === '3') {
        this.select(Number(e.key) - 1);
      } else if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        if (this.state.gameOver) {
          if (e.key === 'Enter') this.restart();
        } else this.tryPlace();
      }
    });
  }

  /**
   * Pointer: a click restarts a game that is over; otherwise it picks a tray piece, or moves the
   * ghost to a cell, or (on the ghost's own cell) drops it. A hovering mouse moves the ghost.
   * A tray piece dragged onto the board drops where it is let go; one that does not fit there
   * goes back, and the selection and ghost with it, so the drag changes nothing.
   */
  bindPointer(canvas: HTMLCanvasElement, pick: (e: PointerEvent) => BlockPick<S['cursor']>): void {
    let drag: { selected: number; cursor: S['cursor']; moved: boolean } | null = null;
    canvas.addEventListener('pointerdown', (e) => {
      const s = this.state;
      drag = null;
      if (s.gameOver) {
        this.restart();
        return;
      }
      const target = pick(e);
      if (!target) return;
      if (target.kind === 'slot') {
        if (s.pieces[target.index]) drag = { selected: s.selected, cursor: structuredClone(s.cursor), moved: false };
        this.select(target.index);
        return;
      }
      if (this.rules.sameCursor(target.cursor, s.cursor)) this.tryPlace();
      else {
        s.cursor = target.cursor;
        this.ghostDirty = true;
      }
    });
    canvas.addEventListener('pointermove', (e) => {
      const s = this.state;
      if (s.gameOver) return;
      const target = pick(e);
      if (drag) {
        if (target?.kind === 'cell') {
          drag.moved = true;
          s.cursor = target.cursor;
          this.ghostDirty = true;
        }
        return;
      }
      if (e.pointerType !== 'mouse' || e.buttons || target?.kind !== 'cell') return;
      if (!this.rules.sameCursor(target.cursor, s.cursor)) {
        s.cursor = target.cursor;
        this.ghostDirty = true;
      }
    });
    canvas.addEventListener('pointerup', (e) => {
      const d = drag;
      drag = null;
      const s = this.state;
      // A tap on a tray piece only picks it.
      if (!d || !d.moved || s.gameOver) return;
      const target = pick(e);
      if (target?.kind === 'cell') s.cursor = target.cursor;
      if (target?.kind === 'cell' && this.tryPlace()) return;
      s.selected = d.selected;
      s.cursor = d.cursor;
      this.boardDirty = true;
      this.ghostDirty = true;
    });
  }

  /**
   * Runs the stage: rebuilds the blocks (board contents and tray) and the ghost of the selected
   * piece when something changed or while they animate, and redraws the HUD every frame.
   */
  run(
    stage: Stage,
    view: BlockScene,
    parts: {
      blocks: (b: MeshBuilder, s: S, now: number) => boolean;
      ghost: (b: MeshBuilder, s: S, p: PieceOf<S>, dx: number) => void;
      hud: (s: S) => void;
    },
  ): void {
    const buildBlocks = (now: number) => {
      const b = view.blocks.clear();
      const animating = parts.blocks(b, this.state, now);
      b.commit();
      return animating;
    };
    const buildGhost = (now: number) => {
      const s = this.state;
      const b = view.ghost.clear();
      const p = s.pieces[s.selected];
      let animating = false;
      if (p && !s.gameOver) {
        const shake = this.shake(now);
        animating = shake.animating;
        parts.ghost(b, s, p, shake.dx);
      }
      b.commit();
      return animating;
    };
    let animBlocks = false;
    let animGhost = false;
    stage.loop(
      (_dt, now) => {
        let changed = false;
        if (this.boardDirty || animBlocks) {
          this.boardDirty = false;
          animBlocks = buildBlocks(now);
          changed = true;
        }
        if (this.ghostDirty || animGhost) {
          this.ghostDirty = false;
          animGhost = buildGhost(now);
          changed = true;
        }
        parts.hud(this.state);
        return changed;
      },
      () => stage.render(view.scene, view.camera),
    );
  }
}

const raycaster = new THREE.Raycaster();
const FLOOR = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
const floorHit = new THREE.Vector3();

/**
 * Where the ray under the pointer meets the floor (y = 0) of a width × height stage seen by
 * `camera`, or null when it misses. The vector returned is reused by the next call.
 */
export function floorUnder(stage: Pick<Stage, 'coords'>, camera: THREE.Camera, width: number, height: number, e: PointerEvent): THREE.Vector3 | null {
  const { x, y } = stage.coords(e);
  raycaster.setFromCamera(new THREE.Vector2((x / width) * 2 - 1, -((y / height) * 2 - 1)), camera);
  return raycaster.ray.intersectPlane(FLOOR, floorHit);
}
