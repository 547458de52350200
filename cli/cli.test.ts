import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner } from './testing';

const cli = cliRunner({ timeoutMs: 120_000 });

describe('arcade-gym CLI', () => {
  it('lists the games with their action and observation spaces', async () => {
    const { stdout } = await cli(['games']);
    expect(stdout).toMatch(/^snake\s+2d\s+Discrete\(5\)\s+Box\(13\)/m);
    const json = JSON.parse((await cli(['games', '--json'])).stdout) as { id: string; actionSpace: { n: number } }[];
    expect(json.find((g) => g.id === 'snake')?.actionSpace.n).toBe(5);
  });

  it('evaluates an agent, printing mean ± std and writing one record per episode', async () => {
    const out = path.join(os.tmpdir(), `arcade-cli-test-${process.pid}.jsonl`);
    const { stdout } = await cli(['eval', '--game', 'snake', '--agent', 'scripted', '--episodes', '2', '--seed', '4', '--out', out]);
    expect(stdout).toMatch(/^snake\s+scripted\s+2\s+[\d.]+ ± [\d.]+/m);
    const { readFileSync, rmSync } = await import('node:fs');
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    rmSync(out);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => JSON.parse(l).seed)).toEqual([4, 5]);
  });

  it('says clearly when no browser can be found, without a stack trace', async () => {
    const err = await cli(['eval', '--game', 'snake', '--episodes', '1'], { CHROMIUM_PATH: '/nonexistent/chrome' }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    const stderr = (err as { stderr: string }).stderr;
    expect(stderr).toMatch(/CHROMIUM_PATH is set to \/nonexistent\/chrome, but no file exists there/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects an unknown game and unknown commands with a clear message', async () => {
    await expect(cli(['eval', '--game', 'pacmann'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown game "pacmann"/) });
    await expect(cli(['fly'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command "fly"/) });
  });
});
