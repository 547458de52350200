import { withLeaderboard } from '../../leaderboard-route';

export const dynamic = 'force-dynamic';

/** A visitor's episode on their ticket, replayed like any run (leaderboard/visitor-play.ts). */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/play/runs', 'retry with the same episode shortly.', (context) => context.visitorPlay.run(request));
}
