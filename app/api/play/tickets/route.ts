import { withLeaderboard } from '../../leaderboard-route';

export const dynamic = 'force-dynamic';

/** A seed for a visitor's human reference play on /play (leaderboard/visitor-play.ts): no token, a player name. */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/play/tickets', 'retry shortly.', (context) => context.visitorPlay.ticket(request));
}
