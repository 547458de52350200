import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGymServer, type GymServer } from './server';

/**
 * What the gym server writes to its log for requests that are refused or abandoned: expected
 * conditions get one line each, never a stack trace, and a client that hangs up mid-body is
 * logged as an abort, not as a 500. The server runs for real on a loopback port; at no open
 * session slot (maxSessions 0) every create is refused with BUSY without a browser being started.
 */
const lines: string[] = [];
let server: GymServer;

beforeAll(async () => {
  server = await startGymServer({ port: 0, sessions: { pool: { minBrowsers: 0, maxBrowsers: 1 }, maxSessions: 0 }, log: (line) => lines.push(line) });
});
afterAll(async () => {
  await server?.close();
});

/** Log lines written from now on, once `settled` holds (or after 5 s). */
async function linesAfter(action: () => Promise<void>, settled: (added: string[]) => boolean): Promise<string[]> {
  const from = lines.length;
  await action();
  for (const until = Date.now() + 5_000; !settled(lines.slice(from)) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
  return lines.slice(from);
}

const looksLikeStack = (line: string) => /\n\s+at /.test(line);

describe('the gym server log', () => {
  it('logs each BUSY refusal as one line, with no stack', async () => {
    const added = await linesAfter(
      async () => {
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${server.url}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"game":"snake"}' });
          expect(res.status).toBe(503);
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe('BUSY');
        }
      },
      (a) => a.length >= 3,
    );
    expect(added).toHaveLength(3);
    for (const line of added) {
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toMatch(/^POST \/v1\/sessions: 503 BUSY: All 0 sessions are open/);
    }
  });

  it('logs a client that aborts mid-body as an abort, in one line, and not as a 500', async () => {
    const added = await linesAfter(
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(server.port, '127.0.0.1', () => {
            socket.write('POST /v1/sessions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"game":"sna', () =>
              setTimeout(() => socket.destroy(), 100),
            );
          });
          socket.on('close', () => resolve());
          socket.on('error', reject);
        }),
      (a) => a.length >= 1,
    );
    expect(added).toHaveLength(1);
    const [line] = added;
    expect(looksLikeStack(line)).toBe(false);
    expect(line).not.toMatch(/\b500\b/);
    expect(line).toMatch(/^POST \/v1\/sessions: the client closed the connection after 12 of 1000 body bytes/);
    // The server keeps answering.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
