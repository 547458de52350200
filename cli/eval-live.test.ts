/**
 * `arcade-gym eval --live` against the site's API routes on 127.0.0.1: the command draws a live
 * ticket, plays its episodes in the server's sessions with a built-in agent (it never sees a seed),
 * and follows the run the server submits to its verdict; flags that make no sense live are refused.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../drizzle/schema';
import { useBrowser } from '../gym/testing';
import { loadAgent } from '../leaderboard/queries';
import { testDrivers, useServedSite } from '../leaderboard/test-support';
import { createToken } from '../leaderboard/tokens';
import { cliRunner } from './testing';

const cli = cliRunner({ timeoutMs: 300_000, isolated: true });

const gym = useBrowser();

for (const driver of testDrivers()) {
  describe(`${driver.driver}: eval --live`, () => {
    const served = useServedSite(driver, gym.browser, { live: { pool: { maxBrowsers: 1 } } });
    let token: string;
    beforeAll(async () => {
      token = (await createToken(served.db, { name: 'live cli' })).token;
    });

    it('plays a live ticket with the scripted agent and ranks the run the server submitted', async () => {
      const { stdout } = await cli(['eval', '--live', '--game', 'g2048', '--agent', 'scripted', '--name', 'live-cli', '--seeds', '2', '--server', served.url], {
        ARCADE_TOKEN: token,
      });
      expect(stdout).toMatch(/g2048 episode 1\/2: score \d+/);
      expect(stdout).toMatch(/g2048 episode 2\/2: score \d+/);
      expect(stdout).toMatch(/Accepted: run .*, 2 episodes verified by replay, 2 ranked on g2048/);
      const rows = await served.db.select().from(tickets).where(eq(tickets.mode, 'live'));
      expect(rows).toHaveLength(1);
      expect(rows[0].closedAt).not.toBeNull();
      const agent = await loadAgent(served.db, 'live-cli');
      expect(agent?.games[0].cell).toMatchObject({ episodes: 2, seeds: 2 });
    }, 300_000);

    it('refuses --live without a name, and with flags a live ticket does not take', async () => {
      const env = { ARCADE_TOKEN: token };
      await expect(cli(['eval', '--live', '--game', 'g2048', '--server', served.url], env)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--live needs --name NAME'),
      });
      await expect(cli(['eval', '--live', '--name', 'x', '--game', 'g2048', '--seed', '3', '--server', served.url], env)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--seed does not apply to a live ticket'),
      });
    });

    it('plays a live ticket with a model agent, which reads the screenshots the live sessions send', async () => {
      // A local OpenAI-compatible endpoint: it answers every turn with a wait and keeps what it was sent.
      const images: number[] = [];
      const model = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const messages = (JSON.parse(body) as { messages: { content: string | { type: string }[] }[] }).messages;
          images.push(messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => c.type === 'image_url').length);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Action: wait()' } }] }));
        });
      });
      const base = await new Promise<string>((r) => model.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`)));
      try {
        const { stdout } = await cli(
          [
            'eval',
            '--live',
            '--game',
            'fruit-catch',
            '--agent',
            'openai',
            '--base-url',
            base,
            '--model',
            'm',
            '--api-key',
            'k',
            '--name',
            'live-model',
            '--seeds',
            '1',
            '--server',
            served.url,
          ],
          { ARCADE_TOKEN: token },
        );
        expect(stdout).toMatch(/Accepted: run [0-9a-f-]{36}, 1 episodes verified by replay/);
        expect(images.length).toBeGreaterThan(10);
        expect(images.every((n) => n >= 1)).toBe(true);
      } finally {
        await new Promise((r) => model.close(r));
      }
    }, 300_000);
  });
}
