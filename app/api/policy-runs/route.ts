import { withLeaderboard } from '../leaderboard-route';

export const dynamic = 'force-dynamic';

/** Hand the server a policy checkpoint to play on seeds it draws (leaderboard/policy-runs.ts, `arcade-gym submit --checkpoint`). */
export async function POST(request: Request): Promise<Response> {
  return withLeaderboard('POST /api/policy-runs', 'nothing was started; retry.', (context) => context.policyRuns.submit(request));
}
