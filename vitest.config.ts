import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'gym/**/*.test.ts',
      'cli/**/*.test.ts',
      'leaderboard/**/*.test.ts',
      'games/**/*.test.ts',
      'verifiers/**/*.test.ts',
      'drizzle/**/*.test.ts',
      'app/**/*.test.ts',
      'scripts/**/*.test.ts',
      'jobs/**/*.test.ts',
      'clients/**/*.test.ts',
      // Each bench's smoke mode (bench/smoke.ts), so a bench that no longer runs fails npm test.
      'bench/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'e2e/**', '.next/**'],
    // Browser-driving tests share 2 cores: run files one or two at a time, not all at once.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['gym/testing/global-setup.ts'],
  },
});
