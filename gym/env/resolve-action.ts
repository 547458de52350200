import { type Action, GuiAction } from '../schema/action';
import type { GameManifest } from '../schema/manifest';
import { ArcadeGymError } from '../errors';

/** Validates what an agent passed to `step` and turns a preset index into its GUI action. */
export function resolveAction(manifest: GameManifest, action: unknown): { action: Action; gui: GuiAction } {
  if (typeof action === 'number') {
    if (!Number.isInteger(action) || action < 0 || action >= manifest.preset.length) {
      throw new ArcadeGymError(
        'ACTION_OUT_OF_RANGE',
        `Action index ${action} is out of range for ${manifest.id}: its preset has ${manifest.preset.length} actions (0..${manifest.preset.length - 1}: ${manifest.preset.map((p) => p.name).join(', ')})`,
      );
    }
    return { action, gui: manifest.preset[action].action };
  }
  const parsed = GuiAction.safeParse(action);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` at "${issue.path.join('.')}"` : '';
    throw new ArcadeGymError(
      'INVALID_ACTION',
      `Malformed action ${JSON.stringify(action)}${where}: ${issue.message}. Expected a preset index or one of click, drag, key, type, scroll, wait.`,
    );
  }
  return { action: parsed.data, gui: parsed.data };
}
