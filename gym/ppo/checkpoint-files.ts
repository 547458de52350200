/** Node file I/O for checkpoints and metrics (imported lazily so the rest runs in browsers). */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeCheckpoint, type Checkpoint } from './checkpoint';

export async function loadCheckpoint(file: string): Promise<Checkpoint> {
  return decodeCheckpoint(new Uint8Array(await readFile(file)));
}

/** Writes via a temporary file and rename, so a crash never leaves a half-written checkpoint. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
}

/** One JSON object per line. */
export async function appendJsonl(file: string, record: object): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(record)}\n`);
}
