import { withLeaderboard } from '../leaderboard-route';

export const dynamic = 'force-dynamic';

/** Ask for an evaluation ticket: seeds drawn by the server (see leaderboard/tickets.ts, `arcade-gym eval --server`). */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/tickets', 'retry shortly.', (context) => context.tickets.issue(request));
}
