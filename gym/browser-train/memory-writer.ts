import { encodeCheckpoint, type Checkpoint } from '../ppo/checkpoint';
import { encodePolicy, type PolicyAgent } from '../ppo/policy-agent';
import type { RunWriter } from '../ppo/run-writer';

/** The bytes of a checkpoint file, as runDirectoryWriter writes them (gym/ppo/checkpoint-files.ts). */
export function checkpointBytes(ck: Checkpoint): Uint8Array {
  const { blobs: _entries, ...header } = ck.header;
  void _entries;
  return encodeCheckpoint(header, Object.fromEntries(ck.blobs));
}

/**
 * A RunWriter that keeps a run's files in memory, for download: the same metrics.jsonl
 * (one JSON object a line, after the config line `arcade-gym train` starts it with),
 * checkpoint.agckpt and policy.agckpt bytes as the CLI's directory writer. Nothing leaves the page.
 */
export class MemoryRunWriter implements RunWriter {
  private readonly lines: string[] = [];
  checkpointFile: Uint8Array | null = null;
  policyFile: Uint8Array | null = null;
  policyAgent: PolicyAgent | null = null;

  /** `configLine`: the `{kind: 'config', …}` record the CLI writes first. */
  constructor(configLine: object) {
    this.lines.push(JSON.stringify(configLine));
  }

  metrics(m: object): void {
    this.lines.push(JSON.stringify(m));
  }

  checkpoint(ck: Checkpoint): void {
    this.checkpointFile = checkpointBytes(ck);
  }

  async policy(agent: PolicyAgent): Promise<void> {
    this.policyAgent = agent;
    this.policyFile = await encodePolicy(agent);
  }

  /** metrics.jsonl as the CLI writes it. */
  metricsJsonl(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
