// Browser test of the page on every screen (issue 30): a phone's finger scrolls every view to its bottom (with
// momentum, as the wheel does), each tap shows the new state once the page is idle (frames follow every event
// until the layout has settled), the inference Results table is laid out whole, the Compare view with 8 pinned
// columns scrolls to its last row and stays there, a phone's results break no word, the Korean serving plan fits
// 1280x720 at 150% and the provider sheet's cells are whole; in English and Korean, at the sizes people use.
// node test_screens.mjs SITE_DIR OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import {withPage, waitReady, check, api, settle, widgetRect, scrollPos, idle, reuseBrowser, panelEdgeGap, EDGE_GAP_CSS} from './harness.mjs';

reuseBrowser();  // one Chromium for every section, a new context each (harness.mjs)

const [siteDir, outDir] = [process.argv[2], process.argv[3]];
let failed = 0;
const only = (process.env.GPUCOST_SECTIONS || '').split(',').filter(Boolean);

async function section(name, fn, options) {
  if (only.length && !only.some(o => name.startsWith(o))) return;
  try {
    await withPage(siteDir, outDir, async (page, url) => {
      try {
        await page.goto(url);
        await waitReady(page);
        if (options.lang === 'ko') {
          await api(page, () => window.gpucost.setLang('ko'));
          await page.waitForFunction(() => window.gpucost.missingGlyphs().length === 0, null, {timeout: 60000});
        }
        await api(page, () => window.gpucost.loaded());
        await idle(page);
        await fn(page);
      } catch (e) {
        await page.screenshot({path: path.join(outDir, `screens-${name}-failure.png`)});
        throw e;
      }
    }, options);
  } catch (e) {
    failed++;
    console.error(`FAILED (${name}): ${e.message}`);
  }
}

async function shot(page, name) {
  await idle(page);
  await page.screenshot({path: path.join(outDir, name)});
  check(true, `screenshot saved: ${path.join(outDir, name)}`);
}

// One finger through the DevTools protocol (Playwright has taps but no swipes): down, `steps` moves, up.
async function swipe(page, cdp, x, y0, y1, {steps = 8, ms = 16, hold = 0} = {}) {
  await cdp.send('Input.dispatchTouchEvent', {type: 'touchStart', touchPoints: [{x, y: y0}]});
  for (let i = 1; i <= steps; i++) {
    await page.waitForTimeout(ms);
    await cdp.send('Input.dispatchTouchEvent', {type: 'touchMove', touchPoints: [{x, y: y0 + (y1 - y0) * i / steps}]});
  }
  if (hold) await page.waitForTimeout(hold);
  await cdp.send('Input.dispatchTouchEvent', {type: 'touchEnd', touchPoints: []});
}

async function tap(page, id, index = -1) {
  const r = await widgetRect(page, id, index);
  await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
  await idle(page, `the page after a tap on ${id}[${index}]`);
}

const viewNames = ['Results', 'Compare', 'Charts', 'Share & files', 'Layouts', 'Sensitivity', 'Fleet', 'Evidence'];

