import type { GuiAction } from '../../schema/action';
import { ReplyParseError, type Point, type UiTarsAction } from './parse';

/**
 * Turns parsed UI-TARS actions into the gym's GUI actions, in game-canvas coordinates.
 * 'relative-1000' (UI-TARS's convention): (0,0) top-left to (1000,1000) bottom-right of the
 * screenshot. 'pixels': pixels of the screenshot the model was shown (scaled by the
 * screenshot's actual size, so a device scale factor or a resized image still maps right).
 */
export type CoordinateMode = 'relative-1000' | 'pixels';

export interface MappingSpace {
  /** The manifest's canvas size: the units of GUI actions. */
  canvas: { width: number; height: number };
  /** Size of the image the model saw, for 'pixels'. */
  image: { width: number; height: number };
  mode: CoordinateMode;
  /** Wheel delta of one scroll, in pixels. */
  scrollPx: number;
}

const KEY_NAMES: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  space: ' ',
  spacebar: ' ',
  esc: 'Escape',
  escape: 'Escape',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  up: 'ArrowUp',
  arrowup: 'ArrowUp',
  down: 'ArrowDown',
  arrowdown: 'ArrowDown',
  left: 'ArrowLeft',
  arrowleft: 'ArrowLeft',
  right: 'ArrowRight',
  arrowright: 'ArrowRight',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
};
const MODIFIERS = new Set(['ctrl', 'control', 'shift', 'alt', 'option', 'meta', 'cmd', 'command', 'win', 'super']);

/** A hotkey name ("enter", "Up", "a", "F5") as a KeyboardEvent.key; combinations are refused. */
export function keyName(raw: string): string {
  // A single character is that key, even one that reads as a separator ("+", " ").
  if (raw.length === 1) return raw;
  if (raw.trim().length === 1) return raw.trim();
  const parts = raw
    .trim()
    .split(/[\s+]+/)
    .filter(Boolean);
  if (parts.length !== 1) {
    const mods = parts.filter((p) => MODIFIERS.has(p.toLowerCase()));
    throw new ReplyParseError(
      mods.length
        ? `hotkey "${raw}": key combinations with ${mods.join('+')} are not in the GUI action vocabulary (one key per action)`
        : `hotkey "${raw}": give one key per action`,
    );
  }
  const k = parts[0];
  const lower = k.toLowerCase();
  if (KEY_NAMES[lower]) return KEY_NAMES[lower];
  if (/^f([1-9]|1[0-2])$/.test(lower)) return lower.toUpperCase();
  if (k.length === 1) return k;
  // Already a KeyboardEvent.key such as "ArrowUp" or "Enter".
  const known = Object.values(KEY_NAMES).find((v) => v.toLowerCase() === lower);
  if (known) return known;
  if (MODIFIERS.has(lower)) throw new ReplyParseError(`hotkey "${raw}": a modifier alone does nothing in a game`);
  throw new ReplyParseError(`hotkey "${raw}" is not a key name (enter, space, up, down, left, right, esc, tab, backspace, a letter or digit, …)`);
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export function toCanvasPoint([x, y]: Point, space: MappingSpace): [number, number] {
  const [maxX, maxY] = space.mode === 'relative-1000' ? [1000, 1000] : [space.image.width, space.image.height];
  // Allow a hair past the edge (models round); anything further means a different convention.
  if (x < 0 || y < 0 || x > maxX * 1.01 || y > maxY * 1.01) {
    const hint =
      space.mode === 'relative-1000' ? ' (coordinates are 0–1000 of the screenshot; a model that answers in pixels needs coordinates: "pixels")' : '';
    throw new ReplyParseError(`point (${x},${y}) is outside the screenshot${hint}`);
  }
  const cx = Math.min(x, maxX) * (space.canvas.width / maxX);
  const cy = Math.min(y, maxY) * (space.canvas.height / maxY);
  return [round1(cx), round1(cy)];
}

/**
 * The GUI actions for one model action, in order (usually one). `finished` and `call_user`
 * map to none: the agent handles them. A double click becomes one click: the vocabulary has
 * no double click.
 */
export function toGuiActions(a: UiTarsAction, space: MappingSpace): GuiAction[] {
  switch (a.type) {
    case 'click': {
      const [x, y] = toCanvasPoint(a.point, space);
      return [a.button === 'right' ? { type: 'click', x, y, button: 'right' } : { type: 'click', x, y }];
    }
    case 'drag':
      return [{ type: 'drag', from: toCanvasPoint(a.from, space), to: toCanvasPoint(a.to, space) }];
    case 'type': {
      // UI-TARS ends content with "\n" to submit it: type the text, then press Enter.
      const submit = a.content.endsWith('\n');
      const text = submit ? a.content.replace(/\n+$/, '') : a.content;
      if (text.length > 1000) throw new ReplyParseError(`type content is ${text.length} characters; at most 1000`);
      const out: GuiAction[] = text ? [{ type: 'type', text }] : [];
      if (submit) out.push({ type: 'key', key: 'Enter' });
      return out.length ? out : [{ type: 'wait' }];
    }
    case 'hotkey':
      return [{ type: 'key', key: keyName(a.key) }];
    case 'scroll': {
      const [x, y] = a.point ? toCanvasPoint(a.point, space) : [space.canvas.width / 2, space.canvas.height / 2];
      const d = space.scrollPx;
      const [dx, dy] = a.direction === 'down' ? [0, d] : a.direction === 'up' ? [0, -d] : a.direction === 'right' ? [d, 0] : [-d, 0];
      return [{ type: 'scroll', x, y, dx, dy }];
    }
    case 'wait':
      return [{ type: 'wait' }];
    case 'finished':
    case 'call_user':
      return [];
  }
}

/** Width and height of a PNG or JPEG, or null if neither. */
export function imageSize(buf: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length >= 24 && buf[0] === 0x89 && buf[1] === 0x50 && buf[2] === 0x4e && buf[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    // Walk the JPEG segments to a start-of-frame marker (SOF0..SOF15 except DHT/JPG/DAC).
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) return null;
      const marker = buf[i + 1];
      const len = view.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + len;
    }
  }
  return null;
}
