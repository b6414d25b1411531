import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_LAUNCH, SHARED_BROWSER_ENDPOINT } from './shared-per-run.js';

/**
 * A browser for one suite: a connection to the run's shared Chromium when there is one (shared-per-run.ts), else a
 * Chromium of its own. Either way its `close()` ends what the suite opened (a connection closes the contexts it made,
 * and disconnects), and a suite's pages live in contexts of their own, so suites share no cookies or storage.
 */
export function openBrowser(): Promise<Browser> {
  const endpoint = process.env[SHARED_BROWSER_ENDPOINT];
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM_LAUNCH);
}
