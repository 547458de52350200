/** Grid steps towards N, E, S, W (side d of a cell faces (DX[d], DY[d])). */
export const DX = [0, 1, 0, -1];
export const DY = [-1, 0, 1, 0];

/** Where a square grid puzzle's board lies on its canvas. */
export interface GridBoard {
  x0: number;
  y0: number;
  cell: number;
  /** Cells per side. */
  size: number;
}

/** The layout the 6×6 grid puzzles share (energy, infinity-loop, laser-maze): 70 px cells from (30, 50) on a 480×480 canvas. */
export const GRID_PUZZLE = { x0: 30, y0: 50, cell: 70, size: 6, width: 480, height: 480 } as const;

/**
 * The board of the square grid puzzles: a frame 4 px around it, optionally a lighter region
 * (the cells in play), and 1 px grid lines on the pixel grid.
 */
export function drawGridBoard(
  ctx: CanvasRenderingContext2D,
  b: GridBoard,
  colors: { frame: string; lines: string; region?: { x: number; y: number; w: number; h: number; fill: string } },
): void {
  const span = b.size * b.cell;
  ctx.fillStyle = colors.frame;
  ctx.fillRect(b.x0 - 4, b.y0 - 4, span + 8, span + 8);
  const reg = colors.region;
  if (reg) {
    ctx.fillStyle = reg.fill;
    ctx.fillRect(b.x0 + reg.x * b.cell, b.y0 + reg.y * b.cell, reg.w * b.cell, reg.h * b.cell);
  }
  ctx.strokeStyle = colors.lines;
  ctx.lineWidth = 1;
  for (let i = 0; i <= b.size; i++) {
    ctx.beginPath();
    ctx.moveTo(b.x0 + i * b.cell + 0.5, b.y0);
    ctx.lineTo(b.x0 + i * b.cell + 0.5, b.y0 + span);
    ctx.moveTo(b.x0, b.y0 + i * b.cell + 0.5);
    ctx.lineTo(b.x0 + span, b.y0 + i * b.cell + 0.5);
    ctx.stroke();
  }
}

/**
 * The top bar of the move-limited puzzles: `left` text, an optional centred one, and the
 * moves left on the right, in red once `warnAt` or fewer remain. Leaves alignment 'left'.
 */
export function drawMovesBar(
  ctx: CanvasRenderingContext2D,
  o: {
    y: number;
    left: { text: string; x: number };
    center?: { text: string; x: number; color?: string };
    right: { movesLeft: number; warnAt: number; x: number };
    color: string;
  },
): void {
  ctx.fillStyle = o.color;
  ctx.font = 'bold 18px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillText(o.left.text, o.left.x, o.y);
  if (o.center) {
    ctx.textAlign = 'center';
    if (o.center.color) ctx.fillStyle = o.center.color;
    ctx.fillText(o.center.text, o.center.x, o.y);
  }
  ctx.textAlign = 'right';
  ctx.fillStyle = o.right.movesLeft <= o.right.warnAt ? '#f87171' : o.color;
  ctx.fillText(`Moves ${o.right.movesLeft}`, o.right.x, o.y);
  ctx.textAlign = 'left';
}
