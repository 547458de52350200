import { readFileSync } from 'node:fs';
import { startGymServer } from '../../gym/server';
import { type Command, intOption, stringOption, valueFlags } from '../command';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the gym over HTTP (sessions, reset, step) for clients in any language',
  usage:
    'arcade-gym serve [--host 127.0.0.1] [--port 8787] [--token T] [--max-sessions N] [--browsers M] [--pages-per-browser N] [--idle-timeout-s S]\n' +
    '                        [--remote-browser ws://HOST:PORT/PATH ...] [--allow-origin http://HOST:PORT ...]\n\n' +
    'Binds to 127.0.0.1 unless --host says otherwise; any other host requires --token (or ARCADE_GYM_TOKEN).\n' +
    'Web pages may call the API only from an origin named with --allow-origin.\n' +
    'SIGINT or SIGTERM (also sent to npx running this command) records every running episode and stops.\n' +
    'The API is described at /openapi.json; the Python package is in clients/python (pip install ./clients/python).',
  options: {
    ...valueFlags('host', 'port', 'token', 'max-sessions', 'browsers', 'pages-per-browser', 'idle-timeout-s'),
    'remote-browser': { type: 'string', multiple: true },
    'allow-origin': { type: 'string', multiple: true },
  },
  async run({ values }) {
    const browsers = intOption(values, 'browsers', 2, 1);
    const pagesPerBrowser = intOption(values, 'pages-per-browser', 8, 1);
    const server = await startGymServer({
      host: stringOption(values, 'host') ?? '127.0.0.1',
      port: intOption(values, 'port', 8787, 0),
      token: stringOption(values, 'token') ?? process.env.ARCADE_GYM_TOKEN ?? undefined,
      allowedOrigins: (values['allow-origin'] as string[] | undefined) ?? [],
      sessions: {
        pool: { maxBrowsers: browsers, pagesPerBrowser, remoteEndpoints: (values['remote-browser'] as string[] | undefined) ?? [] },
        maxSessions: intOption(values, 'max-sessions', browsers * pagesPerBrowser, 1),
        idleTimeoutMs: intOption(values, 'idle-timeout-s', 300, 1) * 1000,
      },
      log: (line) => console.error(line),
    });
    // Serve until interrupted; then record every open episode and close the browsers.
    await new Promise<void>((resolve) => {
      let stopWatching: () => void = () => {};
      const stop = (why: string) => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        stopWatching();
        console.error(`arcade-gym serve: ${why}: recording running episodes and stopping`);
        void server.close().then(() => resolve());
      };
      const onSignal = (signal: NodeJS.Signals) => stop(signal);
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      if (process.env.npm_lifecycle_event !== undefined) stopWatching = onParentExit(() => stop('the npm wrapper exited'));
    });
  },
};

const PARENT_POLL_MS = 200;

/**
 * npx and npm scripts run a command through `sh -c`, and npm passes SIGTERM/SIGINT only to
 * that shell, which dies of it without passing it on: the server would live on, orphaned, its
 * episodes never recorded. So under npm the parent's exit counts as the signal. (Not otherwise:
 * `nohup … &` outlives its shell on purpose.) Returns a function that stops watching.
 */
function onParentExit(then: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (currentParent() === parent) return;
    clearInterval(timer);
    then();
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** This process's parent now (process.ppid is read once at startup). */
function currentParent(): number {
  try {
    // Linux: the field after the parenthesised command name, which may itself hold spaces.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    // Elsewhere: signal 0 to the original parent fails once it is gone.
    try {
      process.kill(process.ppid, 0);
      return process.ppid;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM' ? process.ppid : -1;
    }
  }
}
