import { withLeaderboard } from '../../leaderboard-route';

export const dynamic = 'force-dynamic';

/** The human reference players, candidates first (admin token; leaderboard/human-player-api.ts). */
export async function GET(request: Request): Promise<Response> {
  return withLeaderboard('GET /api/admin/human-players', 'retry shortly.', (context) => context.humanPlayers.list(request));
}

/** `{ name, status: "accepted" | "rejected" }`: whether a player's play makes the references. */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/admin/human-players', 'retry shortly.', (context) => context.humanPlayers.decide(request));
}
