/**
 * Test databases: an in-memory PGlite always, and a fresh PostgreSQL database per test file when
 * TEST_DATABASE_URL names a server. In CI the PostgreSQL half is required: a missing URL fails
 * the run instead of quietly testing one driver.
 */
import { it } from 'vitest';
import { openDatabase, type Database, type Driver } from '../../leaderboard/db';
import { createScratchDatabase, type ScratchDatabase } from '../../leaderboard/pg-scratch';
import { migrationsDir } from '../../leaderboard/paths';

export interface TestDriver {
  driver: Driver;
  /** A new, empty, migrated database (PostgreSQL: a database of its own on the server). */
  open(): Promise<Database>;
  /** Runs the migrations again on what open() last created, as a second start of the app would. */
  migrateAgain(database: Database): Promise<void>;
  /** Drops what open() created. */
  cleanup(): Promise<void>;
}

export function pgliteDriver(): TestDriver {
  return {
    driver: 'pglite',
    open: () => openDatabase({ dataDir: 'memory' }),
    // An in-memory database cannot be reopened: run the migrator again on the live one.
    // (Reopening a data folder is tested in db.test.ts.)
    async migrateAgain(database) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(database.db as never, { migrationsFolder: migrationsDir() });
    },
    cleanup: async () => undefined,
  };
}

export function postgresDriver(url: string): TestDriver {
  const created: ScratchDatabase[] = [];
  return {
    driver: 'postgres',
    async open() {
      const scratch = await createScratchDatabase(url, 'arcade_test');
      created.push(scratch);
      return openDatabase({ url: scratch.url });
    },
    async migrateAgain() {
      const again = await openDatabase({ url: created.at(-1)!.url });
      await again.close();
    },
    async cleanup() {
      for (const scratch of created.splice(0)) await scratch.drop();
    },
  };
}

/** The drivers to test here; registers a failing test when CI lacks PostgreSQL. */
export function testDrivers(): TestDriver[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI) {
    it('has a PostgreSQL server to test against (TEST_DATABASE_URL)', () => {
      throw new Error('CI is set but TEST_DATABASE_URL is not: the PostgreSQL driver would go untested. .ci/run starts a server and sets it.');
    });
  }
  return url ? [pgliteDriver(), postgresDriver(url)] : [pgliteDriver()];
}

export { fakeCatalog, fakeGame, fakeRecord } from '../../leaderboard/synthetic';
