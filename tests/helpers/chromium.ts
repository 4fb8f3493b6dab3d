import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

// Playwright cannot download its browsers everywhere; Debian's chromium works the same.
const systemChromium = '/usr/bin/chromium';

/**
 * How the e2e tests and the benches launch Chromium: Debian's where it is installed, with
 * nothing of its own fetched from the network or run in the background (updates, sync,
 * first-run pages) beside the pages under test.
 */
export const chromiumLaunchOptions: LaunchOptions = existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    }
  : {};
