import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { runEpisode } from '../eval/run-episode';
import { ROOT } from '../paths';
import { ArcadeGymError } from '../errors';
import { createOpenAiAgent } from './openai-agent';
import { imageSize } from './ui-tars/to-gui-action';
import type { GameManifest } from '../schema/manifest';

/**
 * The openai agent against a local OpenAI-compatible mock: canned replies, and checks of what
 * the agent sends (model, key, images, history length, feedback after a bad reply).
 */
interface Seen {
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    temperature: number;
    max_tokens: number;
    top_p?: number;
    messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  };
}
type Answer = { status?: number; reply?: string; raw?: string; headers?: Record<string, string>; hang?: boolean };

function mockEndpoint() {
  const seen: Seen[] = [];
  let answers: Answer[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('{"error":{"message":"no such route"}}');
        return;
      }
      seen.push({ headers: req.headers, body: JSON.parse(data) });
      const a = answers.shift() ?? { reply: 'Action: wait()' };
      if (a.hang) return; // never answers
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
      res.end(
        a.raw ??
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: a.reply } }],
            usage: { prompt_tokens: 100, completion_tokens: 10 },
          }),
      );
    });
  });
  const ready = new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)));
  return {
    seen,
    ready,
    serve: (list: Answer[]) => {
      answers = [...list];
      seen.length = 0;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const images = (s: Seen) => s.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url') : []));
const texts = (s: Seen) =>
  s.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'text').map((p) => p.text!) : [m.content]));

const mock = mockEndpoint();
afterAll(() => mock.close());
const gym = useBrowser();

/** A fake turn for tests that do not need a game: a PNG header saying 400×400. */
function pngTurn(step = 0) {
  const png = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
  png.writeUInt32BE(400, 16);
  png.writeUInt32BE(400, 20);
  return { observation: { screenshot: png }, state: { score: 0, gameOver: false }, step };
}
const manifest = {
  id: 'snake',
  title: 'Snake',
  description: 'd',
  controls: 'c',
  msPerStep: 100,
  stepBudget: 10,
  canvas: { width: 400, height: 400 },
  preset: [],
  renderer: '2d',
} as unknown as GameManifest;

