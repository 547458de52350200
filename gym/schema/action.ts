import { z } from 'zod';

/**
 * The GUI action vocabulary shared by agents, presets, records and replays.
 * Coordinates are in game-canvas units (the manifest's canvas size), so an action
 * means the same thing whatever the viewport or device scale factor.
 */

/**
 * Largest coordinate or scroll delta, in game-canvas units (canvases are a few hundred wide).
 * Without a bound a finite but huge number (1e308) overflows to Infinity once scaled to client
 * pixels in the page, and the DOM event constructor throws there: a caller's mistake that would
 * look like a page fault. Bounded, it is refused here as INVALID_ACTION.
 */
export const MAX_COORDINATE = 100_000;
const coordinate = z.number().min(-MAX_COORDINATE).max(MAX_COORDINATE);
const point = z.tuple([coordinate, coordinate]);
const button = z.enum(['left', 'middle', 'right']);

export const ClickAction = z.strictObject({
  type: z.literal('click'),
  x: coordinate,
  y: coordinate,
  button: button.optional(),
});
export const DragAction = z.strictObject({
  type: z.literal('drag'),
  from: point,
  to: point,
  /** Intermediate pointermove events between the two ends. */
  moves: z.number().int().min(0).max(64).optional(),
});
export const KeyAction = z.strictObject({
  type: z.literal('key'),
  /** A KeyboardEvent.key value such as "ArrowLeft", " " or "a". */
  key: z.string().min(1).max(32),
  /** Keep the key down this many virtual milliseconds (for games that poll held keys); 0 = press and release at once. */
  holdMs: z.number().int().min(0).max(60_000).optional(),
});
export const TypeAction = z.strictObject({
  type: z.literal('type'),
  text: z.string().max(1000),
});
export const ScrollAction = z.strictObject({
  type: z.literal('scroll'),
  x: coordinate,
  y: coordinate,
  dx: coordinate.optional(),
  dy: coordinate.optional(),
});
export const WaitAction = z.strictObject({ type: z.literal('wait') });

export const GuiAction = z.discriminatedUnion('type', [ClickAction, DragAction, KeyAction, TypeAction, ScrollAction, WaitAction]);
export type GuiAction = z.infer<typeof GuiAction>;

/** What an agent may pass to `step`: a GUI action, or an index into the game's discrete preset. */
export const Action = z.union([z.number().int().min(0), GuiAction]);
export type Action = z.infer<typeof Action>;
