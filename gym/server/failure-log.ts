import { HttpError } from './http-errors';

/**
 * The client hung up before its request body had arrived: nothing was done and no one is left
 * to answer. Logged as what it is, not as a server failure.
 */
export class ClientAbortedError extends Error {
  constructor(
    readonly received: number,
    readonly declared: number | null,
  ) {
    super(`the client closed the connection after ${received}${declared === null ? '' : ` of ${declared}`} body bytes`);
    this.name = 'ClientAbortedError';
  }
}

/**
 * The log line for a request that failed, or null when nothing needs logging. A refusal the
 * server meant (BUSY at capacity, SHUTTING_DOWN, a bad body) is an expected condition: the
 * 5xx ones are worth one line each, since an operator may want to see capacity being reached,
 * and a stack would say nothing a code and message do not. Only a 500 the server did not raise
 * on purpose (a bug) keeps its stack, which is what it takes to find it.
 */
export function failureLine(where: string, status: number, code: string, e: unknown): string | null {
  if (e instanceof ClientAbortedError) return `${where}: ${e.message}; nothing was done`;
  if (status < 500) return null;
  if (status !== 500 || e instanceof HttpError) return `${where}: ${status} ${code}: ${e instanceof Error ? e.message : String(e)}`;
  return `${where}: ${status} ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
}
