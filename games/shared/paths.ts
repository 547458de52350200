/**
 * Outlines that the candy and face games (emoji-sort, match3) trace in their own proportions.
 * Each adds to the current path (the caller begins, closes, fills and strokes it).
 */

/** A square of half-side k with corners rounded by q, centred on (cx, cy). */
export function roundedSquarePath(ctx: CanvasRenderingContext2D, cx: number, cy: number, k: number, q: number): void {
  ctx.moveTo(cx - k + q, cy - k);
  ctx.arcTo(cx + k, cy - k, cx + k, cy + k, q);
  ctx.arcTo(cx + k, cy + k, cx - k, cy + k, q);
  ctx.arcTo(cx - k, cy + k, cx - k, cy - k, q);
  ctx.arcTo(cx - k, cy - k, cx + k, cy - k, q);
}

/** A five-pointed star, point up, with its points at radius `outer` and its notches at `inner`. */
export function starPath(ctx: CanvasRenderingContext2D, cx: number, cy: number, inner: number, outer: number): void {
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? inner : outer;
    ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
  }
}

/**
 * A heart of size r: its tip `tip`·r below the centre, its lobes drawn by curves through
 * (∓wide·r, −low·r) and (∓narrow·r, −high·r) to its notch 0.45·r above the centre.
 */
export function heartPath(
  ctx: CanvasRenderingContext2D,
  cx: number,
  cy: number,
  r: number,
  p: { tip: number; wide: number; low: number; narrow: number; high: number },
): void {
  ctx.moveTo(cx, cy + r * p.tip);
  ctx.bezierCurveTo(cx - r * p.wide, cy - r * p.low, cx - r * p.narrow, cy - r * p.high, cx, cy - r * 0.45);
  ctx.bezierCurveTo(cx + r * p.narrow, cy - r * p.high, cx + r * p.wide, cy - r * p.low, cx, cy + r * p.tip);
}
