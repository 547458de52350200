import { withLeaderboard } from '../../leaderboard-route';

export const dynamic = 'force-dynamic';

/** A ticket of this token (its seeds and official settings): what `arcade-gym eval --ticket` plays. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return withLeaderboard('GET /api/tickets', 'retry shortly.', (context) => context.tickets.read(request, id));
}
