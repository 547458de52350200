import { createCanvas2d, bindTapsAndRestart, drawPlayAgainCard, drawText, paintSprite } from '../shared/canvas';
import { BOARD_UNITS, TRAY_SIZE, clickPoint, isFree, newState, type TilesState } from './logic';

/**
 * Tiles Master: layered tiles with symbols; a free tile (nothing above overlaps it) goes to
 * a 7-slot tray when clicked; three equal symbols in the tray vanish and score; a full tray
 * ends the game; an empty board deals a harder level (more symbols, layers and tiles).
 * The state changes at once on a click; the tile's flight to the tray and the vanishing
 * triple are drawn afterwards, and a click during an animation acts on the settled state.
 */

const WIDTH = 400;
const HEIGHT = 480;
const UNIT = 50;
const BX = (WIDTH - BOARD_UNITS * UNIT) / 2;
const BY = 50;
const SLOT = 52;
const TRAY_X = (WIDTH - TRAY_SIZE * SLOT) / 2;
const TRAY_Y = 414;
const FLY_MS = 80;
const CLEAR_MS = 60;
const BANNER_MS = 450;

interface Anim {
  start: number;
  symbol: number;
  fromX: number;
  fromY: number;
  slot: number;
  trayWithTile: number[];
  tripled: boolean;
}

const { canvas, ctx, pixelRatio } = createCanvas2d('Tiles Master', WIDTH, HEIGHT);

const w = window as unknown as { tilesMaster: TilesState };
w.tilesMaster = newState(Math.random);
let anim: Anim | null = null;
let banner: { start: number; text: string } | null = null;
let dirty = true;

function clickBoard(px: number, py: number): void {
  const s = w.tilesMaster;
  if (s.gameOver) return;
  const level = s.level;
  const p = clickPoint(s, px, py, Math.random);
  if (!p) return;
  const now = performance.now();
  anim = {
    start: now,
    symbol: p.tile.symbol,
    fromX: BX + p.tile.x * UNIT,
    fromY: BY + p.tile.y * UNIT,
    slot: p.slot,
    trayWithTile: p.trayWithTile,
    tripled: p.tripled,
  };
  if (s.level !== level) banner = { start: now, text: `Level ${s.level}` };
  dirty = true;
}

function restart(): void {
  w.tilesMaster = newState(Math.random);
  anim = null;
  banner = null;
  dirty = true;
}

const BUTTON = { x: WIDTH / 2 - 80, y: 290, w: 160, h: 44 };

bindTapsAndRestart({
  canvas,
  width: WIDTH,
  height: HEIGHT,
  button: BUTTON,
  isOver: () => w.tilesMaster.gameOver,
  restart,
  tap: (x, y) => clickBoard((x - BX) / UNIT, (y - BY) / UNIT),
});

// ---- symbols, drawn with canvas primitives ----

const SYMBOL_COLORS = ['#e5484d', '#2f6fdb', '#2f9e44', '#f76b15', '#e8b400', '#e93d82', '#7c4dce', '#0f9f9a', '#b3261e', '#1c9bd6', '#6aa70e', '#c77700'];

