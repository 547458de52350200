/** A training run's outputs as files (Node; imported lazily so the trainers run in browsers). */
import path from 'node:path';
import { encodeCheckpoint } from './checkpoint';
import { appendJsonl, writeFileAtomic } from './checkpoint-files';
import { encodePolicy } from './policy-agent';
import type { RunWriter } from './run-writer';

/** A RunWriter into `dir`: metrics.jsonl (appended), checkpoint.agckpt and policy.agckpt (each replaced atomically). */
export function runDirectoryWriter(dir: string): RunWriter {
  return {
    metrics: (m) => appendJsonl(path.join(dir, 'metrics.jsonl'), m),
    async checkpoint(ck) {
      const { blobs: _entries, ...header } = ck.header;
      void _entries;
      await writeFileAtomic(path.join(dir, 'checkpoint.agckpt'), encodeCheckpoint(header, Object.fromEntries(ck.blobs)));
    },
    policy: async (agent) => writeFileAtomic(path.join(dir, 'policy.agckpt'), await encodePolicy(agent)),
  };
}
