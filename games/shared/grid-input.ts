import { toGameCoords } from './canvas';

/** Where keyboard play points on the board; shown once a key has been used. */
export interface GridCursor {
  x: number;
  y: number;
  shown: boolean;
}

export interface GridInputOptions {
  canvas: HTMLCanvasElement;
  /** The canvas's logical size. */
  width: number;
  height: number;
  /** The board: its top-left corner, the cell size and the cells across and down. */
  x0: number;
  y0: number;
  cell: number;
  cols: number;
  rows: number;
  /** Where the keyboard cursor starts. */
  start: { x: number; y: number };
  /** Keys that, like Space, act on the cell under the cursor. */
  actKeys: string[];
  /** Acts on a cell; a tap beside the board gives one off it, for the game to ignore. */
  act: (x: number, y: number) => void;
  isOver: () => boolean;
  restart: () => void;
  /** Something needs drawing again: the cursor moved, or the game restarted. */
  changed: () => void;
}

const ARROWS: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/**
 * The controls of the tap-a-cell puzzles: a tap acts on the cell under it; on a keyboard the
 * arrows move a cursor, Space (or an act key) acts on its cell, and Enter restarts a game
 * that is over.
 */
export function bindGridInput(o: GridInputOptions): GridCursor {
  o.canvas.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    const p = toGameCoords(o.canvas, o.width, o.height, e);
    o.act(Math.floor((p.x - o.x0) / o.cell), Math.floor((p.y - o.y0) / o.cell));
  });
  const cursor: GridCursor = { x: o.start.x, y: o.start.y, shown: false };
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && o.isOver()) {
      o.restart();
      o.changed();
      return;
    }
    if (o.isOver()) return;
    const mv = ARROWS[e.key];
    if (mv) {
      e.preventDefault();
      cursor.x = Math.max(0, Math.min(o.cols - 1, cursor.x + mv[0]));
      cursor.y = Math.max(0, Math.min(o.rows - 1, cursor.y + mv[1]));
      cursor.shown = true;
      o.changed();
    } else if (e.key === ' ' || o.actKeys.includes(e.key)) {
      e.preventDefault();
      cursor.shown = true;
      o.act(cursor.x, cursor.y);
    }
  });
  return cursor;
}

/** The keyboard cursor, as a frame inside its cell (nothing until the keyboard is used). */
export function drawGridCursor(ctx: CanvasRenderingContext2D, cursor: GridCursor, board: { x0: number; y0: number; cell: number }, color: string): void {
  if (!cursor.shown) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = 3;
  ctx.strokeRect(board.x0 + cursor.x * board.cell + 3, board.y0 + cursor.y * board.cell + 3, board.cell - 6, board.cell - 6);
}
