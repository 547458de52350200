/**
 * The canonical form of agent names, and the same form as migration 0005 computes it in SQL for the
 * names stored before it (both drivers): a name the migration and the server disagree on could be
 * taken twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { canonicalAgentName } from './agent-names';
import type { Database } from './db';
import { migrationsDir } from './paths';
import { testDrivers } from './test-support';

describe('canonicalAgentName', () => {
  it('folds case, look-alikes and separators, and drops punctuation at the ends', () => {
    for (const n of ['scripted', 'SCRIPTED', 'Scripted.', '_scripted_', 'scripted--', ' scripted ', 'ｓｃｒｉｐｔｅｄ', 'ѕсrірtеd'])
      expect(canonicalAgentName(n)).toBe('scripted');
    expect(canonicalAgentName('rand0m')).toBe('random');
    expect(canonicalAgentName('a1ice_snake')).toBe('alice-snake');
    expect(canonicalAgentName('Alice.Snake')).toBe('alice-snake');
    expect(canonicalAgentName('alice--snake.')).toBe('alice-snake');
    // Different names stay different.
    expect(canonicalAgentName('alice-snake')).not.toBe(canonicalAgentName('alice-snakes'));
    expect(canonicalAgentName('ppo-v2')).not.toBe(canonicalAgentName('ppo-v3'));
  });
});

/** The SQL expression of migration 0005, as it is in the file. */
function migrationExpression(): string {
  const text = readFileSync(path.join(migrationsDir(), '0005_agent_canonical_name.sql'), 'utf8');
  const m = /SET "canonical_name" = (regexp_replace\([\s\S]*?\));--> statement-breakpoint/.exec(text);
  if (!m) throw new Error('0005_agent_canonical_name.sql: the canonical-name expression was not found');
  return m[1].replaceAll('"name"', 'n.name');
}

// ASCII names only: those are all the API has ever stored (AgentName).
const NAMES = ['scripted', 'SCRIPTED', 'Random', 'rand0m', 'alice-snake.', 'Alice_Snake', 'a1ice..snake', '-x-', 'agent-0001', 'ppo.v2_final', 'A9', 'z'];

for (const driver of testDrivers()) {
  describe(`${driver.driver}: migration 0005's SQL`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database?.close();
      await driver.cleanup();
    });

    it('gives every stored name the canonical form the server computes', async () => {
      const values = sql.join(
        NAMES.map((n, i) => sql`(${i}::int, ${n}::text)`),
        sql`, `,
      );
      const result = await database.db.execute(sql`select n.i, ${sql.raw(migrationExpression())} as c from (values ${values}) as n(i, name) order by n.i`);
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { c: string }[];
      expect(rows.map((r) => r.c)).toEqual(NAMES.map(canonicalAgentName));
    });
  });
}
