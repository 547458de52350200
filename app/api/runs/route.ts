import { ApiError } from '../../../leaderboard/api-error';
import { serverContext } from '../../../leaderboard/server';

export const dynamic = 'force-dynamic';

/** Submit a run: see leaderboard/submissions.ts (and `arcade-gym submit`). */
export async function POST(request: Request): Promise<Response> {
  let context;
  try {
    context = await serverContext();
  } catch (e) {
    // Typically another process holding the embedded database for a moment (a seed, a CLI).
    console.error('POST /api/runs: the leaderboard database is not available:', e);
    return new ApiError('UNAVAILABLE', 'The leaderboard database is not available right now; nothing was stored. Retry with the same id.', undefined, {
      'retry-after': '30',
    }).toResponse();
  }
  return context.handleSubmission(request);
}
