import type { GuiAction } from '../schema/action';
import type { VirtualClock } from './virtual-clock';

/**
 * Turns a GUI action into the DOM events a person's input would produce, dispatched in the
 * page itself. Dispatching here (rather than through the browser's input pipeline) keeps a
 * step to one round trip and works the same in a visitor's browser during replay.
 */

const KEY_CODES: Record<string, [code: string, keyCode: number]> = {
  ArrowLeft: ['ArrowLeft', 37],
  ArrowUp: ['ArrowUp', 38],
  ArrowRight: ['ArrowRight', 39],
  ArrowDown: ['ArrowDown', 40],
  Enter: ['Enter', 13],
  Escape: ['Escape', 27],
  ' ': ['Space', 32],
  Tab: ['Tab', 9],
  Backspace: ['Backspace', 8],
  Shift: ['ShiftLeft', 16],
  Control: ['ControlLeft', 17],
  Alt: ['AltLeft', 18],
};

function keyInfo(key: string): { code: string; keyCode: number } {
  const known = KEY_CODES[key];
  if (known) return { code: known[0], keyCode: known[1] };
  if (key.length === 1) {
    const upper = key.toUpperCase();
    if (upper >= 'A' && upper <= 'Z') return { code: `Key${upper}`, keyCode: upper.charCodeAt(0) };
    if (key >= '0' && key <= '9') return { code: `Digit${key}`, keyCode: key.charCodeAt(0) };
    return { code: '', keyCode: key.charCodeAt(0) };
  }
  return { code: key, keyCode: 0 };
}

export interface InputTarget {
  /** The element game coordinates refer to (the game canvas, or the page body for DOM games). */
  element(): Element;
  /** Game-coordinate size of that element (the manifest's canvas size). */
  size(): { width: number; height: number };
  /** document.elementFromPoint, made to work while the page is not painted. */
  hitTest(clientX: number, clientY: number): Element | null;
}

export class InputDispatcher {
  private pointerDown = false;

  constructor(
    private readonly win: Window & typeof globalThis,
    private readonly target: InputTarget,
    private readonly clock: VirtualClock,
  ) {}

  dispatch(action: GuiAction): void {
    switch (action.type) {
      case 'click':
        this.pointer('down', action.x, action.y, action.button);
        this.pointer('up', action.x, action.y, action.button);
        this.mouseOnly('click', action.x, action.y, action.button);
        return;
      case 'drag': {
        const [x0, y0] = action.from;
        const [x1, y1] = action.to;
        const moves = action.moves ?? 8;
        this.pointer('down', x0, y0);
        for (let i = 1; i <= moves; i++) {
          const f = i / (moves + 1);
          this.pointer('move', x0 + (x1 - x0) * f, y0 + (y1 - y0) * f);
        }
        this.pointer('move', x1, y1);
        this.pointer('up', x1, y1);
        return;
      }
      case 'key': {
        this.key('keydown', action.key);
        const hold = action.holdMs ?? 0;
        if (hold > 0) this.clock.setTimer(() => this.key('keyup', action.key), hold, false);
        else this.key('keyup', action.key);
        return;
      }
      case 'type':
        for (const ch of action.text) this.typeChar(ch);
        return;
      case 'scroll': {
        const { clientX, clientY, el } = this.locate(action.x, action.y);
        el.dispatchEvent(
          new this.win.WheelEvent('wheel', { bubbles: true, cancelable: true, clientX, clientY, deltaX: action.dx ?? 0, deltaY: action.dy ?? 0 }),
        );
        return;
      }
      case 'wait':
        return;
    }
  }

  private locate(x: number, y: number): { clientX: number; clientY: number; el: Element } {
    const base = this.target.element();
    const rect = base.getBoundingClientRect();
    const size = this.target.size();
    const clientX = rect.left + (x * rect.width) / size.width;
    const clientY = rect.top + (y * rect.height) / size.height;
    const el = this.target.hitTest(clientX, clientY) ?? base;
    return { clientX, clientY, el };
  }

  private pointer(phase: 'down' | 'move' | 'up', x: number, y: number, button: 'left' | 'middle' | 'right' = 'left'): void {
    const { clientX, clientY, el } = this.locate(x, y);
    const buttonIndex = button === 'left' ? 0 : button === 'middle' ? 1 : 2;
    if (phase === 'down') this.pointerDown = true;
    const buttons = this.pointerDown ? 1 << buttonIndex : 0;
    const common = { bubbles: true, cancelable: true, composed: true, clientX, clientY, button: phase === 'move' ? -1 : buttonIndex, buttons, view: this.win };
    el.dispatchEvent(new this.win.PointerEvent(`pointer${phase}`, { ...common, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
    el.dispatchEvent(new this.win.MouseEvent(`mouse${phase}`, { ...common, button: Math.max(0, common.button) }));
    if (phase === 'up') this.pointerDown = false;
  }

  private mouseOnly(type: 'click', x: number, y: number, button: 'left' | 'middle' | 'right' = 'left'): void {
    const { clientX, clientY, el } = this.locate(x, y);
    el.dispatchEvent(
      new this.win.MouseEvent(type, {
        bubbles: true,
        cancelable: true,
        composed: true,
        clientX,
        clientY,
        button: button === 'left' ? 0 : button === 'middle' ? 1 : 2,
        view: this.win,
      }),
    );
  }

  private key(type: 'keydown' | 'keyup', key: string): void {
    const { code, keyCode } = keyInfo(key);
    const doc = this.win.document;
    const el = doc.activeElement ?? doc.body ?? doc.documentElement;
    const event = new this.win.KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, composed: true, view: this.win });
    // keyCode/which are read-only legacy fields many games still read.
    Object.defineProperty(event, 'keyCode', { get: () => keyCode });
    Object.defineProperty(event, 'which', { get: () => keyCode });
    el.dispatchEvent(event);
  }

  private typeChar(ch: string): void {
    this.key('keydown', ch);
    const el = this.win.document.activeElement;
    if (el instanceof this.win.HTMLInputElement || el instanceof this.win.HTMLTextAreaElement) {
      el.value += ch;
      el.dispatchEvent(new this.win.InputEvent('input', { bubbles: true, data: ch, inputType: 'insertText' }));
    }
    this.key('keyup', ch);
  }
}
