import { eq } from 'drizzle-orm';
import { episodeRecords } from '../../../../drizzle/schema';
import { ApiError, jsonResponse } from '../../../../leaderboard/api-error';
import { serverDb } from '../../../../leaderboard/server';

export const dynamic = 'force-dynamic';

/** The full record of a stored episode (what /replay?src= loads). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const n = Number(id);
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 31 - 1) return new ApiError('NOT_FOUND', `No episode "${id}"`).toResponse();
  const [row] = await (await serverDb()).select({ record: episodeRecords.record }).from(episodeRecords).where(eq(episodeRecords.episodeId, n));
  if (!row) return new ApiError('NOT_FOUND', `No episode ${n}`).toResponse();
  return jsonResponse(200, row.record);
}
