import type { EnvOptionsInput } from '../env/options';
import type { AutoresetMode } from '../core/vector-env';
import type { BrowserPool } from '../pool/browser-pool';
import type { PoolOptionsInput } from '../pool/options';
import type { EpisodeOutcome } from '../pool/outcome';

export interface BatchedVectorEnvOptions extends Omit<EnvOptionsInput, 'seed' | 'record'> {
  numEnvs: number;
  /** Env i's first episode uses seed + i; later ones continue each env's own seeded sequence. */
  seed?: number;
  /** Default 'next-step' (Gymnasium 1.0's). */
  autoreset?: AutoresetMode;
  /** Game instances per browser page; by default this game's measured size (see instances-per-page.ts). */
  instancesPerPage?: number;
  /** A pool to share; by default the vector env makes its own. */
  pool?: BrowserPool;
  poolOptions?: PoolOptionsInput;
  /** Rebuilds tried per fault before an instance's episode is ended as truncated. */
  maxRecoveries?: number;
  /** Called with every finished episode: complete, recovered, or truncated with its cause. */
  onEpisode?: (index: number, outcome: EpisodeOutcome) => void;
}
