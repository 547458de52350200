/**
 * The settings an episode's final frame depends on besides the game and its inputs, as a record
 * stores them, and what differs between two sets of them: a replay whose frame hash differs
 * names the setting it can see, instead of guessing.
 */

export interface RenderingSettings {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  browser: { name: string; version: string };
}

/**
 * "Chromium 156.0.8078.114" from a gym record (`{ name: 'chromium', version: '156.0…' }`) or from a
 * user agent string (what the play page records), so the two forms compare; anything else as given.
 */
export function browserVersion(browser: RenderingSettings['browser']): string {
  const v = browser.version;
  const chromium = /(?:HeadlessChrome|Chromium|Chrome)\/([\d.]+)/.exec(v);
  if (chromium) return `Chromium ${chromium[1]}`;
  const firefox = /Firefox\/([\d.]+)/.exec(v);
  if (firefox) return `Firefox ${firefox[1]}`;
  const safari = /Version\/([\d.]+).*Safari\//.exec(v);
  if (safari) return `Safari ${safari[1]}`;
  if (/^[\d.]+$/.test(v) && /^(chromium|chrome)$/i.test(browser.name)) return `Chromium ${v}`;
  return `${browser.name} ${v}`.trim();
}

/** One phrase per setting that differs, naming this browser's value and the record's. */
export function settingDifferences(here: RenderingSettings, recorded: RenderingSettings): string[] {
  const out: string[] = [];
  const size = (v: RenderingSettings['viewport']) => `${v.width}×${v.height}`;
  if (here.viewport.width !== recorded.viewport.width || here.viewport.height !== recorded.viewport.height) {
    out.push(`viewport ${size(here.viewport)} here, ${size(recorded.viewport)} in the record`);
  }
  if (here.deviceScaleFactor !== recorded.deviceScaleFactor) {
    out.push(`device scale ${here.deviceScaleFactor} here, ${recorded.deviceScaleFactor} in the record`);
  }
  const [b, r] = [browserVersion(here.browser), browserVersion(recorded.browser)];
  if (b !== r) out.push(`browser ${b} here, ${r} in the record`);
  return out;
}

/** Why a replayed final frame can differ from the recorded one, as precisely as this page can tell. */
export function frameMismatchCause(here: RenderingSettings, recorded: RenderingSettings): string {
  const diffs = settingDifferences(here, recorded);
  if (diffs.length > 0) return `rendering differs: ${diffs.join('; ')}`;
  return 'rendering differs with the same viewport, device scale and browser version: another cause (graphics driver, fonts or operating system)';
}
