import { ApiError, jsonResponse } from '../../../../leaderboard/api-error';
import { serverContext } from '../../../../leaderboard/server';
import { loadSubmission, submissionStatus } from '../../../../leaderboard/submissions';

export const dynamic = 'force-dynamic';

/**
 * Where a submission stands (queued, verifying, accepted with its run, or rejected with the
 * reason): the status URL `POST /api/runs` answers with. Ids are random UUIDs, known only to the
 * submitter, so no token is asked for.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/.test(id)) return new ApiError('NOT_FOUND', `No submission "${id}"`).toResponse();
  try {
    const { database, intake } = await serverContext();
    const row = await loadSubmission(database.db, id);
    if (!row) return new ApiError('NOT_FOUND', `No submission ${id}`).toResponse();
    const pending = row.status === 'queued' || row.status === 'verifying';
    return jsonResponse(200, await submissionStatus(row, intake.queue), pending ? { 'retry-after': '1' } : {});
  } catch (e) {
    console.error('GET /api/submissions failed:', e);
    return new ApiError('UNAVAILABLE', 'The leaderboard database is not available right now', undefined, { 'retry-after': '5' }).toResponse();
  }
}
