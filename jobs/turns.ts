/**
 * Turns across tokens for `verify` jobs, the order the in-process queue keeps
 * (leaderboard/verification-queue.ts), on the shared queue: a token with nothing running goes first,
 * then tokens take one job each in turn (the one whose last job started longest ago first), and
 * each token's own jobs go oldest first. pg-boss's own fetch is oldest first across everyone, so
 * one token's backlog would hold up every other token's submission; the verify queue is claimed
 * with this statement instead, which changes a job exactly as pg-boss's fetch does (`active`,
 * `started_on`, `retry_count` on a retry), so leases, expiry, completion and retries stay pg-boss's.
 */
import type PgBoss from 'pg-boss';
import type { SqlRunner } from './sql';

/**
 * The pending verify jobs numbered in the order they would start (`turn`, from 1) if nothing else
 * arrived: `claimable` leaves out retries still waiting out their delay.
 */
function turnsSql(claimable: boolean): string {
  return `
    pending AS (
      SELECT id, created_on, data->>'owner' AS owner,
             row_number() OVER (PARTITION BY data->>'owner' ORDER BY created_on, id) AS rank
        FROM pgboss.job
       WHERE name = 'verify' AND state < 'active' ${claimable ? 'AND start_after < now()' : ''}
    ),
    owners AS (
      SELECT data->>'owner' AS owner, count(*) FILTER (WHERE state = 'active') AS active, max(started_on) AS served
        FROM pgboss.job
       WHERE name = 'verify' AND data->>'owner' IN (SELECT owner FROM pending)
       GROUP BY 1
    ),
    turns AS (
      SELECT p.id, p.owner,
             row_number() OVER (ORDER BY o.active > 0, p.rank + o.active, o.served NULLS FIRST, p.created_on, p.id) AS turn
        FROM pending p JOIN owners o USING (owner)
    )`;
}

/** Claims up to `limit` verify jobs in turns across tokens: pg-boss's `fetch` for this queue. */
export async function fetchVerifyInTurns(sql: SqlRunner, limit = 1): Promise<PgBoss.JobWithMetadata<unknown>[]> {
  const rows = await sql.query(
    `WITH ${turnsSql(true)},
     next AS (
       SELECT j.id FROM turns t JOIN pgboss.job j ON j.name = 'verify' AND j.id = t.id
        WHERE j.state < 'active'
        ORDER BY t.turn
        LIMIT $1
        FOR UPDATE OF j SKIP LOCKED
     )
     UPDATE pgboss.job j SET
       state = 'active',
       started_on = now(),
       retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
       FROM next
      WHERE j.name = 'verify' AND j.id = next.id
     RETURNING j.id, j.name, j.data, j.retry_count AS "retryCount", j.retry_limit AS "retryLimit",
               EXTRACT(epoch FROM j.expire_in) AS "expireInSeconds", j.created_on AS "createdOn", j.started_on AS "startedOn"`,
    [limit],
  );
  return rows as unknown as PgBoss.JobWithMetadata<unknown>[];
}

/** How many pending verify jobs start before this submission's (null: it has none pending). */
export async function verifyTurnsAhead(sql: SqlRunner, submissionId: string): Promise<number | null> {
  const [row] = await sql.query<{ turn: string }>(
    `WITH ${turnsSql(false)}
     SELECT t.turn FROM turns t JOIN pgboss.job j ON j.name = 'verify' AND j.id = t.id
      WHERE j.data->>'submissionId' = $1
      ORDER BY t.turn LIMIT 1`,
    [submissionId],
  );
  return row ? Number(row.turn) - 1 : null;
}
