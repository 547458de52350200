/** What the site's submission routes answer, as far as following one needs (leaderboard/submission-schema.ts, SubmissionStatus). */
export interface SubmissionAnswer {
  error?: { message?: string };
  submission?: { status: string; statusUrl: string };
}

/**
 * Follows a submission's status URL while the server has it queued or is replaying it (once a
 * second, for at most ten minutes): the last status document. A status URL that answers with an
 * error throws its message.
 */
export async function settledSubmission<T extends SubmissionAnswer>(first: T): Promise<T> {
  let body = first;
  for (let i = 0; i < 600 && (body.submission?.status === 'queued' || body.submission?.status === 'verifying'); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const url = body.submission.statusUrl;
    const res = await fetch(url);
    body = (await res.json().catch(() => ({}))) as T;
    if (!res.ok) throw new Error(body.error?.message ?? `${url}: ${res.status} ${res.statusText}`);
  }
  return body;
}
