import * as THREE from 'three';
import { fitToWindow, mountStage, toGameCoords } from '../shared/canvas';

/**
 * A small three.js stage for the gym's WebGL games: one canvas of the manifest's logical size,
 * a renderer tuned for software WebGL (SwiftShader in the headless gym: no antialiasing, no
 * lights, colours baked into vertices), a HUD drawn with the 2D canvas API onto textured quads,
 * and a frame loop that renders only when something changed.
 *
 * Colour management is off and output is linear, so a hex colour in the code is the colour
 * on screen.
 */

THREE.ColorManagement.enabled = false;

export interface Stage {
  canvas: HTMLCanvasElement;
  renderer: THREE.WebGLRenderer;
  width: number;
  height: number;
  pixelRatio: number;
  hud: Hud;
  /** Maps a pointer event to the game's logical canvas coordinates. */
  coords(e: { clientX: number; clientY: number }): { x: number; y: number };
  /** Asks for a render on the next eligible frame. */
  invalidate(): void;
  /**
   * Starts the frame loop. `tick` runs every animation frame with the elapsed ms (capped) and
   * returns true when it changed something on screen; `draw` renders. `frameDivisor` n > 1
   * renders at most on every n-th frame. The phase locks onto input: a key or pointer press
   * makes the frame just before it (the last one its player saw) a drawn one, so when presses
   * come every multiple of n frames (a gym step), every frame seen before a press is fresh.
   */
  loop(tick: (dtMs: number, now: number) => boolean | void, draw: () => void, opts?: { frameDivisor?: number }): void;
  /** Renders the scene, then the HUD on top. */
  render(scene: THREE.Scene, camera: THREE.Camera): void;
}

