import { ApiError } from '../../../../../leaderboard/api-error';
import { isLiveCall } from '../../../../../leaderboard/live-call';
import { withLeaderboard } from '../../../leaderboard-route';

export const dynamic = 'force-dynamic';

/**
 * A live ticket's play, forwarded to the worker that hosts it (leaderboard/live-routes.ts): `reset`
 * starts its next episode, `step` plays it, `claims` says what the agent is, `close` ends the ticket.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string; call: string }> }): Promise<Response> {
  const { id, call } = await params;
  if (!isLiveCall(call)) return new ApiError('NOT_FOUND', `No live call "${call}": a live ticket has reset, step, claims and close`).toResponse();
  return withLeaderboard(`POST /api/live/${call}`, 'retry shortly; the episode in play is kept until its deadline.', (context) =>
    context.live.call(call, id, request),
  );
}
