/**
 * Each e2e run starts on an empty site, as a clean clone does: the default data directory
 * (`.data/e2e`) belongs to the e2e runs and is emptied first, so that what one run stored (accepted
 * human players, ranked runs) cannot decide what the next one sees. A directory named in
 * E2E_DATA_DIR is the caller's and is left as it is.
 */
import { rmSync } from 'node:fs';

if (!process.env.E2E_DATA_DIR) rmSync('.data/e2e', { recursive: true, force: true });
