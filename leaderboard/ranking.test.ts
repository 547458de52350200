/** The ranking rules on fixed records: complete episodes at the official settings, and whole tickets. */
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../gym/schema';
import { episodeUnrankedReason, runUnrankedReason, SELF_SEEDED_REASON, type TicketForRanking } from './ranking';
import { fakeGame, fakeRecord } from './synthetic';

const G = fakeGame('ga', { human: 100 });
const official = { stepBudget: 100, msPerStep: 100, viewport: { width: 100, height: 100 }, deviceScaleFactor: 1 };

function truncatedAt(length: number, stepBudget = 100): EpisodeRecord {
  const r = fakeRecord(G, 1, 5, { length, stepBudget });
  r.steps.forEach((s, i) => Object.assign(s, { terminated: false, truncated: i === length - 1 && length === stepBudget }));
  r.totals = { ...r.totals, terminated: false, truncated: length === stepBudget };
  return r;
}

describe('episodeUnrankedReason', () => {
  it('ranks an episode that terminated, or was truncated exactly at the official budget', () => {
    expect(episodeUnrankedReason(fakeRecord(G, 1, 5, { length: 7 }), official)).toBeNull();
    expect(episodeUnrankedReason(truncatedAt(100), official)).toBeNull();
  });

  it('does not rank an episode cut before the game ended or the budget ran out', () => {
    expect(episodeUnrankedReason(truncatedAt(40), official)).toBe('Cut short: it stops after 40 of 100 steps, before the game ended or the budget ran out.');
  });

  it('does not rank play at other settings, and says which', () => {
    expect(episodeUnrankedReason(fakeRecord(G, 1, 5, { stepBudget: 50 }), official)).toMatch(/step budget of 50; the official budget is 100/);
    expect(episodeUnrankedReason({ ...fakeRecord(G, 1, 5), msPerStep: 50 }, official)).toMatch(/50 virtual ms per step/);
    expect(episodeUnrankedReason({ ...fakeRecord(G, 1, 5), viewport: { width: 800, height: 600 } }, official)).toMatch(
      /800×600 viewport; the official one is 100×100/,
    );
    expect(episodeUnrankedReason({ ...fakeRecord(G, 1, 5), deviceScaleFactor: 2 }, official)).toBe('Played at device scale factor 2; the official one is 1.');
  });

  it('ranks sticky-action play only where the official setting has the same p', () => {
    const sticky = { ...fakeRecord(G, 1, 5), stickyActions: { p: 0.25, seed: 7 } };
    expect(episodeUnrankedReason(sticky, official)).toBe('Played with sticky actions (p = 0.25); the official setting has none.');
    expect(episodeUnrankedReason(sticky, { ...official, stickyActions: 0.25 })).toBeNull();
    expect(episodeUnrankedReason(fakeRecord(G, 1, 5), { ...official, stickyActions: 0.25 })).toBe(
      'Played without sticky actions; the official setting is p = 0.25.',
    );
    expect(episodeUnrankedReason({ ...sticky, stickyActions: { p: 0.1, seed: 7 } }, { ...official, stickyActions: 0.25 })).toMatch(
      /at p = 0.1; the official setting is p = 0.25/,
    );
  });
});

describe('runUnrankedReason', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const ticket: TicketForRanking = {
    id: 'tkt_x',
    expiresAt: new Date('2026-01-01T18:00:00Z'),
    games: [{ gameId: 'ga', gameVersion: '1.0.0', verifierChecksum: G.verifierChecksum, ...official, seeds: [11, 12, 13] }],
  };
  const played = (seeds: number[]) => seeds.map((s) => fakeRecord(G, s, s));

  it('ranks a run that played every ticket seed once, completely', () => {
    expect(runUnrankedReason(ticket, played([13, 11, 12]), now)).toBeNull();
  });

  it('does not rank a self-seeded run, or one on an expired ticket', () => {
    expect(runUnrankedReason(null, played([11, 12, 13]), now)).toBe(SELF_SEEDED_REASON);
    expect(runUnrankedReason(ticket, played([11, 12, 13]), new Date('2026-01-02T00:00:00Z'))).toMatch(/^Ticket tkt_x expired at 2026-01-01T18:00:00.000Z/);
  });

  it('does not rank a run that left ticket seeds unplayed, repeated one, or added its own', () => {
    expect(runUnrankedReason(ticket, played([11, 13]), now)).toBe('Not every ticket seed was played: 1 of 3 missing (ga seed 12).');
    expect(runUnrankedReason(ticket, played([11, 12, 13, 12]), now)).toMatch(/played more than once: ga seed 12/);
    expect(runUnrankedReason(ticket, played([11, 12, 13, 99]), now)).toMatch(/seeds the ticket does not have: ga seed 99/);
  });

  it('does not rank a run with a ticket seed cut short', () => {
    const eps = played([11, 12]);
    const cut = truncatedAt(30);
    cut.seed = 13;
    expect(runUnrankedReason(ticket, [...eps, cut], now)).toMatch(
      /^Not every ticket seed was played completely at the official settings: ga seed 13 \(Cut short/,
    );
  });
});
