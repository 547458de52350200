/**
 * The episode-record digests of every game (gym/eval/record-digests.ts) against the committed
 * fixture, or rewritten into it.
 *
 *   npm run record-digests                prints them as JSON
 *   npm run record-digests -- --check     compares them with gym/eval/record-digests.json (exit 1 on a difference)
 *   npm run record-digests -- --write     rewrites that fixture's entries (after a game's version bump)
 *   RECORD_GAMES=snake,g2048 limits the games.
 */
import { writeFileSync } from 'node:fs';
import { committedDigests, differences, FIXTURE, recordDigests } from '../gym/eval/record-digests';

async function main() {
  const games = process.env.RECORD_GAMES?.split(',').filter(Boolean);
  const digests = await recordDigests(games);
  if (process.argv.includes('--write')) {
    writeFileSync(FIXTURE, `${JSON.stringify({ ...committedDigests(), ...digests }, null, 2)}\n`);
    console.log(`wrote ${Object.keys(digests).length} games to ${FIXTURE}`);
  } else if (process.argv.includes('--check')) {
    const diff = differences(digests, committedDigests());
    for (const line of diff) console.log(line);
    console.log(JSON.stringify({ games: Object.keys(digests).length, differing: diff.length }));
    process.exitCode = diff.length ? 1 : 0;
  } else {
    console.log(JSON.stringify(digests, null, 2));
  }
}

await main().catch((e: unknown) => {
  console.error(`record-digests: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
});
