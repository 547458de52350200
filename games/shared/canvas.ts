/**
 * A game canvas of fixed logical size whose backing store follows the device pixel ratio
 * and whose CSS size fits the window, so games stay sharp and whole on phones and laptops.
 */
export interface GameCanvas {
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
  pixelRatio: number;
}

export function mountStage(title: string): HTMLElement {
  document.title = title;
  const style = document.createElement('style');
  style.textContent = `html,body{margin:0;height:100%;background:#0d1117;overflow:hidden;touch-action:none}
#stage{position:absolute;inset:0;display:flex;align-items:center;justify-content:center}
#stage canvas{display:block;image-rendering:auto}`;
  document.head.appendChild(style);
  const stage = document.createElement('div');
  stage.id = 'stage';
  document.body.appendChild(stage);
  return stage;
}

export function fitToWindow(canvas: HTMLCanvasElement, width: number, height: number): void {
  const fit = () => {
    const scale = Math.min(window.innerWidth / width, window.innerHeight / height) || 1;
    canvas.style.width = `${Math.floor(width * scale)}px`;
    canvas.style.height = `${Math.floor(height * scale)}px`;
  };
  fit();
  window.addEventListener('resize', fit);
}

export function createCanvas2d(title: string, width: number, height: number): GameCanvas & { ctx: CanvasRenderingContext2D } {
  const stage = mountStage(title);
  const canvas = document.createElement('canvas');
  const pixelRatio = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  canvas.width = Math.round(width * pixelRatio);
  canvas.height = Math.round(height * pixelRatio);
  stage.appendChild(canvas);
  fitToWindow(canvas, width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(pixelRatio, pixelRatio);
  return { canvas, ctx, width, height, pixelRatio };
}

/** Maps a pointer event to the game's logical coordinates. */
export function toGameCoords(canvas: HTMLCanvasElement, width: number, height: number, e: { clientX: number; clientY: number }): { x: number; y: number } {
  const r = canvas.getBoundingClientRect();
  return { x: ((e.clientX - r.left) * width) / (r.width || 1), y: ((e.clientY - r.top) * height) / (r.height || 1) };
}

/** An off-screen canvas of width × height (game units) at the device pixel ratio, painted once by `paint`. */
export function paintSprite(pixelRatio: number, width: number, height: number, paint: (g: CanvasRenderingContext2D) => void): HTMLCanvasElement {
  const sprite = document.createElement('canvas');
  sprite.width = Math.ceil(width * pixelRatio);
  sprite.height = Math.ceil(height * pixelRatio);
  const g = sprite.getContext('2d')!;
  g.scale(pixelRatio, pixelRatio);
  paint(g);
  return sprite;
}

/**
 * A pointer press and release on the canvas: `release` gets the drag between them (dx, dy) and
 * where the pointer was let go, in game coordinates, so a game tells taps from swipes.
 */
export function onPointerRelease(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  release: (dx: number, dy: number, at: { x: number; y: number }) => void,
): void {
  let press: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => {
    press = toGameCoords(canvas, width, height, e);
  });
  canvas.addEventListener('pointerup', (e) => {
    if (!press) return;
    const p = toGameCoords(canvas, width, height, e);
    const dx = p.x - press.x;
    const dy = p.y - press.y;
    press = null;
    release(dx, dy, p);
  });
}

/** Swipe gestures on touch screens become the same direction keys the keyboard gives. */
export type Direction = 'up' | 'down' | 'left' | 'right';

/** Arrow keys and WASD (either case), as the directions of onSwipe. */
export const DIRECTION_KEYS: Readonly<Record<string, Direction>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  w: 'up',
  s: 'down',
  a: 'left',
  d: 'right',
  W: 'up',
  S: 'down',
  A: 'left',
  D: 'right',
};

export function onSwipe(target: HTMLElement, handler: (dir: Direction) => void): void {
  let start: { x: number; y: number } | null = null;
  target.addEventListener(
    'touchstart',
    (e) => {
      const t = e.touches[0];
      start = { x: t.clientX, y: t.clientY };
    },
    { passive: true },
  );
  target.addEventListener('touchend', (e) => {
    if (!start) return;
    const t = e.changedTouches[0];
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
    if (Math.abs(dx) > Math.abs(dy)) handler(dx > 0 ? 'right' : 'left');
    else handler(dy > 0 ? 'down' : 'up');
  });
}

/** How a line of text is drawn; the context keeps these settings afterwards, as if set by hand. */
export interface TextStyle {
  color: string;
  font: string;
  /** Left as the context has it when not given. */
  align?: CanvasTextAlign;
}

/** `text` at (x, y) in `style`. */
export function drawText(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, style: TextStyle): void {
  ctx.fillStyle = style.color;
  ctx.font = style.font;
  if (style.align) ctx.textAlign = style.align;
  ctx.fillText(text, x, y);
}

/** How a header's stat box looks (drawStatBox): its fill, its label's style, its value's style and baseline below the box's top. */
export interface StatBoxLook {
  fill: string;
  label: TextStyle;
  value: TextStyle & { dy: number };
}

/**
 * A header's stat box (SCORE, MOVES): a rounded panel with a small label 14 px below its top
 * and the value under it, both centred. Leaves the alignment 'center'.
 */
export function drawStatBox(ctx: CanvasRenderingContext2D, box: Rect, label: string, value: string, look: StatBoxLook): void {
  ctx.fillStyle = look.fill;
  ctx.beginPath();
  ctx.roundRect(box.x, box.y, box.w, box.h, 8);
  ctx.fill();
  const cx = box.x + box.w / 2;
  drawText(ctx, label, cx, box.y + 14, { ...look.label, align: 'center' });
  drawText(ctx, value, cx, box.y + look.value.dy, look.value);
}

