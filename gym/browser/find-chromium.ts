import { existsSync } from 'node:fs';
import { ArcadeGymError } from '../errors';

/** Where Debian and other distributions put Chromium; the headless shell is lighter per page. */
const HEADLESS_CANDIDATES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const HEADED_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(opts: { headless: boolean }): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new ArcadeGymError('BROWSER_NOT_FOUND', `CHROMIUM_PATH is set to ${fromEnv}, but no file exists there.`);
    return fromEnv;
  }
  const found = (opts.headless ? HEADLESS_CANDIDATES : HEADED_CANDIDATES).find((p) => existsSync(p));
  if (!found) {
    throw new ArcadeGymError(
      'BROWSER_NOT_FOUND',
      'No Chromium browser found. Install one (Debian/Ubuntu: `apt-get install chromium`) or point CHROMIUM_PATH at a Chromium or Chrome executable.',
    );
  }
  return found;
}
