import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGymServer, type GymServer } from './server';
import type { WatchEvent } from '../sessions/session-watch';

let server: GymServer;

beforeAll(async () => {
  server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 2 }, maxSessions: 2 } });
});
afterAll(async () => {
  await server?.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
    (r) => r.json() as Promise<Record<string, unknown>>,
  );

/** Reads server-sent events from a fetch body until `count` step events arrived. */
async function readSteps(body: ReadableStream<Uint8Array>, count: number): Promise<WatchEvent[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: WatchEvent[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (chunk.startsWith('event: step')) events.push(JSON.parse(chunk.split('\ndata: ')[1]) as WatchEvent);
    }
  }
  reader.releaseLock();
  return events;
}

describe('watching a session', () => {
  it('streams steps with changing frames while watched, and nothing once the watcher leaves', async () => {
    const created = (await post('/v1/sessions', { game: 'snake', observation: 'state', maxSteps: 50 })) as { session: { id: string } };
    const id = created.session.id;
    await post(`/v1/sessions/${id}/reset`, { seed: 1 });
    const status = async () => (await (await fetch(`${server.url}/v1/sessions/${id}`)).json()) as { watchers: number; score: number };
    expect((await status()).watchers).toBe(0);

    const abort = new AbortController();
    const stream = await fetch(`${server.url}/v1/sessions/${id}/watch`, { signal: abort.signal });
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect((await status()).watchers).toBe(1);

    const reading = readSteps(stream.body!, 3);
    for (let i = 0; i < 3; i++) {
      await post(`/v1/sessions/${id}/step`, { action: i === 1 ? 0 : 4 });
      // Frames are throttled to 10 a second: space the steps so each carries one.
      await new Promise((r) => setTimeout(r, 120));
    }
    const events = await reading;
    expect(events.map((e) => e.step)).toEqual([1, 2, 3]);
    for (const e of events) expect(e.frame).toMatch(/^data:image\/jpeg;base64,/);
    expect(new Set(events.map((e) => e.frame)).size).toBe(3);

    abort.abort();
    await new Promise((r) => setTimeout(r, 200));
    expect((await status()).watchers).toBe(0);
  });

  it('answers an unknown session with 404', async () => {
    const r = await fetch(`${server.url}/v1/sessions/nope/watch`);
    expect(r.status).toBe(404);
  });
});
