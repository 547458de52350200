import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { gymBrowserArgs, findChromium } from '../../gym/browser';
import { type Command, intOption, stringOption, valueFlags } from '../command';

/**
 * Runs a Playwright browser server on this host for a gym elsewhere (`serve --remote-browser`,
 * or the pool's `remoteEndpoints`). The random path in the address is its only secret: bind to
 * a private network, or tunnel it.
 */
export const browserHostCommand: Command = {
  name: 'browser-host',
  summary: 'Run a Chromium that gyms on other hosts can use (Playwright browser server)',
  usage: 'arcade-gym browser-host [--host 127.0.0.1] [--port 9323] [--path /SECRET]',
  options: valueFlags('host', 'port', 'path'),
  async run({ values }) {
    const host = stringOption(values, 'host') ?? '127.0.0.1';
    const executablePath = findChromium({ headless: true });
    const server = await chromium.launchServer({
      headless: true,
      executablePath,
      args: gymBrowserArgs(executablePath, true),
      host,
      port: intOption(values, 'port', 9323, 0),
      wsPath: stringOption(values, 'path') ?? `/${randomBytes(12).toString('hex')}`,
    });
    console.log(server.wsEndpoint());
    console.error(`browser host ready; point a gym at it with: npx arcade-gym serve --remote-browser ${server.wsEndpoint()}`);
    await new Promise<void>((resolve) => {
      const stop = () => void server.close().then(() => resolve());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};