/**
 * Keyboard play: a key found in `keys` is taken by the game (no page scroll) and handed to `act`
 * as its command; Enter calls `restart` once the game is over.
 */
export function onGameKeys<C>(keys: Readonly<Record<string, C>>, act: (command: C) => void, o: { isOver: () => boolean; restart: () => void }): void {
  window.addEventListener('keydown', (e) => {
    const command = keys[e.key];
    if (command) {
      e.preventDefault();
      act(command);
    } else if (e.key === 'Enter' && o.isOver()) {
      o.restart();
    }
  });
}

/** Direction play: arrow keys and WASD (onGameKeys with DIRECTION_KEYS), and swipes on the page. */
export function onDirectionInput(act: (dir: Direction) => void, o: { isOver: () => boolean; restart: () => void }): void {
  onGameKeys(DIRECTION_KEYS, act, o);
  onSwipe(document.body, act);
}

/**
 * The end-of-game screen several games share: the board dimmed under `shade`, a title and a
 * line under it, centred. Leaves the context's text alignment at 'left' as it found it.
 */
export function drawEndOverlay(ctx: CanvasRenderingContext2D, width: number, height: number, shade: string, title: string, subtitle: string): void {
  ctx.fillStyle = shade;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.font = 'bold 30px sans-serif';
  ctx.fillText(title, width / 2, height / 2 - 18);
  ctx.font = '16px sans-serif';
  ctx.fillText(subtitle, width / 2, height / 2 + 18);
  ctx.textAlign = 'left';
}

/**
 * A line that fades out over `durationMs` after an event `since` ms ago (a level solved),
 * centred on (x, y); nothing outside that window. Leaves alignment 'left' and alpha 1.
 */
export function drawFadingBanner(
  ctx: CanvasRenderingContext2D,
  text: string,
  o: { x: number; y: number; color: string; font: string; since: number; durationMs: number },
): void {
  if (o.since < 0 || o.since >= o.durationMs) return;
  ctx.globalAlpha = 1 - o.since / o.durationMs;
  ctx.fillStyle = o.color;
  ctx.font = o.font;
  ctx.textAlign = 'center';
  ctx.fillText(text, o.x, o.y);
  ctx.textAlign = 'left';
  ctx.globalAlpha = 1;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The controls of the tap games: a tap goes to `tap` in the game's coordinates; once the game
 * is over, a tap on `button` or Enter restarts it.
 */
export function bindTapsAndRestart(o: {
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
  button: Rect;
  isOver: () => boolean;
  restart: () => void;
  tap: (x: number, y: number) => void;
}): void {
  o.canvas.addEventListener('pointerdown', (e) => {
    const { x, y } = toGameCoords(o.canvas, o.width, o.height, e);
    if (o.isOver()) {
      const b = o.button;
      if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) o.restart();
      return;
    }
    o.tap(x, y);
  });
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && o.isOver()) o.restart();
  });
}

/**
 * The end card of the tap games: `area` dimmed under `shade`, a title and a line centred at
 * `titleY` and `lineY`, and the "Play again" button. Leaves alignment 'center'.
 */
export function drawPlayAgainCard(
  ctx: CanvasRenderingContext2D,
  o: {
    width: number;
    area: Rect;
    shade: string;
    title: string;
    titleY: number;
    line: string;
    lineY: number;
    button: Rect;
    buttonFill: string;
    buttonText: string;
  },
): void {
  ctx.fillStyle = o.shade;
  ctx.fillRect(o.area.x, o.area.y, o.area.w, o.area.h);
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = 'bold 36px sans-serif';
  ctx.fillText(o.title, o.width / 2, o.titleY);
  ctx.font = '18px sans-serif';
  ctx.fillText(o.line, o.width / 2, o.lineY);
  ctx.fillStyle = o.buttonFill;
  ctx.beginPath();
  ctx.roundRect(o.button.x, o.button.y, o.button.w, o.button.h, 10);
  ctx.fill();
  ctx.fillStyle = o.buttonText;
  ctx.font = 'bold 18px sans-serif';
  ctx.fillText('Play again', o.width / 2, o.button.y + o.button.h / 2 + 1);
}

/** A dark strip across the middle (or centred on `y`) with one line on it (a level solved), for as long as it is drawn. */
export function drawStripBanner(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  text: string,
  o: { shade: string; color: string; y?: number; font?: string },
): void {
  const y = o.y ?? height / 2;
  ctx.fillStyle = o.shade;
  ctx.fillRect(0, y - 26, width, 52);
  ctx.fillStyle = o.color;
  ctx.textAlign = 'center';
  ctx.font = o.font ?? 'bold 24px sans-serif';
  ctx.fillText(text, width / 2, y);
  ctx.textAlign = 'start';
}

/** The end screen of the puzzle-level games: a title, a result line and how to restart. */
export function drawGameOverCard(ctx: CanvasRenderingContext2D, width: number, height: number, o: { title: string; titleFont: string; line: string }): void {
  ctx.fillStyle = 'rgba(0,0,0,0.65)';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.font = o.titleFont;
  ctx.fillText(o.title, width / 2, height / 2 - 24);
  ctx.font = '16px sans-serif';
  ctx.fillText(o.line, width / 2, height / 2 + 10);
  ctx.fillText('Press Enter to play again', width / 2, height / 2 + 34);
  ctx.textAlign = 'start';
}
