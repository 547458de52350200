import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './launch';
import { evaluateJson, openPageChannel, PageScriptError, type PageChannel } from './cdp-channel';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

async function channels(n: number): Promise<PageChannel[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const page = await (await browser.newContext()).newPage();
      await page.setContent(`<script>window.who = ${i}; window.calls = 0;</script>`);
      return openPageChannel(page);
    }),
  );
}

/** Writes this process makes to loopback TCP sockets (the raw channel's WebSocket; Playwright speaks over a pipe) while `fn` runs. */
async function loopbackWrites(fn: () => Promise<unknown>): Promise<number> {
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (this: Socket, ...a: unknown[]) => unknown>;
  const original = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    proto[name] = function (this: Socket, ...a: unknown[]) {
      if (this.remoteAddress === '127.0.0.1') writes++;
      return original[name].apply(this, a);
    };
  }
  try {
    await fn();
  } finally {
    Object.assign(proto, original);
  }
  return writes;
}

describe('raw CDP channel', () => {
  it('answers calls sent in one tick to several pages, each from its own page and in order', async () => {
    const chs = await channels(3);
    expect(chs.map((c) => c.kind)).toEqual(['raw', 'raw', 'raw']);
    const answers = await Promise.all(chs.flatMap((c) => Array.from({ length: 4 }, () => c.evaluate<[number, number]>('[window.who, ++window.calls]'))));
    expect(answers).toEqual([0, 1, 2].flatMap((who) => [1, 2, 3, 4].map((k) => [who, k])));
  });

  it('sends the messages of one tick in one socket write, and later ones in writes of their own', async () => {
    const chs = await channels(3);
    // Warm up: the first calls of a channel may set things up.
    await Promise.all(chs.map((c) => c.evaluate('1')));
    expect(await loopbackWrites(() => Promise.all(chs.map((c) => c.evaluate('window.who'))))).toBe(1);
    expect(
      await loopbackWrites(async () => {
        for (const c of chs) await c.evaluate('window.who');
      }),
    ).toBe(3);
  });

  it("evaluateJson gives what a by-value evaluate gives for plain data, undefined included, and the page's exceptions", async () => {
    const [ch] = await channels(1);
    const data = '({ a: [1, 0.1 + 0.2, 1e-7, 2 ** 53 + 2, -1.5e300], s: "é\\u2028\\"x", n: null, t: true, o: { d: [[]], skip: undefined } })';
    const json = await evaluateJson<unknown>(ch, data);
    expect(json).toEqual(await ch.evaluate<unknown>(data));
    expect(json).toEqual({ a: [1, 0.1 + 0.2, 1e-7, 2 ** 53 + 2, -1.5e300], s: 'é\u2028"x', n: null, t: true, o: { d: [[]] } });
    expect(await evaluateJson(ch, 'undefined')).toBeUndefined();
    await expect(evaluateJson(ch, '(() => { throw new Error("in the page"); })()')).rejects.toBeInstanceOf(PageScriptError);
  });
});
