/**
 * When two agent names are the same name. Names are shown to people, so two that a reader cannot
 * tell apart (`scripted` and `SCRIPTED`, `alice-snake` and `alice-snake.`, `alice_snake`) must not
 * belong to two agents: each agent also has a canonical form (agents.canonical_name, unique), and
 * a name is taken, or reserved, in every spelling with that form.
 *
 * The canonical form: Unicode NFKC, lower case, common confusables folded to the ASCII letter they
 * look like (Cyrillic and Greek look-alikes, digit 0 as "o", digit 1 as "l"), every run of
 * separators (".", "_", "-", whitespace) as one "-", and no punctuation or whitespace at either end.
 *
 * drizzle/migrations/0005_agent_canonical_name.sql computes the same form in SQL for the names
 * stored before it; those are ASCII (AgentName allows nothing else), so the SQL needs only the ASCII
 * steps, and `agent-names.test.ts` holds the two to the same answers.
 */

/** Look-alikes of ASCII letters (after NFKC and lower-casing), and digits read as letters. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  // Latin
  ı: 'i',
  ł: 'l',
  // Digits that pass for letters in a name
  '0': 'o',
  '1': 'l',
};

export function canonicalAgentName(name: string): string {
  const folded = [...name.normalize('NFKC').toLowerCase()].map((c) => CONFUSABLES[c] ?? c).join('');
  return folded
    .replace(/[\s._-]+/gu, '-')
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '')
    .normalize('NFC');
}
