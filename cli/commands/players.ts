import { ApiCallError, callApi } from '../../leaderboard/client';
import type { PlayerSummary } from '../../leaderboard/human-players';
import { type Command, UsageError, valueFlags } from '../command';
import { serverAuth } from '../leaderboard-ticket';

const USAGE = 'arcade-gym players [list] | accept NAME | reject NAME   [--server URL] [--token ADMIN_TOKEN]';

function line(p: PlayerSummary): string {
  const games = p.games.map((g) => `${g.gameId} ${g.episodes}× mean ${Number(g.meanScore.toFixed(1))}`).join(', ') || 'no ranked episodes';
  return `${p.name.padEnd(24)} ${p.status.padEnd(9)} ${p.visitor ? 'visitor' : 'admin  '}  ${games}`;
}

/**
 * The people behind the human references (leaderboard/human-players.ts): who has played from
 * /play, and the admin's decision on each. Only accepted players' episodes make a reference.
 */
export const playersCommand: Command = {
  name: 'players',
  summary: 'List the human reference players; accept or reject one (admin token)',
  usage: `${USAGE}\n  --token defaults to $ARCADE_TOKEN, --server to $ARCADE_SERVER_URL or http://127.0.0.1:$PORT (3000).`,
  positionals: true,
  options: { ...valueFlags('server', 'token') },
  async run({ values, positionals }) {
    const [verb = 'list', name, ...rest] = positionals;
    const deciding = verb === 'accept' || verb === 'reject';
    if (rest.length || (verb !== 'list' && !deciding) || (deciding && !name) || (verb === 'list' && name))
      throw new UsageError(`expected "players list", "players accept NAME" or "players reject NAME"\n\nUsage: ${USAGE}`);
    const auth = serverAuth(values, 'Reading or deciding on players');
    const url = `${auth.server}/api/admin/human-players`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${auth.token}` };
    try {
      if (deciding) {
        const { body } = await callApi<{ player: PlayerSummary }>(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name, status: verb === 'accept' ? 'accepted' : 'rejected' }),
        });
        console.error(`${body.player.name} is ${body.player.status}; the references of the games they played were recomputed.`);
        console.log(line(body.player));
        return;
      }
      const { body } = await callApi<{ players: PlayerSummary[] }>(url, { method: 'GET', headers });
      if (body.players.length === 0) console.error('No one has played for the human references yet.');
      for (const p of body.players) console.log(line(p));
    } catch (e) {
      if (e instanceof ApiCallError) throw new UsageError(`${e.message}${e.code !== 'UNREACHABLE' ? ` (${e.code})` : ''}`);
      throw e;
    }
  },
};
