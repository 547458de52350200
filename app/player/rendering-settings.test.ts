import { describe, expect, it } from 'vitest';
import { browserVersion, frameMismatchCause, type RenderingSettings } from './rendering-settings';

const GYM: RenderingSettings = {
  viewport: { width: 400, height: 400 },
  deviceScaleFactor: 1,
  browser: { name: 'chromium', version: '156.0.8078.114' },
};
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.8078.114 Safari/537.36';
const here = (change: Partial<RenderingSettings> = {}): RenderingSettings => ({
  ...GYM,
  browser: { name: 'browser', version: UA },
  ...change,
});

describe('rendering settings', () => {
  it('compares a gym record’s browser version with a user agent string', () => {
    expect(browserVersion(GYM.browser)).toBe('Chromium 156.0.8078.114');
    expect(browserVersion({ name: 'browser', version: UA })).toBe('Chromium 156.0.8078.114');
    expect(browserVersion({ name: 'browser', version: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' })).toBe('Firefox 140.0');
  });

  it('names each setting that differs, with both values', () => {
    expect(frameMismatchCause(here({ viewport: { width: 398, height: 398 } }), GYM)).toBe('rendering differs: viewport 398×398 here, 400×400 in the record');
    expect(frameMismatchCause(here({ deviceScaleFactor: 2 }), GYM)).toBe('rendering differs: device scale 2 here, 1 in the record');
    expect(frameMismatchCause(here({ browser: { name: 'browser', version: UA.replace('156.0.8078.114', '157.0.1.2') } }), GYM)).toBe(
      'rendering differs: browser Chromium 157.0.1.2 here, Chromium 156.0.8078.114 in the record',
    );
    expect(frameMismatchCause(here({ deviceScaleFactor: 2, viewport: { width: 1, height: 2 } }), GYM)).toMatch(
      /^rendering differs: viewport 1×2 here, .*; device scale 2 here/,
    );
  });

  it('says so when none of the settings it can see differ', () => {
    expect(frameMismatchCause(here(), GYM)).toMatch(/same viewport, device scale and browser version/);
  });
});