function drawSymbol(g: CanvasRenderingContext2D, k: number, cx: number, cy: number, r: number): void {
  g.fillStyle = SYMBOL_COLORS[k];
  g.strokeStyle = SYMBOL_COLORS[k];
  g.lineWidth = r * 0.32;
  g.lineJoin = 'round';
  g.lineCap = 'round';
  g.beginPath();
  switch (k) {
    case 0: // circle
      g.arc(cx, cy, r * 0.85, 0, Math.PI * 2);
      g.fill();
      break;
    case 1: // square
      g.rect(cx - r * 0.75, cy - r * 0.75, r * 1.5, r * 1.5);
      g.fill();
      break;
    case 2: // triangle
      g.moveTo(cx, cy - r * 0.9);
      g.lineTo(cx + r * 0.95, cy + r * 0.75);
      g.lineTo(cx - r * 0.95, cy + r * 0.75);
      g.closePath();
      g.fill();
      break;
    case 3: // diamond
      g.moveTo(cx, cy - r);
      g.lineTo(cx + r * 0.7, cy);
      g.lineTo(cx, cy + r);
      g.lineTo(cx - r * 0.7, cy);
      g.closePath();
      g.fill();
      break;
    case 4: // star
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.42 : r;
        g.lineTo(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr);
      }
      g.closePath();
      g.fill();
      break;
    case 5: // heart
      g.moveTo(cx, cy + r * 0.85);
      g.bezierCurveTo(cx - r * 1.3, cy - r * 0.1, cx - r * 0.6, cy - r * 1.1, cx, cy - r * 0.35);
      g.bezierCurveTo(cx + r * 0.6, cy - r * 1.1, cx + r * 1.3, cy - r * 0.1, cx, cy + r * 0.85);
      g.fill();
      break;
    case 6: // crescent moon
      g.arc(cx, cy, r * 0.85, Math.PI * 0.3, Math.PI * 1.7);
      g.arc(cx + r * 0.35, cy, r * 0.62, Math.PI * 1.55, Math.PI * 0.45, true);
      g.closePath();
      g.fill();
      break;
    case 7: // hexagon
      for (let i = 0; i < 6; i++) g.lineTo(cx + Math.cos((i * Math.PI) / 3) * r * 0.88, cy + Math.sin((i * Math.PI) / 3) * r * 0.88);
      g.closePath();
      g.fill();
      break;
    case 8: // cross
      g.moveTo(cx - r * 0.75, cy);
      g.lineTo(cx + r * 0.75, cy);
      g.moveTo(cx, cy - r * 0.75);
      g.lineTo(cx, cy + r * 0.75);
      g.stroke();
      break;
    case 9: // drop
      g.moveTo(cx, cy - r);
      g.bezierCurveTo(cx + r * 0.2, cy - r * 0.5, cx + r * 0.8, cy, cx + r * 0.7, cy + r * 0.35);
      g.arc(cx, cy + r * 0.3, r * 0.7, 0, Math.PI);
      g.bezierCurveTo(cx - r * 0.8, cy, cx - r * 0.2, cy - r * 0.5, cx, cy - r);
      g.fill();
      break;
    case 10: // leaf
      g.moveTo(cx - r * 0.8, cy + r * 0.8);
      g.quadraticCurveTo(cx - r * 0.8, cy - r * 0.8, cx + r * 0.85, cy - r * 0.85);
      g.quadraticCurveTo(cx + r * 0.8, cy + r * 0.8, cx - r * 0.8, cy + r * 0.8);
      g.fill();
      g.strokeStyle = 'rgba(255,255,255,0.7)';
      g.lineWidth = r * 0.1;
      g.beginPath();
      g.moveTo(cx - r * 0.6, cy + r * 0.6);
      g.lineTo(cx + r * 0.6, cy - r * 0.6);
      g.stroke();
      break;
    default: // lightning bolt
      g.moveTo(cx + r * 0.2, cy - r);
      g.lineTo(cx - r * 0.6, cy + r * 0.15);
      g.lineTo(cx - r * 0.02, cy + r * 0.15);
      g.lineTo(cx - r * 0.25, cy + r);
      g.lineTo(cx + r * 0.6, cy - r * 0.2);
      g.lineTo(cx + r * 0.05, cy - r * 0.2);
      g.closePath();
      g.fill();
  }
}

const TILE = 46;
const SPRITE_W = TILE + 4;
const SPRITE_H = TILE + 8;

/** A tile face with its edge below and its shadow; `shade` darkens covered tiles. */
function paintTile(g: CanvasRenderingContext2D, symbol: number, shade: boolean): void {
  g.fillStyle = 'rgba(10,5,20,0.35)';
  g.beginPath();
  g.roundRect(3, 7, TILE, TILE, 7);
  g.fill();
  g.fillStyle = '#a08a5c';
  g.beginPath();
  g.roundRect(0, 4, TILE, TILE, 7);
  g.fill();
  g.fillStyle = '#fbf3e0';
  g.strokeStyle = '#7d6a44';
  g.lineWidth = 1;
  g.beginPath();
  g.roundRect(0.5, 0.5, TILE - 1, TILE - 1, 7);
  g.fill();
  g.stroke();
  drawSymbol(g, symbol, TILE / 2, TILE / 2, TILE * 0.3);
  if (shade) {
    g.fillStyle = 'rgba(30,28,50,0.5)';
    g.beginPath();
    g.roundRect(0, 0, TILE, TILE + 4, 7);
    g.fill();
  }
}

/** Each (symbol, covered) tile is drawn once into an off-screen sprite; frames copy sprites. */
const sprites = new Map<number, HTMLCanvasElement>();

function drawTileAt(x: number, y: number, symbol: number, shade: boolean, scale = 1): void {
  const key = symbol * 2 + (shade ? 1 : 0);
  let sprite = sprites.get(key);
  if (!sprite) {
    sprite = paintSprite(pixelRatio, SPRITE_W, SPRITE_H, (g) => paintTile(g, symbol, shade));
    sprites.set(key, sprite);
  }
  const off = (TILE * (1 - scale)) / 2;
  ctx.drawImage(sprite, x + off, y + off, SPRITE_W * scale, SPRITE_H * scale);
}

