/**
 * The house rules for commit messages (README, "Commits"): a subject of at most 72
 * characters in the imperative, and a blank line before the body that holds measurements and
 * reasons. Pure, so the hook, the lint step and the tests share it.
 */
export const SUBJECT_MAX = 72;

/** First words that give a subject away as past tense or third person: "Added", "Fixes". */
const NOT_IMPERATIVE =
  /^(Added|Adds|Fixed|Fixes|Updated|Updates|Changed|Changes|Removed|Removes|Moved|Moves|Renamed|Renames|Made|Makes|Improved|Improves|Implemented|Implements|Refactored|Refactors|Cleaned|Cleans|Bumped|Bumps|Merged|Merges|Reverted|Reverts)\b/;

/** Problems with one commit message (empty when it follows the rules). Comment lines (#) are git's and are ignored. */
export function commitMessageProblems(message: string): string[] {
  const lines = message
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((l) => !l.startsWith('#'));
  while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
  const subject = lines[0] ?? '';
  const problems: string[] = [];
  if (!subject.trim()) return ['the subject line is empty'];
  if (/^(fixup|squash|amend)! /.test(subject)) return [];
  if (subject.length > SUBJECT_MAX) problems.push(`the subject is ${subject.length} characters; at most ${SUBJECT_MAX}`);
  if (subject !== subject.trim()) problems.push('the subject starts or ends with spaces');
  if (/[.]$/.test(subject.trim())) problems.push('the subject ends with a full stop');
  if (/^[a-z]/.test(subject)) problems.push('the subject starts with a lower-case letter: "Add …", not "add …"');
  const word = NOT_IMPERATIVE.exec(subject)?.[1];
  if (word) problems.push(`the subject is not in the imperative: "${word}" (write "Add", "Fix", not "Added", "Fixes")`);
  if (lines.length > 1 && lines[1].trim() !== '') problems.push('the second line is not blank: a blank line separates the subject from the body');
  return problems;
}
