import { describe, expect, it } from 'vitest';
import { getGame } from '../catalog';
import { useBrowser } from '../testing';
import { CANDIDATES, measureInstancesPerPage } from './instances-per-page';

const gym = useBrowser();

describe('instances per page', () => {
  it('steps a page per core side by side at every size and takes the size with the least CPU per step', async () => {
    const m = await measureInstancesPerPage(
      getGame('snake'),
      await gym.browser(),
      { observation: 'state', pixels: { width: 84, height: 84, grayscale: true }, deviceScaleFactor: 1 },
      { windowMs: 150, pages: 2 },
    );
    expect(m.pages).toBe(2);
    expect(Object.keys(m.rates)).toEqual(CANDIDATES.map(String));
    for (const rate of Object.values(m.rates)) expect(rate).toBeGreaterThan(0);
    // Linux (here and in CI) has /proc/stat: the size follows the CPU figures, not the rates.
    expect(m.cpuMsPerStep).not.toBeNull();
    const cpu = m.cpuMsPerStep!;
    for (const ms of Object.values(cpu)) expect(ms).toBeGreaterThan(0);
    const least = Math.min(...Object.values(cpu));
    const chosen = CANDIDATES.find((n) => 1 / cpu[String(n)] >= 0.97 / least);
    expect(m.best).toBe(chosen);
  }, 120_000);
});
