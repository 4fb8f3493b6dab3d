// Makes sure the e2e tests have a Chromium before `npm test` starts. Playwright's own download
// is blocked on some machines, so Debian's package is preferred when we can install it.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const systemChromium = '/usr/bin/chromium';

function has(command) {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function run(command) {
  console.log(`ensure-browser: ${command}`);
  execSync(command, { stdio: 'inherit' });
}

if (existsSync(systemChromium)) {
  console.log(`ensure-browser: using ${systemChromium}`);
} else if (existsSync(chromium.executablePath())) {
  console.log(`ensure-browser: using Playwright's Chromium at ${chromium.executablePath()}`);
} else if (process.getuid?.() === 0 && has('apt-get')) {
  run('apt-get update -qq');
  run('DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
} else {
  run('npx playwright install chromium');
}
