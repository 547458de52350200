import { ApiError } from '../../../leaderboard/api-error';
import { serverContext } from '../../../leaderboard/server';

export const dynamic = 'force-dynamic';

/** Ask for an evaluation ticket: seeds drawn by the server (see leaderboard/tickets.ts, `arcade-gym eval --server`). */
export async function POST(request: Request): Promise<Response> {
  let context;
  try {
    context = await serverContext();
  } catch (e) {
    console.error('POST /api/tickets: the leaderboard database is not available:', e);
    return new ApiError('UNAVAILABLE', 'The leaderboard database is not available right now; retry shortly.', undefined, { 'retry-after': '30' }).toResponse();
  }
  return context.tickets.issue(request);
}
