/** Number and label formatting shared by the leaderboard pages. */
import type { RunSettingsColumns } from '../../drizzle/schema';

// One formatter per precision: Number#toLocaleString builds a new one per call, which costs
// more than the rest of a leaderboard cell's rendering (thousands of cells per page).
const formatters = new Map<number, Intl.NumberFormat>();
function formatter(digits: number): Intl.NumberFormat {
  let f = formatters.get(digits);
  if (!f) formatters.set(digits, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
}

export function fmt(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return formatter(digits).format(x);
}

/** Scores are usually whole numbers: show them so, and means with one decimal. */
export function fmtScore(x: number | null | undefined): string {
  return x !== null && x !== undefined && Number.isInteger(x) ? formatter(0).format(x) : fmt(x);
}

export function settingsSummary(s: RunSettingsColumns | null): string {
  if (!s) return 'settings not recorded';
  const parts = [
    s.observation.join('+'),
    // A game's own planner or features, like ALE's RAM beside pixels: not comparable with a generic agent's run.
    ...(s.gameSpecific ? ['game-specific'] : []),
    s.actionSpace === 'discrete' ? 'preset actions' : s.actionSpace === 'gui' ? 'GUI actions' : 'preset + GUI actions',
    s.official ? 'official budget' : s.stepBudget ? `${s.stepBudget} steps (unofficial)` : 'unofficial budgets',
  ];
  if (s.harness) parts.push(s.harness);
  if (s.model) parts.push(s.model);
  if (s.codeVersion) parts.push(`code ${s.codeVersion}`);
  return parts.join(' · ');
}

/** Link to the in-browser replay of a stored episode (it loads the record from /api/episodes/<id>). */
export function replayHref(episodeId: number): string {
  return `/replay?src=${encodeURIComponent(`/api/episodes/${episodeId}`)}`;
}

export function when(d: Date): string {
  return `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
