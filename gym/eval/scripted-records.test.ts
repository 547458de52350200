import { describe, expect, it } from 'vitest';
import { gameLacks } from '../agents/registry';
import { loadCatalog } from '../catalog';
import { useBrowser } from '../testing/harness';
import { committedDigests, digest, scriptedRecord } from './record-digests';

/**
 * Every scripted agent plays the episode it played when gym/eval/record-digests.json was
 * written, byte for byte: agents, the single env's step path and the games' virtual time together.
 */
const FIXTURE = committedDigests();
const gym = useBrowser();

describe('scripted agents replay their committed episodes', () => {
  for (const entry of loadCatalog().games) {
    const id = entry.manifest.id;
    const lacks = gameLacks('scripted', id);
    it(`${id}: ${lacks ?? 'the record hashes to the fixture'}`, async () => {
      expect(FIXTURE[id], `${id} is not in the fixture: run npm run record-digests -- --write`).toBeDefined();
      if (lacks) {
        expect(FIXTURE[id].scripted).toBeUndefined();
        return;
      }
      const record = await scriptedRecord(await gym.browser(), id);
      expect({ version: entry.manifest.version, digest: digest(record) }).toEqual({ version: FIXTURE[id].version, digest: FIXTURE[id].scripted });
    }, 120_000);
  }
});