describe('openai agent', () => {
  it('plays snake from screenshots: sends model, key, images and history; parses actions; counts a bad reply; stops at finished()', async () => {
    const baseUrl = await mock.ready;
    mock.serve([
      { reply: "Thought: Turn up before the wall.\nAction: hotkey(key='up')" },
      { reply: "Thought: try a click\nAction: click(start_box='(500,250)')" },
      { reply: 'I am not sure what to do here.' },
      { reply: "Thought: type then submit\nAction: type(content='ab\\n')" },
      { reply: "Thought: good enough\nAction: finished(content='done')" },
    ]);
    const agent = createOpenAiAgent({
      baseUrl,
      model: 'ui-tars-test',
      apiKey: 'test-key',
      history: 2,
      temperature: 0.3,
      maxTokens: 64,
      retryDelayMs: 1,
      extraBody: { top_p: 0.9 },
    });
    expect(agent.observation).toEqual(['screenshot']);
    const env = await gym.env({ game: 'snake', seed: 1, observation: ['state', 'screenshot'], maxSteps: 8 });
    const record = await runEpisode(env, agent, 1);

    expect(record.actions).toEqual([
      { type: 'key', key: 'ArrowUp' },
      { type: 'click', x: 200, y: 100 },
      { type: 'wait' },
      { type: 'type', text: 'ab' },
      { type: 'key', key: 'Enter' }, // queued from the same reply: no model call
      { type: 'wait' }, // finished()
      { type: 'wait' },
      { type: 'wait' },
    ]);
    expect(record.totals).toMatchObject({ length: 8, truncated: true, terminated: false });
    // Five model calls: none for the queued Enter, none after finished().
    expect(mock.seen).toHaveLength(5);
    for (const s of mock.seen) {
      expect(s.body).toMatchObject({ model: 'ui-tars-test', temperature: 0.3, max_tokens: 64, top_p: 0.9 });
      expect(s.headers.authorization).toBe('Bearer test-key');
      expect(s.body.messages[0]).toMatchObject({ role: 'system' });
      expect(s.body.messages[0].content).toContain('Snake: Steer a growing snake');
      // The newest image is the current screenshot: a real 400×400 PNG.
      const url = images(s).at(-1)!.image_url!.url;
      expect(url.startsWith('data:image/png;base64,')).toBe(true);
      expect(imageSize(Buffer.from(url.slice(22), 'base64'))).toEqual({ width: 400, height: 400 });
    }
    // history 2: the current screenshot plus at most the two previous turns.
    expect(mock.seen.map((s) => images(s).length)).toEqual([1, 2, 3, 3, 3]);
    expect(mock.seen.map((s) => s.body.messages.filter((m) => m.role === 'assistant').length)).toEqual([0, 1, 2, 2, 2]);
    expect(mock.seen[1].body.messages.find((m) => m.role === 'assistant')!.content).toContain("hotkey(key='up')");
    // The reply after the unparseable one tells the model what went wrong.
    expect(texts(mock.seen[3]).at(-1)).toMatch(/^Step 4 of 100\. Your last reply could not be used \(no "Action:" line/);
    expect(texts(mock.seen[4]).at(-1)).toBe('Step 6 of 100.');
    expect(agent.stats()).toEqual({ modelCalls: 5, parseErrors: 1, retries: 0, promptTokens: 500, completionTokens: 50, finishedEpisodes: 1 });

    // A new episode starts a new conversation.
    mock.serve([{ reply: 'Action: wait()' }]);
    await runEpisode(await gym.env({ game: 'snake', seed: 2, observation: ['screenshot'], maxSteps: 1 }), agent, 2);
    expect(images(mock.seen[0])).toHaveLength(1);
  });

  it('retries server errors and rate limits, then succeeds', async () => {
    const baseUrl = await mock.ready;
    mock.serve([
      { status: 503, raw: 'overloaded' },
      { status: 429, raw: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0' } },
      { reply: "Action: hotkey(key='left')" },
    ]);
    const agent = createOpenAiAgent({ baseUrl, model: 'm', retries: 2, retryDelayMs: 1 });
    agent.reset({ manifest, seed: 0 });
    expect(await agent.act(pngTurn())).toEqual({ type: 'key', key: 'ArrowLeft' });
    expect(mock.seen).toHaveLength(3);
    expect(agent.stats().retries).toBe(2);
    // No key given (and none in the environment): no Authorization header at all.
    if (!process.env.OPENAI_API_KEY) expect(mock.seen[0].headers.authorization).toBeUndefined();
  });

  it('fails clearly: rejected key at once, retries exhausted, timeouts, wrong URL, no screenshots', async () => {
    const baseUrl = await mock.ready;
    const agent = (o: Record<string, unknown> = {}) => {
      const a = createOpenAiAgent({ baseUrl, model: 'm', retryDelayMs: 1, ...o });
      a.reset({ manifest, seed: 0 });
      return a;
    };
    mock.serve([{ status: 401, raw: '{"error":{"message":"Incorrect API key provided"}}' }]);
    const unauthorised = agent({ retries: 3 }).act(pngTurn());
    await expect(unauthorised).rejects.toThrow(ArcadeGymError);
    await expect(unauthorised).rejects.toThrow(/HTTP 401: Incorrect API key provided \(set OPENAI_API_KEY or pass --api-key\)/);
    expect(mock.seen).toHaveLength(1);

    mock.serve([
      { status: 500, raw: 'boom' },
      { status: 502, raw: 'bad gateway' },
    ]);
    await expect(agent({ retries: 1 }).act(pngTurn())).rejects.toThrow(/failed after 2 attempts: HTTP 502: bad gateway/);

    mock.serve([{ hang: true }, { hang: true }]);
    const started = Date.now();
    await expect(agent({ retries: 1, timeoutMs: 300 }).act(pngTurn())).rejects.toThrow(/failed after 2 attempts: no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5000);

    await expect(agent({ baseUrl: baseUrl.replace('/v1', '/v2'), retries: 0 }).act(pngTurn())).rejects.toThrow(/HTTP 404.*is --base-url right/);
    await expect(agent({ baseUrl: 'http://127.0.0.1:9/v1', retries: 0 }).act(pngTurn())).rejects.toThrow(/cannot reach the server/);

    mock.serve([{ raw: '{"not":"a completion"}' }]);
    await expect(agent({ retries: 0 }).act(pngTurn())).rejects.toThrow(/not a chat completion/);

    await expect(agent().act({ ...pngTurn(), observation: {} })).rejects.toThrow(/needs screenshot observations/);
    expect(() => createOpenAiAgent({ baseUrl })).toThrow(/model/);
    expect(() => createOpenAiAgent({ model: 'm', histroy: 3 })).toThrow(/histroy/);
  });

  it('an empty or null content is an unusable reply (a wait and a parse error), not an API failure', async () => {
    const baseUrl = await mock.ready;
    mock.serve([{ raw: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null } }] }) }]);
    const a = createOpenAiAgent({ baseUrl, model: 'm' });
    a.reset({ manifest, seed: 0 });
    expect(await a.act(pngTurn())).toEqual({ type: 'wait' });
    expect(a.stats().parseErrors).toBe(1);
    expect(a.lastTurn?.error).toMatch(/no "Action:" line/);
  });

  it('runs from the CLI: eval --agent openai asks the env for screenshots and reports the agent counters', async () => {
    const baseUrl = await mock.ready;
    mock.serve([{ reply: "Action: hotkey(key='down')" }, { reply: 'Action: ???' }, { reply: 'Action: wait()' }]);
    const out = await new Promise<{ code: number; text: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          path.join(ROOT, 'bin/arcade-gym.mjs'),
          'eval',
          '--game',
          'snake',
          '--agent',
          'openai',
          '--model',
          'cli-model',
          '--base-url',
          baseUrl,
          '--api-key',
          'k2',
          '--history',
          '1',
          '--max-steps',
          '3',
          '--episodes',
          '1',
        ],
        { cwd: ROOT, env: process.env },
      );
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('close', (code) => resolve({ code: code ?? -1, text }));
    });
    expect(out.code, out.text).toBe(0);
    expect(out.text).toMatch(/snake openai: modelCalls 3, parseErrors 1, retries 0/);
    expect(mock.seen).toHaveLength(3);
    expect(mock.seen.map((s) => s.body.model)).toEqual(['cli-model', 'cli-model', 'cli-model']);
    expect(mock.seen.map((s) => s.headers.authorization)).toEqual(['Bearer k2', 'Bearer k2', 'Bearer k2']);
    expect(mock.seen.map((s) => images(s).length)).toEqual([1, 2, 2]);
  });
});
