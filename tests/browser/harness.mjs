// Shared browser-test harness: Debian's Chromium through playwright-core, headless, offline-safe flags.
import fs from 'node:fs';
import path from 'node:path';
import {chromium} from 'playwright-core';
import {serveSite} from './serve.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function withPage(siteDir, outDir, fn, {dpr = 1, width = 1280, height = 800, locale = undefined} = {}) {
  fs.mkdirSync(outDir, {recursive: true});
  const site = await serveSite(siteDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--use-gl=angle', '--use-angle=swiftshader',
           '--enable-unsafe-swiftshader'],  // playwright gives each launch a fresh, empty profile
  });
  const problems = [];
  try {
    const context = await browser.newContext({viewport: {width, height}, deviceScaleFactor: dpr, locale});
    const page = await context.newPage();
    page.on('console', m => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', e => problems.push(`page exception: ${e.message}`));
    await fn(page, site.url, problems);
  } finally {
    await browser.close();
    await site.close();
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

// Generous timeout: a loaded CI machine; the first-frame budget is measured and reported separately.
export async function waitReady(page, timeout = 60000) {
  await page.waitForFunction(() => window.gpucost && window.gpucost.ready, null, {timeout});
}

export function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}
