/**
 * `arcade-gym submit --checkpoint policy.agckpt`: hands a trained policy to the server
 * (leaderboard/policy-runs.ts), whose workers play it on seeds it draws and never shows before the
 * run is in; this follows the play and then the run to its verdict, like `submit`. No episode is
 * played here: a policy needs no client at all.
 */
import { readFile } from 'node:fs/promises';
import { ApiCallError, callApi, type ServerAuth } from '../leaderboard/client';
import { type AcceptedRun, SubmissionStatus } from '../leaderboard/submission-schema';
import { TicketJson } from '../leaderboard/ticket-schema';
import { UsageError } from './command';
import { followRun } from './send-run';

export interface PolicyRunPlan {
  checkpoint: string;
  agent: string;
  gameId?: string;
  suite?: string;
  seedsPerGame?: number;
  mode: 'greedy' | 'sample';
  waitTimeoutS: number;
}

function refusedBy(what: string, e: unknown): never {
  if (e instanceof ApiCallError) throw new UsageError(`${what} (${e.status ? `${e.status} ` : ''}${e.code}): ${e.message}`);
  throw e;
}

export async function submitPolicyRun(auth: ServerAuth, plan: PolicyRunPlan): Promise<AcceptedRun> {
  let bytes: Buffer;
  try {
    bytes = await readFile(plan.checkpoint);
  } catch (e) {
    throw new UsageError(`cannot read ${plan.checkpoint}: ${e instanceof Error ? e.message : e}`);
  }
  const query = new URLSearchParams({
    agent: plan.agent,
    ...(plan.gameId ? { game: plan.gameId } : { suite: plan.suite! }),
    ...(plan.seedsPerGame ? { seedsPerGame: String(plan.seedsPerGame) } : {}),
    mode: plan.mode,
  });
  const authorization = `Bearer ${auth.token}`;
  const started = await callApi<{ ticket: unknown }>(`${auth.server}/api/policy-runs?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', authorization },
    body: new Uint8Array(bytes),
  }).catch((e: unknown) => refusedBy('the server refused the policy run', e));
  let ticket = TicketJson.parse(started.body.ticket);
  const episodes = ticket.games.length;
  console.error(
    `Policy run on ticket ${ticket.id} at ${auth.server}: the server plays ${plan.checkpoint} on ${ticket.scope} (${episodes} game${episodes === 1 ? '' : 's'}) as "${plan.agent}"…`,
  );
  const until = Date.now() + plan.waitTimeoutS * 1000;
  while (ticket.policy?.state === 'playing') {
    if (Date.now() > until) throw new UsageError(`the policy run on ticket ${ticket.id} was still being played after ${plan.waitTimeoutS} s (--wait-timeout)`);
    await new Promise((r) => setTimeout(r, 1000));
    const read = await callApi<{ ticket: unknown }>(`${auth.server}/api/tickets/${ticket.id}`, { method: 'GET', headers: { authorization } }).catch(
      (e: unknown) => refusedBy('could not read the policy run back', e),
    );
    ticket = TicketJson.parse(read.body.ticket);
  }
  if (ticket.policy?.state === 'failed') throw new UsageError(`the server could not play the policy: ${ticket.policy.error}`);
  const status = await callApi<unknown>(`${auth.server}${ticket.policy!.statusUrl}`, { method: 'GET', headers: { authorization } }).catch((e: unknown) =>
    refusedBy('could not read the run back', e),
  );
  return followRun(auth.server, SubmissionStatus.parse(status.body), Math.max(1, Math.ceil((until - Date.now()) / 1000)));
}
