/**
 * Checks commit messages against the house rules (commit-message.ts).
 *
 *   tsx scripts/commits/check-commits.ts --file MSG   one message: the commit-msg hook (.githooks/commit-msg)
 *   tsx scripts/commits/check-commits.ts              every commit since the rules came in (npm run lint)
 *
 * Commits before RULES_SINCE keep their old subjects: history is not rewritten.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { commitMessageProblems } from './commit-message';

/** The last commit before the rules were enforced (the one that documents the generic agent). */
export const RULES_SINCE = 'e7dd82951e1849c20b038ec84fa046bcd2b244ee';

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function main(): number {
  const i = process.argv.indexOf('--file');
  if (i >= 0) {
    const file = process.argv[i + 1];
    if (!file) throw new Error('--file needs the path of the message (git passes it to the commit-msg hook)');
    const problems = commitMessageProblems(readFileSync(file, 'utf8'));
    for (const p of problems) process.stderr.write(`commit message: ${p}\n`);
    return problems.length ? 1 : 0;
  }
  let range = `${RULES_SINCE}..HEAD`;
  try {
    git('cat-file', '-e', `${RULES_SINCE}^{commit}`);
  } catch {
    // A shallow clone without that commit: its own commits are all there is to check.
    process.stderr.write(`check-commits: ${RULES_SINCE.slice(0, 7)} is not in this clone; checking HEAD only\n`);
    range = '-1';
  }
  const log = git('log', '--format=%H%x00%B%x01', range);
  let bad = 0;
  for (const entry of log.split('\x01')) {
    const [hash, message] = entry.replace(/^\n/, '').split('\x00');
    if (!hash || message === undefined) continue;
    const problems = commitMessageProblems(message);
    if (problems.length) {
      bad++;
      process.stderr.write(`${hash.slice(0, 7)} ${message.split('\n')[0]}\n${problems.map((p) => `  - ${p}\n`).join('')}`);
    }
  }
  if (bad) process.stderr.write(`${bad} commit message(s) break the rules in README.md ("Commits")\n`);
  return bad ? 1 : 0;
}

process.exitCode = main();