const slotX = (i: number) => TRAY_X + i * SLOT + 3;

function drawTray(tray: readonly number[], skipSlot: number, vanishing: number | null, p: number): void {
  ctx.fillStyle = '#3b2f4a';
  ctx.beginPath();
  ctx.roundRect(TRAY_X - 6, TRAY_Y - 8, TRAY_SIZE * SLOT + 12, SLOT + 12, 12);
  ctx.fill();
  for (let i = 0; i < TRAY_SIZE; i++) {
    ctx.fillStyle = '#2a2136';
    ctx.beginPath();
    ctx.roundRect(slotX(i), TRAY_Y - 2, SLOT - 6, SLOT - 6, 7);
    ctx.fill();
  }
  tray.forEach((sym, i) => {
    if (i === skipSlot) return;
    const scale = vanishing === sym ? 1 - p : 1;
    if (scale > 0.02) drawTileAt(slotX(i), TRAY_Y - 4, sym, false, scale);
  });
}

function draw(now: number): void {
  const s = w.tilesMaster;
  if (anim && now - anim.start >= FLY_MS + (anim.tripled ? CLEAR_MS : 0)) {
    anim = null;
    dirty = true;
  }
  if (banner && now - banner.start >= BANNER_MS) {
    banner = null;
    dirty = true;
  }
  if (!dirty && !anim && !banner) return;
  dirty = false;
  // Header.
  ctx.fillStyle = '#2b2238';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.textBaseline = 'middle';
  drawText(ctx, 'Tiles Master', 12, 22, { color: '#f3d9a4', font: 'bold 22px sans-serif', align: 'left' });
  drawText(ctx, `Level ${s.level}   Tiles ${s.tiles.length}   Score ${s.score}`, WIDTH - 12, 22, {
    color: '#d7c9ef',
    font: 'bold 15px sans-serif',
    align: 'right',
  });
  // Board, bottom layer first.
  ctx.fillStyle = '#3a2f4b';
  ctx.beginPath();
  ctx.roundRect(BX - 8, BY - 8, BOARD_UNITS * UNIT + 16, BOARD_UNITS * UNIT + 16, 12);
  ctx.fill();
  const order = s.tiles.slice().sort((a, b) => a.layer - b.layer || a.y - b.y || a.x - b.x);
  for (const t of order) drawTileAt(BX + t.x * UNIT + 1, BY + t.y * UNIT + 1, t.symbol, !isFree(s.tiles, t));
  // Tray and the tile flying into it.
  if (anim) {
    const t = now - anim.start;
    if (t < FLY_MS) {
      drawTray(anim.trayWithTile, anim.slot, null, 0);
      const p = t / FLY_MS;
      const e = 1 - (1 - p) * (1 - p);
      const x = anim.fromX + (slotX(anim.slot) - anim.fromX) * e;
      const y = anim.fromY + (TRAY_Y - 4 - anim.fromY) * e;
      drawTileAt(x, y, anim.symbol, false);
    } else {
      drawTray(anim.trayWithTile, -1, anim.tripled ? anim.symbol : null, (t - FLY_MS) / CLEAR_MS);
    }
  } else {
    drawTray(s.tray, -1, null, 0);
  }
  if (banner) {
    const p = (now - banner.start) / BANNER_MS;
    ctx.globalAlpha = p < 0.7 ? 1 : (1 - p) / 0.3;
    ctx.fillStyle = 'rgba(20,14,30,0.8)';
    ctx.fillRect(0, BY + 140, WIDTH, 70);
    ctx.fillStyle = '#f3d9a4';
    ctx.font = 'bold 34px sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(banner.text, WIDTH / 2, BY + 176);
    ctx.globalAlpha = 1;
  }
  if (s.gameOver && !anim) {
    drawPlayAgainCard(ctx, {
      width: WIDTH,
      area: { x: 0, y: 0, w: WIDTH, h: HEIGHT },
      shade: 'rgba(15,10,25,0.75)',
      title: 'Tray full',
      titleY: 200,
      line: `Score ${s.score} · level ${s.level}`,
      lineY: 245,
      button: BUTTON,
      buttonFill: '#f3d9a4',
      buttonText: '#2b2238',
    });
  }
}

function frame(now: number): void {
  draw(now);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
