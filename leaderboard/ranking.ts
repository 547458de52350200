/**
 * What may be ranked: the protocol's rules as pure functions of replayed records, the game's
 * official settings and the ticket. ingest.ts applies them when storing; nothing else decides.
 *
 * - An episode counts only if it is complete (terminated, or truncated exactly at the official
 *   step budget) and was played at the official settings: cutting an episode at a good moment,
 *   or playing an easier variant, gains nothing.
 * - A run counts only if it played an unexpired ticket: every seed the server drew, each once.
 *   Seeds the submitter chose (or kept after seeing how they went) never count.
 */
import type { EpisodeRecord } from '../gym/schema';
import type { TicketGameColumns } from '../drizzle/schema';

/** Ranked play is at one device pixel per CSS pixel (what the gym plays at by default). */
export const OFFICIAL_DEVICE_SCALE_FACTOR = 1;

export interface OfficialSettings {
  stepBudget: number;
  msPerStep: number;
  /** Unknown for games stored before tickets (the games table has no canvas size): then not checked here. */
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
  /** Sticky actions' p where the ticket plays with them; none (0) otherwise. */
  stickyActions?: number;
}

export const SELF_SEEDED_REASON = 'Self-seeded: the run has no evaluation ticket, so its seeds were the submitter’s choice.';

/** Why one episode cannot count whatever its run (null if it can). */
export function episodeUnrankedReason(r: EpisodeRecord, official: OfficialSettings): string | null {
  if (r.stepBudget !== official.stepBudget) return `Played with a step budget of ${r.stepBudget}; the official budget is ${official.stepBudget}.`;
  if (r.msPerStep !== official.msPerStep) return `Played at ${r.msPerStep} virtual ms per step; the official setting is ${official.msPerStep}.`;
  if (official.viewport && (r.viewport.width !== official.viewport.width || r.viewport.height !== official.viewport.height)) {
    return `Played in a ${r.viewport.width}×${r.viewport.height} viewport; the official one is ${official.viewport.width}×${official.viewport.height}.`;
  }
  const dsf = official.deviceScaleFactor ?? OFFICIAL_DEVICE_SCALE_FACTOR;
  if (r.deviceScaleFactor !== dsf) return `Played at device scale factor ${r.deviceScaleFactor}; the official one is ${dsf}.`;
  const sticky = official.stickyActions ?? 0;
  if ((r.stickyActions?.p ?? 0) !== sticky) {
    return sticky
      ? `Played ${r.stickyActions ? `with sticky actions at p = ${r.stickyActions.p}` : 'without sticky actions'}; the official setting is p = ${sticky}.`
      : `Played with sticky actions (p = ${r.stickyActions!.p}); the official setting has none.`;
  }
  const t = r.totals;
  if (!t.terminated && !(t.truncated && t.length === r.stepBudget)) {
    return `Cut short: it stops after ${t.length} of ${r.stepBudget} steps, before the game ended or the budget ran out.`;
  }
  return null;
}

export interface TicketForRanking {
  id: string;
  expiresAt: Date;
  games: TicketGameColumns[];
}

const pairKey = (gameId: string, seed: number) => `${gameId}\u0000${seed}`;

function listed(pairs: string[], max = 5): string {
  const shown = pairs.slice(0, max).map((p) => p.replace('\u0000', ' seed '));
  return shown.join(', ') + (pairs.length > max ? ` and ${pairs.length - max} more` : '');
}

/**
 * Why a run cannot count as a whole (null if it can): no ticket, an expired one, or episodes that
 * are not exactly the ticket's seeds played once each, completely, at the ticket's settings.
 */
export function runUnrankedReason(ticket: TicketForRanking | null, records: readonly EpisodeRecord[], receivedAt: Date): string | null {
  if (!ticket) return SELF_SEEDED_REASON;
  if (receivedAt.getTime() > ticket.expiresAt.getTime()) {
    return `Ticket ${ticket.id} expired at ${ticket.expiresAt.toISOString()}, before the run was submitted (${receivedAt.toISOString()}).`;
  }
  const wanted = new Map<string, TicketGameColumns>();
  for (const g of ticket.games) for (const s of g.seeds) wanted.set(pairKey(g.gameId, s), g);
  const seen = new Set<string>();
  const repeated: string[] = [];
  const extra: string[] = [];
  const incomplete: string[] = [];
  for (const r of records) {
    const key = pairKey(r.gameId, r.seed);
    const game = wanted.get(key);
    if (!game) {
      extra.push(key);
      continue;
    }
    if (seen.has(key)) repeated.push(key);
    seen.add(key);
    const why = episodeUnrankedReason(r, game);
    if (why) incomplete.push(`${r.gameId} seed ${r.seed} (${why.replace(/\.$/, '')})`);
  }
  const missing = [...wanted.keys()].filter((k) => !seen.has(k));
  if (missing.length) return `Not every ticket seed was played: ${missing.length} of ${wanted.size} missing (${listed(missing)}).`;
  if (repeated.length) return `Ticket seeds were played more than once: ${listed([...new Set(repeated)])}. Each seed counts once, as played first and only.`;
  if (extra.length) return `Episodes on seeds the ticket does not have: ${listed(extra)}.`;
  if (incomplete.length)
    return `Not every ticket seed was played completely at the official settings: ${incomplete.slice(0, 3).join('; ')}${incomplete.length > 3 ? ` and ${incomplete.length - 3} more` : ''}.`;
  return null;
}
