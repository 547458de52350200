import { z } from 'zod';

/**
 * The GUI action vocabulary shared by agents, presets, records and replays.
 * Coordinates are in game-canvas units (the manifest's canvas size), so an action
 * means the same thing whatever the viewport or device scale factor.
 */
const point = z.tuple([z.number().finite(), z.number().finite()]);
const button = z.enum(['left', 'middle', 'right']);

export const ClickAction = z.strictObject({
  type: z.literal('click'),
  x: z.number().finite(),
  y: z.number().finite(),
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
  x: z.number().finite(),
  y: z.number().finite(),
  dx: z.number().finite().optional(),
  dy: z.number().finite().optional(),
});
export const WaitAction = z.strictObject({ type: z.literal('wait') });

export const GuiAction = z.discriminatedUnion('type', [
  ClickAction,
  DragAction,
  KeyAction,
  TypeAction,
  ScrollAction,
  WaitAction,
]);
export type GuiAction = z.infer<typeof GuiAction>;

/** What an agent may pass to `step`: a GUI action, or an index into the game's discrete preset. */
export const Action = z.union([z.number().int().min(0), GuiAction]);
export type Action = z.infer<typeof Action>;