export function createStage(title: string, width: number, height: number, background = 0x0d1117): Stage {
  const stage = mountStage(title);
  const canvas = document.createElement('canvas');
  stage.appendChild(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: false, powerPreference: 'low-power', preserveDrawingBuffer: true });
  const pixelRatio = Math.max(1, Math.min(2, window.devicePixelRatio || 1));
  renderer.setPixelRatio(pixelRatio);
  renderer.setSize(width, height, false);
  renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
  renderer.setClearColor(background, 1);
  fitToWindow(canvas, width, height);
  const hud = new Hud(width, height, pixelRatio);
  let dirty = true;
  let last = -1;
  let frameCount = 0;
  let phase = -1;
  const lockPhase = () => {
    phase = frameCount;
  };
  window.addEventListener('keydown', lockPhase, true);
  window.addEventListener('pointerdown', lockPhase, true);

  const s: Stage = {
    canvas,
    renderer,
    width,
    height,
    pixelRatio,
    hud,
    coords: (e) => toGameCoords(canvas, width, height, e),
    invalidate: () => {
      dirty = true;
    },
    loop(tick, draw, opts = {}) {
      const divisor = Math.max(1, Math.floor(opts.frameDivisor ?? 1));
      const frame = (now: number) => {
        const dt = last < 0 ? 1000 / 60 : Math.min(100, Math.max(0, now - last));
        last = now;
        frameCount++;
        if (tick(dt, now)) dirty = true;
        if (hud.dirty) dirty = true;
        if (dirty && (divisor === 1 || phase < 0 || (frameCount - phase) % divisor === 0)) {
          dirty = false;
          draw();
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    },
    render(scene, camera) {
      renderer.autoClear = true;
      renderer.render(scene, camera);
      if (hud.hasVisible()) {
        renderer.autoClear = false;
        renderer.clearDepth();
        renderer.render(hud.scene, hud.camera);
        renderer.autoClear = true;
      }
      hud.dirty = false;
    },
  };
  return s;
}

/** A rectangle of HUD drawn with the 2D canvas API; redrawn only when its key changes. */
export class HudPanel {
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  readonly texture: THREE.CanvasTexture;
  readonly mesh: THREE.Mesh;
  private key: string | null = null;

  constructor(
    private readonly owner: Hud,
    readonly x: number,
    readonly y: number,
    readonly w: number,
    readonly h: number,
    pixelRatio: number,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = Math.ceil(w * pixelRatio);
    this.canvas.height = Math.ceil(h * pixelRatio);
    this.ctx = this.canvas.getContext('2d')!;
    this.ctx.scale(pixelRatio, pixelRatio);
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.minFilter = THREE.LinearFilter;
    this.texture.generateMipmaps = false;
    const material = new THREE.MeshBasicMaterial({ map: this.texture, transparent: true, depthTest: false, depthWrite: false });
    this.mesh = new THREE.Mesh(new THREE.PlaneGeometry(w, h), material);
    this.mesh.position.set(x + w / 2, -(y + h / 2), 0);
    this.mesh.visible = false;
    owner.scene.add(this.mesh);
  }

  get visible(): boolean {
    return this.mesh.visible;
  }

  set visible(v: boolean) {
    if (this.mesh.visible !== v) {
      this.mesh.visible = v;
      this.owner.dirty = true;
    }
  }

  /** Redraws the panel with `paint` when `key` differs from the last one drawn, and shows it. */
  draw(key: string, paint: (ctx: CanvasRenderingContext2D, w: number, h: number) => void): void {
    this.visible = true;
    if (key === this.key) return;
    this.key = key;
    this.ctx.clearRect(0, 0, this.w, this.h);
    paint(this.ctx, this.w, this.h);
    this.texture.needsUpdate = true;
    this.owner.dirty = true;
  }
}

export class Hud {
  readonly scene = new THREE.Scene();
  readonly camera: THREE.OrthographicCamera;
  dirty = false;
  private readonly panels: HudPanel[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly pixelRatio: number,
  ) {
    // Logical pixels, y down: (0,0) is the top-left corner of the canvas.
    this.camera = new THREE.OrthographicCamera(0, width, 0, -height, -1, 1);
  }

  panel(x: number, y: number, w: number, h: number): HudPanel {
    const p = new HudPanel(this, x, y, w, h, this.pixelRatio);
    this.panels.push(p);
    return p;
  }

  hasVisible(): boolean {
    return this.panels.some((p) => p.mesh.visible);
  }
}

/** A rounded rectangle path (the 2D API's roundRect is missing in older browsers). */
export function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

// ---------------------------------------------------------------------------------------------
// Geometry built on the CPU with baked flat shading: one draw call per builder, no lights.

const LIGHT = new THREE.Vector3(-0.35, 0.85, 0.45).normalize();
const AMBIENT = 0.5;
const DIFFUSE = 0.55;

export const FACE_TOP = 1;
export const FACE_BOTTOM = 2;
export const FACE_FRONT = 4;
export const FACE_BACK = 8;
export const FACE_RIGHT = 16;
export const FACE_LEFT = 32;
/** The faces a camera in front of and above the scene can see. */
export const FACES_VISIBLE = FACE_TOP | FACE_FRONT | FACE_RIGHT | FACE_LEFT;
export const FACES_ALL = 63;

const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _n = new THREE.Vector3();

/**
 * Collects flat-shaded triangles (position, colour, planar uv) and writes them into one
 * BufferGeometry, reusing its buffers while they are big enough.
 */
export class MeshBuilder {
  private pos: Float32Array;
  private col: Float32Array;
  private uv: Float32Array;
  private n = 0; // vertices
  readonly geometry = new THREE.BufferGeometry();
  private capacity: number;
  /** uv = world coordinate × uvScale, projected on the face's main plane. */
  uvScale = 1;

  constructor(initialVertices = 1024) {
    this.capacity = initialVertices;
    this.pos = new Float32Array(initialVertices * 3);
    this.col = new Float32Array(initialVertices * 3);
    this.uv = new Float32Array(initialVertices * 2);
    this.attach();
  }

  private attach(): void {
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage));
    this.geometry.setAttribute('color', new THREE.BufferAttribute(this.col, 3).setUsage(THREE.DynamicDrawUsage));
    this.geometry.setAttribute('uv', new THREE.BufferAttribute(this.uv, 2).setUsage(THREE.DynamicDrawUsage));
  }

  private ensure(extra: number): void {
    if (this.n + extra <= this.capacity) return;
    let cap = this.capacity;
    while (cap < this.n + extra) cap *= 2;
    const pos = new Float32Array(cap * 3);
    const col = new Float32Array(cap * 3);
    const uv = new Float32Array(cap * 2);
    pos.set(this.pos);
    col.set(this.col);
    uv.set(this.uv);
    this.pos = pos;
    this.col = col;
    this.uv = uv;
    this.capacity = cap;
    this.geometry.dispose();
    this.attach();
  }

  clear(): this {
    this.n = 0;
    return this;
  }

  get vertexCount(): number {
    return this.n;
  }

  /** Pushes the collected triangles to the GPU geometry. */
  commit(): THREE.BufferGeometry {
    const g = this.geometry;
    for (const name of ['position', 'color', 'uv']) {
      const attr = g.getAttribute(name) as THREE.BufferAttribute;
      attr.needsUpdate = true;
      attr.clearUpdateRanges();
      attr.addUpdateRange(0, this.n * attr.itemSize);
    }
    g.setDrawRange(0, this.n);
    // Culling works on bounds: a builder's mesh is always drawn (frustumCulled = false by the caller).
    return g;
  }

  /** A triangle with counter-clockwise winding seen from outside; shade from its normal. */
  tri(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number, color: THREE.Color, shade?: number): void {
    this.ensure(3);
    _a.set(bx - ax, by - ay, bz - az);
    _b.set(cx - ax, cy - ay, cz - az);
    _n.crossVectors(_a, _b).normalize();
    const k = shade ?? AMBIENT + DIFFUSE * Math.max(0, _n.dot(LIGHT));
    const nx = Math.abs(_n.x);
    const ny = Math.abs(_n.y);
    const nz = Math.abs(_n.z);
    const plane = ny >= nx && ny >= nz ? 1 : nz >= nx ? 2 : 0;
    const verts = [ax, ay, az, bx, by, bz, cx, cy, cz];
    for (let i = 0; i < 3; i++) {
      const x = verts[3 * i];
      const y = verts[3 * i + 1];
      const z = verts[3 * i + 2];
      const o = this.n * 3;
      this.pos[o] = x;
      this.pos[o + 1] = y;
      this.pos[o + 2] = z;
      this.col[o] = Math.min(1, color.r * k);
      this.col[o + 1] = Math.min(1, color.g * k);
      this.col[o + 2] = Math.min(1, color.b * k);
      const u = this.n * 2;
      const s = this.uvScale;
      if (plane === 1) {
        this.uv[u] = x * s;
        this.uv[u + 1] = z * s;
      } else if (plane === 2) {
        this.uv[u] = x * s;
        this.uv[u + 1] = y * s;
      } else {
        this.uv[u] = z * s;
        this.uv[u + 1] = y * s;
      }
      this.n++;
    }
  }

  /** A quad a→b→c→d, counter-clockwise seen from outside. */
  quad(a: readonly number[], b: readonly number[], c: readonly number[], d: readonly number[], color: THREE.Color, shade?: number): void {
    this.tri(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], color, shade);
    this.tri(a[0], a[1], a[2], c[0], c[1], c[2], d[0], d[1], d[2], color, shade);
  }

  /** An axis-aligned box from (x0,y0,z0) to (x1,y1,z1); `faces` picks which faces to emit. */
  box(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, color: THREE.Color, faces = FACES_VISIBLE): void {
    if (faces & FACE_TOP) this.quad([x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0], color);
    if (faces & FACE_BOTTOM) this.quad([x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1], color);
    if (faces & FACE_FRONT) this.quad([x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1], color);
    if (faces & FACE_BACK) this.quad([x1, y0, z0], [x0, y0, z0], [x0, y1, z0], [x1, y1, z0], color);
    if (faces & FACE_RIGHT) this.quad([x1, y0, z1], [x1, y0, z0], [x1, y1, z0], [x1, y1, z1], color);
    if (faces & FACE_LEFT) this.quad([x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0], color);
  }

  /**
   * A vertical prism with a regular polygon section centred on (cx, cz), from y0 to y1.
   * `angle` rotates the first corner; `sideFilter` can drop sides facing away (by normal).
   */
  prism(
    cx: number,
    y0: number,
    cz: number,
    radius: number,
    y1: number,
    sides: number,
    angle: number,
    color: THREE.Color,
    opts: { top?: boolean; skipBack?: boolean } = {},
  ): void {
    const xs: number[] = [];
    const zs: number[] = [];
    for (let i = 0; i < sides; i++) {
      const t = angle + (i * 2 * Math.PI) / sides;
      xs.push(cx + radius * Math.cos(t));
      zs.push(cz + radius * Math.sin(t));
    }
    if (opts.top !== false) {
      for (let i = 1; i < sides - 1; i++) this.tri(xs[0], y1, zs[0], xs[i + 1], y1, zs[i + 1], xs[i], y1, zs[i], color);
    }
    for (let i = 0; i < sides; i++) {
      const j = (i + 1) % sides;
      // Outward normal of this side, in the xz plane.
      const mx = (xs[i] + xs[j]) / 2 - cx;
      const mz = (zs[i] + zs[j]) / 2 - cz;
      if (opts.skipBack !== false && mz < -1e-6 * radius) continue;
      void mx;
      this.quad([xs[i], y0, zs[i]], [xs[i], y1, zs[i]], [xs[j], y1, zs[j]], [xs[j], y0, zs[j]], color);
    }
  }
}

