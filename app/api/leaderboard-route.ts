import { ApiError } from '../../leaderboard/api-error';
import { serverContext } from '../../leaderboard/server';

type ServerContext = Awaited<ReturnType<typeof serverContext>>;

/**
 * Answers an API request with the leaderboard's server context, or with 503 and Retry-After
 * when its database cannot be opened: typically another process holding the embedded database
 * for a moment (a seed, a CLI). `unavailable` tells the client what that means for its request.
 */
export async function withLeaderboard(route: string, unavailable: string, handle: (context: ServerContext) => Promise<Response>): Promise<Response> {
  let context: ServerContext;
  try {
    context = await serverContext();
  } catch (e) {
    console.error(`${route}: the leaderboard database is not available:`, e);
    return new ApiError('UNAVAILABLE', `The leaderboard database is not available right now; ${unavailable}`, undefined, { 'retry-after': '30' }).toResponse();
  }
  return handle(context);
}
