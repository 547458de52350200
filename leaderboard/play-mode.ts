/**
 * How a ranked episode was played, read off its ticket. A known-seed ticket gives its holder the
 * seeds, and the games are deterministic and open, so its episodes can have been searched offline
 * (live-tickets.test.ts shows it); the others were played by the server on seeds nobody saw before
 * the play: a live ticket's sessions, a policy run's workers, a baseline the server ran itself.
 * The default board ranks only server-played entries (leaderboard/README.md, Ranking).
 */
export type PlayMode = 'live' | 'policy-run' | 'baseline' | 'known-seeds';

export interface TicketKind {
  mode: 'seeds' | 'live' | 'policy';
  purpose: 'evaluation' | 'human' | 'baseline';
}

export function playMode(ticket: TicketKind): PlayMode {
  if (ticket.mode === 'live') return 'live';
  if (ticket.mode === 'policy') return 'policy-run';
  return ticket.purpose === 'baseline' ? 'baseline' : 'known-seeds';
}

/** No one but the server saw the episode's seed before it was played; an episode without a ticket never was. */
export function serverPlayed(ticket: TicketKind | null): boolean {
  return ticket !== null && playMode(ticket) !== 'known-seeds';
}

/** Which entries a board ranks: server-played ones (the default) or every entry, known-seed tickets included. */
export type PlayView = 'server' | 'any';
