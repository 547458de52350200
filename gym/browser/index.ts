/**
 * Chromium from Node: finding and launching it with the gym's flags, serving built files into its
 * pages, the CDP channel a page is stepped through, pages the gym makes without Playwright (batch
 * pages), and a page that loads the in-page trainer.
 */
export {
  CHROMIUM_ARGS,
  FRAMELESS_ARGS,
  acquireSharedBrowser,
  gymBrowserArgs,
  isHeadlessShell,
  launchBrowser,
  releaseSharedBrowser,
  type LaunchBrowserOptions,
} from './launch';
export { findChromium } from './find-chromium';
export { GAME_ORIGIN, serveFiles, type Mount } from './serve-files';
export { PageGoneError, PageScriptError, openPageChannel, type ChannelKind, type PageChannel } from './cdp-channel';
export { navigateOwnPage, openOwnPage, ownPagesOpen, type OwnPage, type OwnPageOptions } from './own-page';
export { TRAINER_TEST_PATH, WEBGPU_ARGS, openTrainerPage } from '../browser-train/test-page';
