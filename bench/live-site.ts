/**
 * The site half of bench:live, in a process of its own so that its CPU is its own: the leaderboard's
 * API routes with live tickets (PGlite in memory, verification in a browser of its own) on
 * 127.0.0.1, and beside them the gym's own HTTP API (the same process, so that a gym session over HTTP
 * crosses the same processes as a live step). Prints `READY <url> <token> <gym url>`; each line "cpu" on stdin is answered with this
 * process's CPU time so far (`CPU <ms>`), its browsers' excluded, and each line "idle" with `IDLE`
 * once the verification queue has replayed every run submitted so far.
 */
import { createInterface } from 'node:readline';
import { loadCatalog } from '../gym/catalog';
import { startGymServer } from '../gym/server';
import { openDatabase } from '../leaderboard/db';
import { syncGames } from '../leaderboard/games';
import { serveTestSite, testSite } from '../leaderboard/test-support';
import { createToken } from '../leaderboard/tokens';
import { VerifierBrowsers } from '../leaderboard/verifier-browser';

const database = await openDatabase({ dataDir: 'memory' });
await syncGames(database.db, loadCatalog());
const { token } = await createToken(database.db, { name: 'bench live' });
const site = testSite(database.db, { browsers: new VerifierBrowsers(), live: { pool: { maxBrowsers: 1 } } });
const http = await serveTestSite(site);
const gym = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1 } } });
console.log(`READY ${http.url} ${token} ${gym.url}`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'cpu') {
    const { user, system } = process.cpuUsage();
    console.log(`CPU ${(user + system) / 1000}`);
  } else if (line.trim() === 'idle') {
    await site.queue.idle();
    console.log('IDLE');
  }
}
await gym.close();
await http.close();
await site.close();
await database.close();
process.exit(0);
