import { startGymServer } from '../../gym/server/server';
import { intOption, stringOption, type Command } from '../command';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the gym over HTTP (sessions, reset, step) for clients in any language',
  usage:
    'arcade-gym serve [--host 127.0.0.1] [--port 8787] [--token T] [--max-sessions N] [--browsers M] [--pages-per-browser N] [--idle-timeout-s S] [--remote-browser ws://HOST:PORT/PATH ...]\n\n' +
    'Binds to 127.0.0.1 unless --host says otherwise; any other host requires --token (or ARCADE_GYM_TOKEN).\n' +
    'The API is described at /openapi.json; a Python client is in gym/clients/python.',
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string' },
    'max-sessions': { type: 'string' },
    browsers: { type: 'string' },
    'pages-per-browser': { type: 'string' },
    'idle-timeout-s': { type: 'string' },
    'remote-browser': { type: 'string', multiple: true },
  },
  async run({ values }) {
    const browsers = intOption(values, 'browsers', 2, 1);
    const pagesPerBrowser = intOption(values, 'pages-per-browser', 8, 1);
    const server = await startGymServer({
      host: stringOption(values, 'host') ?? '127.0.0.1',
      port: intOption(values, 'port', 8787, 0),
      token: stringOption(values, 'token') ?? process.env.ARCADE_GYM_TOKEN ?? undefined,
      sessions: {
        pool: { maxBrowsers: browsers, pagesPerBrowser, remoteEndpoints: (values['remote-browser'] as string[] | undefined) ?? [] },
        maxSessions: intOption(values, 'max-sessions', browsers * pagesPerBrowser, 1),
        idleTimeoutMs: intOption(values, 'idle-timeout-s', 300, 1) * 1000,
      },
      log: (line) => console.error(line),
    });
    // Serve until interrupted; then record every open episode and close the browsers.
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void server.close().then(() => resolve());
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};
