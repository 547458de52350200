import { afterEach, describe, expect, it, vi } from 'vitest';
import { trainingProgress } from './train-progress';

describe('the training progress line', () => {
  afterEach(() => vi.restoreAllMocks());

  function lines(run: (write: ReturnType<typeof trainingProgress>, counted: { primitiveSteps: number }) => void): string[] {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const counted = { primitiveSteps: 0 };
    run(trainingProgress('ppo tetris', 40_000, counted), counted);
    return written;
  }

  it('counts the budget in primitive steps, with decisions beside them when they differ', () => {
    const [macro, keys] = lines((write, counted) => {
      counted.primitiveSteps = 3_520;
      write({ update: 2, globalStep: 512, episodeReturnMean: 12.25 });
      counted.primitiveSteps = 4_096;
      write({ update: 3, globalStep: 4_096, episodeReturnMean: null });
    });
    expect(macro).toMatch(/^\rppo tetris: update 2, 3520\/40000 steps \(512 decisions\), \d+ steps\/s, mean return 12\.3 {3}$/);
    expect(keys).toMatch(/^\rppo tetris: update 3, 4096\/40000 steps, \d+ steps\/s, mean return n\/a {3}$/);
  });
});