/** A material for MeshBuilder geometry: vertex colours, optional texture (multiplied), no lighting. */
export function bakedMaterial(map?: THREE.Texture, opts: { transparent?: boolean; opacity?: number } = {}): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({ vertexColors: true, map: map ?? null, transparent: opts.transparent ?? false, opacity: opts.opacity ?? 1 });
}

/** A mesh for a builder's geometry, never frustum-culled (its bounds change every rebuild). */
export function builderMesh(builder: MeshBuilder, material: THREE.Material): THREE.Mesh {
  const mesh = new THREE.Mesh(builder.geometry, material);
  mesh.frustumCulled = false;
  return mesh;
}

/**
 * A procedural wood-grain texture (greyscale, multiplied with vertex colours): soft rings and
 * fine streaks drawn from a seeded hash, so it costs no Math.random draws.
 */
export function woodTexture(size = 128): THREE.CanvasTexture {
  const c = document.createElement('canvas');
  c.width = size;
  c.height = size;
  const ctx = c.getContext('2d')!;
  const img = ctx.createImageData(size, size);
  const hash = (n: number) => {
    let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const fx = x / size;
      const fy = y / size;
      const warp = 0.06 * Math.sin(fy * Math.PI * 4 + 1.3) + 0.03 * Math.sin(fy * Math.PI * 10);
      const rings = 0.5 + 0.5 * Math.sin((fx + warp) * Math.PI * 2 * 5);
      const streak = hash(x * 7 + Math.floor(fy * 6)) * 0.08;
      const v = 0.84 + 0.12 * rings - streak;
      const i = 4 * (y * size + x);
      const g = Math.round(255 * Math.min(1, v));
      img.data[i] = g;
      img.data[i + 1] = g;
      img.data[i + 2] = g;
      img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  const t = new THREE.CanvasTexture(c);
  t.wrapS = THREE.RepeatWrapping;
  t.wrapT = THREE.RepeatWrapping;
  t.magFilter = THREE.LinearFilter;
  t.minFilter = THREE.LinearFilter;
  t.generateMipmaps = false;
  return t;
}
