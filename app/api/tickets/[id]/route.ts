import { ApiError } from '../../../../leaderboard/api-error';
import { serverContext } from '../../../../leaderboard/server';

export const dynamic = 'force-dynamic';

/** A ticket of this token (its seeds and official settings): what `arcade-gym eval --ticket` plays. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  let context;
  try {
    context = await serverContext();
  } catch (e) {
    console.error('GET /api/tickets: the leaderboard database is not available:', e);
    return new ApiError('UNAVAILABLE', 'The leaderboard database is not available right now; retry shortly.', undefined, { 'retry-after': '30' }).toResponse();
  }
  return context.tickets.read(request, id);
}
