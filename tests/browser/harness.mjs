// Shared browser-test harness: Debian's Chromium through playwright-core, headless, offline-safe flags.
import fs from 'node:fs';
import path from 'node:path';
import {chromium} from 'playwright-core';
import {serveSite} from './serve.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const launchChromium = () => chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--use-gl=angle', '--use-angle=swiftshader',
         '--enable-unsafe-swiftshader'],  // playwright gives each launch a fresh, empty profile
});

// A test file of many sections may keep one Chromium for all of them (reuseBrowser(), before the first): each
// section still gets a new context, i.e. its own empty profile, storage and page; a launch costs about 1 s.
// Only for files that end with process.exit() (playwright then closes the browser); a browser that died is
// launched again.
let shared = null;
export function reuseBrowser() { shared = shared || {browser: null}; }

export async function withPage(siteDir, outDir, fn, {dpr = 1, width = 1280, height = 800, locale = undefined, touch = false} = {}) {
  fs.mkdirSync(outDir, {recursive: true});
  const site = await serveSite(siteDir);
  let browser;
  if (shared) {
    if (!shared.browser || !shared.browser.isConnected()) shared.browser = await launchChromium();
    browser = shared.browser;
  } else {
    browser = await launchChromium();
  }
  const problems = [];
  let context = null;
  try {
    context = await browser.newContext({viewport: {width, height}, deviceScaleFactor: dpr, locale,
                                        hasTouch: touch, isMobile: touch});
    const page = await context.newPage();
    page.on('console', m => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', e => problems.push(`page exception: ${e.message}`));
    await fn(page, site.url, problems);
  } finally {
    if (shared) await (context ? context.close() : Promise.resolve()).catch(() => {});
    else await browser.close();
    await site.close();
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

// Generous timeout: a loaded CI machine; the first-frame budget is measured and reported separately. Ready: the
// first frame is drawn, what loads after it has arrived (the frames after the first wait for app.deferred.wasm,
// main_web.cpp) and the page has settled, so a test starts from what a person sees once the page is up.
export async function waitFirstFrame(page, timeout = 60000) {
  await page.waitForFunction(() => window.gpucost && window.gpucost.ready, null, {timeout});
}
export async function waitReady(page, timeout = 60000) {
  await waitFirstFrame(page, timeout);
  await page.waitForFunction(() => window.gpucost.loaded().then(() => true), null, {timeout});
  await page.waitForFunction(() => window.gpucost.idle(), null, {timeout, polling: 30});
}

export function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}

// --- driving the page as a person does (mouse, wheel, keyboard) -------------------------------------------
export const api = (page, expr, ...args) => page.evaluate(expr, ...args);

// Input wakes the main loop for 3 frames: wait until they are drawn (robust on a loaded machine).
export async function settle(page, action, what = 'input') {
  const before = await api(page, () => window.gpucost.frames());
  await action();
  const after = await api(page, () => window.gpucost.frames());
  try {
    await page.waitForFunction(f => window.gpucost.frames() >= f + 3, before, {timeout: 30000, polling: 50});
  } catch (e) {
    throw new Error(`no frames drawn after ${what}`);
  }
  // Frames drawn while the action was still sending events (a long frame, e.g. one that loaded deferred code,
  // lets them pile up) may predate its last event: one more frame handles it, unless the page has gone idle,
  // which it does only once every event has been handled.
  if (after > before)
    await page.waitForFunction(f => window.gpucost.frames() > f, after, {timeout: 300, polling: 20}).catch(() => {});
}

// A named widget's rectangle (CSS pixels), waiting until it is drawn.
export async function widgetRect(page, id, index = -1) {
  try {
    await page.waitForFunction(([i, n]) => window.gpucost.widgetRect(i, n), [id, index], {timeout: 30000});
  } catch (e) {
    throw new Error(`widget ${id}[${index}] never drawn`);
  }
  return api(page, ([i, n]) => window.gpucost.widgetRect(i, n), [id, index]);
}

// The rectangle once it has stopped moving: a popup opened near the screen's edge is measured in its first
// frame and placed in the next (a click on the first rectangle picked another row of the offer list).
async function placedWidgetRect(page, id, index) {
  let r = await widgetRect(page, id, index);
  for (let i = 0; i < 10; i++) {
    const f = await api(page, () => window.gpucost.frames());
    await page.waitForFunction(f => window.gpucost.frames() > f || window.gpucost.idle(), f, {timeout: 5000, polling: 20})
      .catch(() => {});
    const again = await widgetRect(page, id, index);
    if (again.x === r.x && again.y === r.y && again.w === r.w && again.h === r.h) return again;
    r = again;
  }
  return r;
}

export async function clickWidget(page, id, index = -1) {
  const r = await placedWidgetRect(page, id, index);
  await settle(page, () => page.mouse.move(r.x + r.w / 2, r.y + r.h / 2), `a move to ${id}[${index}]`);
  await settle(page, () => page.mouse.click(r.x + r.w / 2, r.y + r.h / 2), `a click on ${id}[${index}]`);
}

// Clicks into a field, selects its text and types `text` then Enter, as a person does.
export async function typeIntoField(page, id, text) {
  await clickWidget(page, id);
  await settle(page, () => page.keyboard.press('Control+A'));
  await settle(page, () => page.keyboard.type(text));
  await settle(page, () => page.keyboard.press('Enter'));
}

export const scrollPos = (page, id) => api(page, i => window.gpucost.scrollPos(i), id);

// Waits until the page's main loop sleeps: every event drawn and the layout settled (window.gpucost.idle()).
export async function idle(page, what = 'the page') {
  try {
    await page.waitForFunction(() => window.gpucost.idle(), null, {timeout: 60000, polling: 30});
  } catch (e) {
    throw new Error(`${what} never went idle`);
  }
}

// How far (CSS pixels) before its right edge, its vertical scrollbar or the screen's edge, a panel ('view' or
// 'editor') drew its content in the last frame: every table's last column, figure, bar, header and word (web/app.cpp
// RecordPanelEdge); null before it is drawn. The panel keeps the editor's gap there, ImGui's item spacing (8 CSS px), less what a glyph's box
// or a chart bar's smoothed end reaches past its item (2.5 px seen): at least EDGE_GAP_CSS. The views touched it (0 px).
export const EDGE_GAP_CSS = 5;
export async function panelEdgeGap(page, panel = 'view') {
  const [inner, drawn] = await api(page, p => [window.gpucost.widgetRect(`${p}_inner`), window.gpucost.widgetRect(`${p}_drawn`)], panel);
  return inner && drawn ? inner.x + inner.w - (drawn.x + drawn.w) : null;
}

// --- a test file of independent sections (test_people, test_fresh) ---------------------------------------
// Each section opens the page in a new context (options: withPage's, and lang: 'ko' to switch the page to Korean and
// wait for its glyphs), runs fn(page, options) and is timed; a failure is counted (failed()), screenshotted as
// PREFIX-NAME-failure.png, and the next section runs. GPUCOST_SECTIONS=a,b runs only the sections whose names start
// with those words (while developing).
export function sections(siteDir, outDir, prefix) {
  const only = (process.env.GPUCOST_SECTIONS || '').split(',').filter(Boolean);
  let failed = 0;
  async function section(name, fn, options) {
    if (only.length && !only.some(o => name.startsWith(o))) return;
    const began = Date.now();
    try {
      await withPage(siteDir, outDir, async (page, url) => {
        try {
          await page.goto(url);
          await waitReady(page);
          if (options.lang === 'ko') {
            await api(page, () => window.gpucost.setLang('ko'));
            await page.waitForFunction(() => window.gpucost.missingGlyphs().length === 0, null, {timeout: 60000});
            await api(page, () => window.gpucost.loaded());
          }
          await idle(page);
          await fn(page, options);
        } catch (e) {
          await page.screenshot({path: path.join(outDir, `${prefix}-${name}-failure.png`)});
          throw e;
        }
      }, options);
    } catch (e) {
      failed++;
      console.error(`FAILED (${name}): ${e.message}`);
    }
    console.log(`section ${name}: ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
  return {section, failed: () => failed};
}

// A screenshot once the page is idle, as a record (not a check).
export async function shot(page, outDir, name) {
  await idle(page);
  await page.screenshot({path: path.join(outDir, name)});
  console.log(`screenshot saved: ${path.join(outDir, name)}`);
}

// One finger through the DevTools protocol (Playwright has taps but no swipes): down, `steps` moves, up.
export async function swipe(page, x0, y0, x1, y1, {steps = 8, ms = 16} = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', {type: 'touchStart', touchPoints: [{x: x0, y: y0}]});
  for (let i = 1; i <= steps; i++) {
    await page.waitForTimeout(ms);
    await cdp.send('Input.dispatchTouchEvent', {type: 'touchMove', touchPoints: [{x: x0 + (x1 - x0) * i / steps, y: y0 + (y1 - y0) * i / steps}]});
  }
  await cdp.send('Input.dispatchTouchEvent', {type: 'touchEnd', touchPoints: []});
  await idle(page, 'the page after a swipe');
}

// A tap at the middle of a named widget.
export async function tap(page, id, index = -1) {
  const r = await widgetRect(page, id, index);
  await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
  await idle(page, `the page after a tap on ${id}[${index}]`);
}