// --- the phone: swipes scroll, momentum carries on, every view reaches its bottom; taps show the new state ---
for (const lang of ['en', 'ko']) {
  await section(`phone-touch-${lang}`, async page => {
    const cdp = await page.context().newCDPSession(page);
    const width = 390, height = 844;
    // A slow drag, held still before lifting: the results move by as far as the finger did, no more.
    const before = await scrollPos(page, 'view');
    check(before && before.maxY > 100, `${lang}: the results are taller than the phone (max ${before && before.maxY.toFixed(0)} px)`);
    const frames0 = await api(page, () => window.gpucost.frames());
    await swipe(page, cdp, width / 2, 600, 400, {steps: 10, ms: 30, hold: 200});
    await idle(page, 'the page after a drag');
    const dragged = await scrollPos(page, 'view');
    check(await api(page, () => window.gpucost.frames()) > frames0, `${lang}: a swipe draws frames`);
    const want = Math.min(200, before.maxY - before.y);
    check(Math.abs(dragged.y - before.y - want) <= 2, `${lang}: a 200 px drag held before lifting scrolls ${want.toFixed(0)} px (${(dragged.y - before.y).toFixed(1)})`);
    // A flick: the panel coasts on after the finger has left, if the page received it as one (a loaded machine
    // delivers the moves late and far apart: then the finger's measured speed is below a flick's, and it is said).
    await api(page, () => {
      window.touchTimes = [];
      for (const t of ['touchmove', 'touchend'])
        document.addEventListener(t, e => window.touchTimes.push([e.timeStamp, e.changedTouches[0].clientY]), {capture: true});
    });
    await swipe(page, cdp, width / 2, 600, 500, {steps: 4, ms: 16});
    await idle(page, 'the page after a flick');
    const flicked = await scrollPos(page, 'view');
    const times = await api(page, () => window.touchTimes);
    const [a, b, end] = [times[times.length - 3], times[times.length - 2], times[times.length - 1]];
    const speed = a && b && b[0] > a[0] ? Math.abs(b[1] - a[1]) / (b[0] - a[0]) : 0;  // px/ms of the last move
    // The page treats a finger that lifts more than 80 ms after its last move as stopped (web/app_touch.cpp), as
    // it should: a loaded machine that delivers the touchend that late has not delivered a flick.
    const lifted_late = !(b && end) || end[0] - b[0] > 80;
    if (speed > 0.3 && !lifted_late)
      check(flicked.y - dragged.y > 130 || flicked.y >= flicked.maxY - 1,
            `${lang}: a 100 px flick at ${speed.toFixed(2)} px/ms coasts further (${(flicked.y - dragged.y).toFixed(0)} px)`);
    else
      console.log(`# SKIPPED: ${lang}: the flick reached the page at ${speed.toFixed(3)} px/ms (moves ${b && a ? (b[0] - a[0]).toFixed(0) : '?'} ms apart, lifted ${b && end ? (end[0] - b[0]).toFixed(0) : '?'} ms after the last on this loaded machine): momentum is checked in ui_tests (test_touch.cpp); it scrolled ${(flicked.y - dragged.y).toFixed(0)} px`);
    check(flicked.y - dragged.y >= Math.min(99, flicked.maxY - dragged.y - 0.5), `${lang}: the flick scrolled at least as far as the finger moved (${(flicked.y - dragged.y).toFixed(0)} px)`);
    // Swipe up to the top again, then check each view: tap its tab, the view shows (idle), swipes reach its bottom.
    for (let i = 0; i < 30 && (await scrollPos(page, 'view')).y > 0; i++) {
      await swipe(page, cdp, width / 2, 300, 700, {steps: 6});
      await idle(page);
    }
    check((await scrollPos(page, 'view')).y === 0, `${lang}: swipes down bring the results back to the top`);
    for (const [v, id] of [[1, 'tab'], [2, 'tab'], [3, 'tab'], [4, 'tab'], [5, 'tab'], [6, 'tab'], [7, 'tab'], [0, 'tab'], [-1, 'tab_editor']]) {
      const want = v < 0 ? 'Scenario' : viewNames[v];
      // The tab bar scrolls sideways on a phone (arrows at its right end): a tab partly on screen is tapped where
      // it shows (ImGui then scrolls it into view); one further off, the "<" or ">" arrow first.
      for (let i = 0; ; i++) {
        const r = await widgetRect(page, id, v < 0 ? -1 : v);
        const x0 = Math.max(r.x, 0), x1 = Math.min(r.x + r.w, width - 36);
        if (x1 - x0 >= 12) {
          await page.touchscreen.tap((x0 + x1) / 2, r.y + r.h / 2);
          await idle(page, `the page after a tap on ${want}`);
          break;
        }
        if (i >= 12) throw new Error(`the tab ${want} never came on screen`);
        await page.touchscreen.tap(r.x < 0 ? width - 26 : width - 14, r.y + r.h / 2);  // "<" or ">"
        await idle(page);
      }
      const shown = await api(page, () => window.gpucost.drawnText('shown_view'));
      check(shown === want, `${lang}: after one tap on "${want}", the last frame drawn shows it ("${shown}")`);
      if (v >= 0) {  // the view's panel (and so its wrapped text and scrollbar) lies on the screen
        const w = await widgetRect(page, 'view_window', -1);
        check(w && w.x >= 0 && w.x + w.w <= width + 0.5, `${lang}: ${want}'s panel fits the phone (${w && (w.x + w.w).toFixed(1)} <= ${width} px)`);
      }
      const panel = v < 0 ? 'editor' : 'view';
      let pos = await scrollPos(page, panel);
      for (let i = 0; i < 60 && pos && pos.y < pos.maxY; i++) {
        await swipe(page, cdp, width / 2, 760, 260, {steps: 6, ms: 16});
        await idle(page);
        pos = await scrollPos(page, panel);
      }
      check(!pos || pos.y >= pos.maxY - 0.5, `${lang}: swipes reach the bottom of ${want} (${pos ? `${pos.y.toFixed(0)} of ${pos.maxY.toFixed(0)}` : 'no scrolling needed'})`);
      if (v >= 0) {  // its last column ends a gap before the scrollbar and the screen's edge
        const edge = await panelEdgeGap(page);
        check(edge >= EDGE_GAP_CSS, `${lang}: ${want}'s bottom ends ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
      }
      await shot(page, `screens-phone-${lang}-${want.replace(/\W+/g, '_')}-bottom.png`);
    }
    await cdp.detach();
  }, {dpr: 3, width: 390, height: 844, touch: true, lang, locale: lang === 'ko' ? 'ko-KR' : 'en-US'});
}

// --- a phone's results: every note and figure whole, no word broken inside its line -----------------------------
// Beside a KRW run's values the notes had a few letters' width and broke words inside ("expecte d", "(predict ed)",
// "₩224,607,7 08" under "Normal run"; the default job's "(default)" and its comma): a note and a figure that does
// not fit its line whole read as cut (RecordRect with its widest word).
const KRW_RUN = {name: '7B 2T H100 x256', workload: {model: 'llama-2-7b', tokens: 2e12}, cluster: {gpu: 'h100-sxm', gpus: 256},
                 parallel: {global_batch: 512}, pricing: {currency: 'KRW', krw_per_usd: 1400, tax_rate: 0.1}};
for (const lang of ['en', 'ko']) {
  await section(`phone-results-${lang}`, async page => {
    for (const [what, tag, scenario] of [['the default job', 'default', null], ['a KRW run with VAT', 'krw', KRW_RUN]]) {
      if (scenario) {
        check(await api(page, t => window.gpucost.load(t), JSON.stringify(scenario)) === '', `${lang}: ${what} loads`);
        await idle(page, `the page after loading ${what}`);
      }
      const shown = await api(page, () => window.gpucost.drawnText('shown_view'));
      const cut = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => c[0] !== 'tab');
      check(shown === 'Results' && cut.length === 0,
            `${lang}: ${what}: the results' notes and figures whole on a phone, no word broken inside (${JSON.stringify(cut.slice(0, 6))})`);
      const edge = await panelEdgeGap(page);
      check(edge >= EDGE_GAP_CSS, `${lang}: ${what}: the results end ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
      await shot(page, `screens-phone-results-${lang}-${tag}.png`);
    }
  }, {dpr: 3, width: 390, height: 844, touch: true, lang, locale: lang === 'ko' ? 'ko-KR' : 'en-US'});
}

// --- a serving plan's cheapest configurations fit 1280x720 at 150% in Korean: no sideways scroll ----------------
// They fitted with 7.4 px to spare until the views' gap at the panel's edge (8 px) made them scroll 0.6 px sideways.
const MOE_SERVICE = {workload: {kind: 'inference', model: 'deepseek-v3'}, cluster: {gpu: 'h200-sxm', gpus: 8},
                     parallel: {tensor_parallel: 8}, inference: {attention: 'data', moe_split: 'expert', weight_precision: 'fp8'}};
await section('serving-plan-ko', async page => {
  check(await api(page, t => window.gpucost.load(t), JSON.stringify(MOE_SERVICE)) === '', 'a MoE service loads');
  await settle(page, () => api(page, () => window.gpucost.show('plan')));
  await page.waitForFunction(() => !window.gpucost.busy() && window.gpucost.scrollPos('serving_plan_best'), null,
                             {timeout: 120000, polling: 100});
  await idle(page, 'the page after the serving plan');
  const best = await scrollPos(page, 'serving_plan_best');
  check(best.maxX < 0.5, `ko 1280x720@1.5: the serving plan's cheapest configurations fit without scrolling sideways (${best.maxX.toFixed(1)} px to scroll)`);
  const edge = await panelEdgeGap(page);
  check(edge >= EDGE_GAP_CSS, `ko 1280x720@1.5: the serving plan ends ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
  await shot(page, 'screens-serving-plan-ko-1280x720@1.5.png');
}, {width: 1280, height: 720, dpr: 1.5, lang: 'ko', locale: 'ko-KR'});

// --- an inference scenario's Results table is laid out whole before the page sleeps (no mouse move needed) ---
await section('inference-table', async page => {
  const text = fs.readFileSync(new URL('../../assets/presets/llama2-70b-chat-h100.json', import.meta.url), 'utf8');
  await api(page, t => window.gpucost.load(t), text);
  await idle(page, 'the page after loading an inference scenario');
  const cut = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => c[0] !== 'tab');
  check(cut.length === 0, `nothing cut in the inference results once idle (${JSON.stringify(cut.slice(0, 4))})`);
  const rect = await api(page, () => window.gpucost.widgetRect('headline'));
  check(rect && rect.w > 100, `the headline is laid out whole (${rect && rect.w.toFixed(0)} px wide)`);
  await shot(page, 'screens-inference-results-idle.png');
}, {width: 1280, height: 720, dpr: 1.5});

// --- Compare with 8 pinned columns: the wheel reaches the last provider-sheet row and stays there -------------
await section('compare-8', async page => {
  await settle(page, async () => {
    await api(page, () => window.gpucost.show('compare'));
  });
  for (let i = 0; i < 8; i++) {
    await api(page, n => window.gpucost.load(JSON.stringify({name: `Option ${n + 1}`, cluster: {gpus: 64 << (n % 4)},
                                                          pricing: {model: ['on_demand', 'spot', 'reserved', 'owned'][n % 4]}})), i);
    await idle(page);
    const pin = await widgetRect(page, 'pin');
    await settle(page, () => page.mouse.click(pin.x + pin.w / 2, pin.y + pin.h / 2));
    await idle(page);
  }
  const link = await api(page, () => window.gpucost.link());
  check(link.length <= 1800, `the share link with 8 pinned columns is ${link.length} characters (<= 1,800)`);
  const tab = await widgetRect(page, 'tab', 1);
  await page.mouse.move(tab.x + 40, tab.y + 300);
  let pos = await scrollPos(page, 'view'), last = -1;
  let backwards = 0;
  for (let i = 0; i < 80 && pos.y < pos.maxY; i++) {
    await page.mouse.wheel(0, 400);
    await idle(page);
    last = pos.y;
    pos = await scrollPos(page, 'view');
    if (pos.y < last) backwards++;
    if (process.env.GPUCOST_DEBUG) console.log(`# wheel ${i}: ${JSON.stringify(pos)}`);
  }
  check(pos.y >= pos.maxY - 0.5 && backwards === 0, `the wheel reaches the bottom of Compare (${pos.y.toFixed(0)} of ${pos.maxY.toFixed(0)}), never jumping back`);
  for (let i = 0; i < 5; i++) {
    await page.mouse.wheel(0, 400);
    await idle(page);
  }
  const end = await scrollPos(page, 'view');
  check(end.y >= end.maxY - 0.5 && end.maxY >= pos.maxY - 0.5, `wheeling past the bottom stays at the bottom (${end.y.toFixed(0)} of ${end.maxY.toFixed(0)})`);
  await shot(page, 'screens-compare-8-bottom.png');
}, {width: 1280, height: 720, dpr: 1.5});

// --- laptops and high-DPI screens, in English and Korean: the first screen and the Compare view, nothing cut ----
for (const lang of ['en', 'ko'])
  for (const [width, height, dpr] of [[960, 600, 1.5], [1280, 720, 1], [1280, 720, 1.5], [1280, 720, 2], [1440, 900, 1]]) {
    const size = `${width}x${height}@${dpr}`;
    await section(`sizes-${lang}-${size}`, async page => {
      const cut = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => c[0] !== 'tab');
      check(cut.length === 0, `${lang} ${size}: nothing cut on the first screen (${JSON.stringify(cut.slice(0, 6))})`);
      const edge = await panelEdgeGap(page);  // the results' last column, a gap before the scrollbar
      check(edge >= EDGE_GAP_CSS, `${lang} ${size}: the results end ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
      await shot(page, `screens-${lang}-${size}-results.png`);
      for (let i = 0; i < 4; i++) {
        await api(page, n => window.gpucost.load(JSON.stringify({name: `선택지 ${n + 1} option`, cluster: {gpus: 64 << n}})), i);
        await idle(page);
        const pin = await api(page, () => window.gpucost.widgetRect('pin', -1));  // drawn now (the page is idle), no wait
        if (!pin) await api(page, () => window.gpucost.show('compare'));
        const p = await widgetRect(page, 'pin');
        await settle(page, () => page.mouse.click(p.x + p.w / 2, p.y + p.h / 2));
        await idle(page);
      }
      // The comparison table scrolls sideways: its columns past the right edge are reached by scrolling, not cut.
      // The provider sheet under it does not: each cell's text whole (its last row read "9 of 9 security ite").
      const sideways = ['edit_pinned', 'unpin', 'pinned_name'];
      const cutCompare = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => c[0] !== 'tab' && !sideways.includes(c[0]));
      check(cutCompare.length === 0, `${lang} ${size}: 4 pinned columns, nothing cut outside the sideways-scrolling table, the provider sheet's cells whole (${JSON.stringify(cutCompare.slice(0, 6))})`);
      const compareEdge = await panelEdgeGap(page);  // the pricing table's last column and the comparison's
      check(compareEdge >= EDGE_GAP_CSS, `${lang} ${size}: Compare ends ${compareEdge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
      await shot(page, `screens-${lang}-${size}-compare.png`);
    }, {width, height, dpr, lang, locale: lang === 'ko' ? 'ko-KR' : 'en-US'});
  }

// --- idle means idle: no frames drawn while nothing happens ---------------------------------------------------
await section('idle', async page => {
  const a = await api(page, () => window.gpucost.frames());
  await page.waitForTimeout(1000);
  const b = await api(page, () => window.gpucost.frames());
  check(b === a, `an idle page draws no frames (${b - a} in 1 s)`);
}, {width: 1280, height: 720});

if (failed) console.error(`${failed} section(s) failed`);
process.exit(failed ? 1 : 0);
