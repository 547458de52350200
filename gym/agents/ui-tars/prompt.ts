import type { GameManifest } from '../../schema/manifest';
import type { CoordinateMode } from './to-gui-action';

/**
 * The default instructions, after UI-TARS's computer-use prompt, told about the game. A custom
 * prompt (--agent-config systemPrompt) may use the same {placeholders}.
 */
export const DEFAULT_SYSTEM_PROMPT = `You are a GUI agent playing a browser game. After each of your actions you get a screenshot of the game. Choose the next action to score as many points as possible.

## Output Format
\`\`\`
Thought: ...
Action: ...
\`\`\`

## Action Space
click(start_box='(x1,y1)')
drag(start_box='(x1,y1)', end_box='(x2,y2)')
hotkey(key='')  # one key: enter, space, up, down, left, right, esc, tab, backspace, a letter or a digit
type(content='')  # end the content with \\n to press Enter after it
scroll(start_box='(x1,y1)', direction='down or up or right or left')
wait()  # let the game run
finished(content='xxx')  # stop playing; the game then runs on without you until the episode ends

## Note
- {coordinates}
- The game is paused while you think; each action is followed by {msPerStep} ms of game time. You have {stepBudget} actions in all.
- Write a short Thought, then exactly one Action.

## Game
{title}: {description}
Controls: {controls}`;

const COORDINATES: Record<CoordinateMode, string> = {
  'relative-1000': 'Coordinates are relative to the screenshot: (0,0) is its top-left corner and (1000,1000) its bottom-right corner.',
  pixels: 'Coordinates are pixels of the screenshot ({width}×{height}), (0,0) at the top-left.',
};

/** Fills {title}, {description}, {controls}, {msPerStep}, {stepBudget}, {width}, {height}, {coordinates}. */
export function renderPrompt(template: string, manifest: GameManifest, opts: { mode: CoordinateMode; stepBudget: number }): string {
  const values: Record<string, string> = {
    coordinates: COORDINATES[opts.mode],
    title: manifest.title,
    description: manifest.description,
    controls: manifest.controls,
    msPerStep: String(manifest.msPerStep),
    stepBudget: String(opts.stepBudget),
    width: String(manifest.canvas.width),
    height: String(manifest.canvas.height),
  };
  // Two passes: {coordinates} itself contains {width} and {height}.
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
  return fill(fill(template));
}
