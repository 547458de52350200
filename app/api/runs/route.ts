import { withLeaderboard } from '../leaderboard-route';

export const dynamic = 'force-dynamic';

/** Submit a run: see leaderboard/submissions.ts (and `arcade-gym submit`). */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/runs', 'nothing was stored. Retry with the same id.', (context) => context.handleSubmission(request));
}
