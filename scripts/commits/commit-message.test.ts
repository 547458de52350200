import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commitMessageProblems } from './commit-message';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHECK = path.join(HERE, 'check-commits.ts');
const TSX = path.join(HERE, '..', '..', 'node_modules', '.bin', 'tsx');

describe('commitMessageProblems', () => {
  it('passes an imperative subject within 72 characters, with or without a body', () => {
    expect(commitMessageProblems('Add sticky actions as an env option\n')).toEqual([]);
    expect(commitMessageProblems('Add sticky actions\n\nMeasured: 0.89 of the TS vector env.\n# a git comment\n')).toEqual([]);
    expect(commitMessageProblems(`${'A'.repeat(72)}\n`)).toEqual([]);
  });

  it('names what is wrong', () => {
    expect(commitMessageProblems(`${'A'.repeat(73)}`)).toEqual(['the subject is 73 characters; at most 72']);
    expect(commitMessageProblems('Added the thing')[0]).toMatch(/not in the imperative: "Added"/);
    expect(commitMessageProblems('Fixes the thing')[0]).toMatch(/"Fixes"/);
    expect(commitMessageProblems('add the thing')[0]).toMatch(/lower-case/);
    expect(commitMessageProblems('Add the thing.')).toEqual(['the subject ends with a full stop']);
    expect(commitMessageProblems('Add the thing\nand more')).toEqual(['the second line is not blank: a blank line separates the subject from the body']);
    expect(commitMessageProblems('\n\nbody only')).toEqual(['the subject line is empty']);
    // Words that merely start like a banned one are imperative.
    expect(commitMessageProblems('Make agent names unique')).toEqual([]);
    expect(commitMessageProblems('Merge action masks for 14 more games')).toEqual([]);
  });
});

describe('check-commits (the hook and the lint step)', () => {
  const repo = mkdtempSync(path.join(tmpdir(), 'arcade-commits-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
  const check = (...args: string[]) => spawnSync(TSX, [CHECK, ...args], { cwd: repo, encoding: 'utf8' });

  it('the hook refuses a bad message file and takes a good one', () => {
    writeFileSync(path.join(repo, 'bad'), 'Fixed stuff.\n');
    writeFileSync(path.join(repo, 'good'), 'Fix the stuff\n\nWhy: it broke.\n');
    const bad = check('--file', path.join(repo, 'bad'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/full stop/);
    expect(check('--file', path.join(repo, 'good')).status).toBe(0);
  });

  it('without --file checks the history it can see, and fails on a bad commit', () => {
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'Start the repository');
    const ok = check();
    expect(ok.status, ok.stderr).toBe(0);
    git('commit', '-q', '--allow-empty', '-m', `Added ${'x'.repeat(80)}`);
    const r = check();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/not in the imperative/);
    expect(r.stderr).toMatch(/characters; at most 72/);
  });
});
