import { defineConfig } from '@playwright/test';
import { findChromium, CHROMIUM_ARGS } from './gym/browser';

/** End-to-end tests of the site in real (Debian) Chromium; the site runs from a production build. */
const PORT = Number(process.env.E2E_PORT ?? 3217);
export const GYM_PORT = Number(process.env.E2E_GYM_PORT ?? 8791);

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: findChromium({ headless: true }),
      args: [...CHROMIUM_ARGS, '--no-sandbox'],
    },
  },
  webServer: {
    command: `npx next start -H 127.0.0.1 -p ${PORT}`,
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      NEXT_TELEMETRY_DISABLED: '1',
      ARCADE_DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e',
      // e2e/watch.spec.ts starts a gym server here.
      ARCADE_GYM_URL: `http://127.0.0.1:${GYM_PORT}`,
    },
  },
});
