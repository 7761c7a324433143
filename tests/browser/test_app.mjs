// Browser test of the app: budgets (size, first frame), same numbers as the native CLI, editing through the
// UI with mouse and keyboard, share-link round trip, bad links, importing files, pinning, screenshots of
// every view and an idle page.
// node test_app.mjs SITE_DIR OUT_DIR NATIVE_GPUCOST
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {execFileSync} from 'node:child_process';
import {withPage, waitReady, waitFirstFrame, idle, widgetRect, check} from './harness.mjs';

const [siteDir, outDir, nativeCli] = [process.argv[2], process.argv[3], process.argv[4]];
// MAX_FIRST_LOAD_GZIP: what an English first visit fetches before its first frame (issue #15's target).
// MAX_FIRST_LOAD_GZIP: issue 15's target is 250 KB. The merges of issues 25-31 (2026-12-03) brought the English
// first load to 270.3 KB (new first-frame code and data); the limit stood at 275 KB until that is won back. On
// 2026-12-04 the first input's handlers moved into app.wasm (+2.2 KB; without them a wheel, click, key or touch
// while app.deferred.wasm was on its way fetched it a second time) and messages became keys with parameters
// (+1.5 KB), and the published validation runs left the page, which shows no evidence (-6.2 KB): 270.0 KB, and
// the limit 272 KB. On 2026-12-05 the offers (offers.json, 8.3 KB gzip) left the first load too (fetched after the
// first frame, read at once when a link or an edit needs them first): 262.9 KB, 263.2 KB with the request path's
// two fields, and the limit 265 KB. On 2026-12-06 (issue 47) the string tables were cut in two (the 195 keys the
// first frames look up embedded, the rest fetched after the first frame: web/first_frame_keys.txt): 266.0 -> 246.2
// KB, and the limit 248 KB. On 2026-12-06 (issue 50) the fields' help and sources (~13.7 KB gzip of literals in
// app.wasm, read only by the editor's tooltips) became string-table keys, in the part fetched after the first frame:
// 245.5 -> 232.2 KB (234.0 KB with issues 46 and 48 since), and the limit 236 KB (the figure + 2 KB; issue 47's 240 KB met).
// On 2026-12-07 the names joining app.wasm and app.deferred.wasm were made short (scripts/split_wasm.py): the
// bundle 1,499,930 -> 1,484,541 B raw against MAX_RAW, the English first load 235,783 -> 235,141 B; the page's
// code without RTTI (-fno-rtti): 1,471,234 B raw, 233,110 B; each module optimised again after the split:
// 1,466,410 B raw, 232,248 B; the placeholders named in base 36: 1,465,623 B raw, 231,752 B; the presets fetched
// after the first frame (presets.json): 1,453,722 B raw, 227,286 B.
// The figure is reported on every run (see docs/bundle-size.md).
const MAX_RAW = 1.5e6, MAX_FIRST_LOAD_GZIP = 236e3, MAX_FIRST_FRAME_MS = 1500, REL_TOL = 1e-9;

// --- helpers ---------------------------------------------------------------------------------------------
const gzipSize = f => zlib.gzipSync(fs.readFileSync(path.join(siteDir, f)), {level: 9}).length;
function bundleSizes() {  // every file of the page (the Korean fonts aside), raw and gzip
  const files = ['index.html', 'app.js', 'app.wasm'].concat(fs.existsSync(path.join(siteDir, 'app.deferred.wasm')) ?
                                                              ['app.deferred.wasm'] : []);
  let raw = 0, gz = 0;
  for (const f of files) {
    raw += fs.statSync(path.join(siteDir, f)).size;
    gz += gzipSize(f);
  }
  return {raw, gz, files};
}

// Every leaf equal: strings exactly, numbers to REL_TOL relative. Returns the first difference or ''.
function compareJson(a, b, where = '') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null))
    return `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (typeof a === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b));
    return Math.abs(a - b) <= REL_TOL * scale ? '' : `${where}: ${a} vs ${b}`;
  }
  if (a === null || typeof a !== 'object') return a === b ? '' : `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (!(k in a) || !(k in b)) return `${where}.${k}: present on one side only`;
    const d = compareJson(a[k], b[k], `${where}.${k}`);
    if (d) return d;
  }
  return '';
}

function nativeResult(scenarioText) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-')), 'scenario.json');
  fs.writeFileSync(file, scenarioText);
  return JSON.parse(execFileSync(nativeCli, ['eval', file, '--format', 'json'], {encoding: 'utf8'}));
}

const api = (page, expr, ...args) => page.evaluate(expr, ...args);
const scenario = page => api(page, () => JSON.parse(window.gpucost.scenario()));
const result = page => api(page, () => JSON.parse(window.gpucost.result()));

async function rect(page, id, index = -1) {
  try {
    await page.waitForFunction(([i, n]) => window.gpucost.widgetRect(i, n), [id, index], {timeout: 30000});
  } catch (e) {
    throw new Error(`widget ${id}[${index}] never drawn`);
  }
  return api(page, ([i, n]) => window.gpucost.widgetRect(i, n), [id, index]);
}

// Input wakes the main loop for 3 frames: wait until they are drawn (robust on a loaded machine).
async function settle(page, action, what = 'input') {
  const before = await api(page, () => window.gpucost.frames());
  await action();
  try {
    await page.waitForFunction(f => window.gpucost.frames() >= f + 3, before, {timeout: 30000, polling: 50});
  } catch (e) {
    throw new Error(`no frames drawn after ${what} (frames ${before} -> ${await api(page, () => window.gpucost.frames())})`);
  }
}

async function click(page, id, index = -1) {
  const r = await rect(page, id, index);
  // Hover first, as a user does: ImGui sees the pointer over the widget before the button goes down.
  await settle(page, () => page.mouse.move(r.x + r.w / 2, r.y + r.h / 2), `a move to ${id}[${index}]`);
  await settle(page, () => page.mouse.click(r.x + r.w / 2, r.y + r.h / 2), `a click on ${id}[${index}]`);
}

async function keys(page, text) {
  await settle(page, () => page.keyboard.press('Control+A'));
  await settle(page, () => page.keyboard.type(text));
  await settle(page, () => page.keyboard.press('Enter'));
}

async function typeInto(page, id, text) {
  await click(page, id);
  await keys(page, text);
}

async function untilIdle(page, timeout = 60000) {
  await page.waitForFunction(() => !window.gpucost.busy(), null, {timeout, polling: 100});
}

async function shot(page, name) {
  await page.waitForTimeout(150);
  const file = path.join(outDir, name);
  await page.screenshot({path: file});
  check(true, `screenshot saved: ${file}`);
}

// Size budgets are checked without stopping the test (the other checks still run); a miss fails it at the end.
const budgetMisses = [];
function budget(cond, message) {
  if (cond) { check(true, message); return; }
  budgetMisses.push(message);
  console.error(`BUDGET MISSED: ${message}`);
}

// The first frame, timed in a fresh browser per navigation: when the app issued its first frame and when the
// GPU had finished drawing it (a fence; window.gpucost.firstFrameMs()), in ms since navigation. The browser's
// GPU process (SwiftShader here) starts on the browser's first WebGL context, which costs ~0.8-1.8 s on this
// machine and is the browser's, not the page's (a user's browser has it running): `warm` starts it on
// about:blank first.
async function firstFrame({dpr = 1, warm = true} = {}) {
  let t = null;
  await withPage(siteDir, outDir, async (page, url) => {
    if (warm) await page.evaluate(() => document.createElement('canvas').getContext('webgl2'));
    await page.goto(url);
    await page.waitForFunction(() => window.gpucost && window.gpucost.ready && window.gpucost.firstFrameMs()[1] > 0,
                               null, {timeout: 60000});
    t = await page.evaluate(() => {
      const wasm = performance.getEntriesByType('resource').find(e => e.name.endsWith('app.wasm'));
      const [issued, done] = window.gpucost.firstFrameMs();
      // The first load: the page and every file it asked for before it issued its first frame.
      const before = performance.getEntriesByType('resource').filter(e => e.startTime < issued)
        .map(e => new URL(e.name).pathname.replace(/^\//, ''));
      return {issued, done, wasm: wasm ? wasm.responseEnd : -1, init: Module.gpucostInitMs || -1,
              firstLoad: ['index.html'].concat(before)};
    });
  }, {dpr});
  return t;
}

function describe(t) {
  return `drawn at ${t.done.toFixed(0)} ms (issued ${t.issued.toFixed(0)} ms, runtime up ${t.init.toFixed(0)} ms, ` +
         `app.wasm in ${t.wasm.toFixed(0)} ms)`;
}

// --- the test --------------------------------------------------------------------------------------------
let failed = 0;
const {raw, gz, files} = bundleSizes();
console.log(`bundle: ${raw} B raw, ${gz} B gzip (${files.map(f => `${f} ${gzipSize(f)} B`).join(', ')})`);
try {
  budget(raw <= MAX_RAW, `bundle ${(raw / 1e6).toFixed(3)} MB raw <= 1.5 MB`);
} catch (e) { failed++; console.error(e.message); }

// First-frame budget: the best of three navigations at devicePixelRatio 1 (the best, because the others
// measure the machine's load as much as the page; three more when all three miss, as a loaded machine can
// make them); devicePixelRatio 2 and a cold browser are reported.
try {
  const runs = [];
  for (let i = 0; i < 6 && (i < 3 || Math.min(...runs.map(t => t.done)) > MAX_FIRST_FRAME_MS); i++)
    runs.push(await firstFrame());
  for (const t of runs) console.log(`first frame (dpr 1, GPU process started): ${describe(t)}`);
  // The English first load, as fetched (gzip level 9 of each file, as a static host would serve it).
  const firstLoad = [...new Set(runs[0].firstLoad)];
  const firstGz = firstLoad.reduce((n, f) => n + gzipSize(f), 0);
  console.log(`first load (English): ${firstGz} B gzip: ${firstLoad.map(f => `${f} ${gzipSize(f)} B`).join(', ')}`);
  // If this fails, the first frame ran a function web/first_frame_funcs.txt lacks: scripts/profile_first_frame.sh.
check(!firstLoad.includes('offers.json'), 'offers.json is fetched after the first frame, not before');
check(!firstLoad.includes('presets.json'), 'presets.json is fetched after the first frame, not before');
check(!firstLoad.includes('app.deferred.wasm'), 'app.deferred.wasm is fetched after the first frame, not before' +
      (firstLoad.includes('app.deferred.wasm') ? ' (refresh web/first_frame_funcs.txt: scripts/profile_first_frame.sh)' : ''));
  budget(firstGz <= MAX_FIRST_LOAD_GZIP, `English first load ${(firstGz / 1e3).toFixed(1)} KB gzip <= 236 KB`);
  const best = Math.min(...runs.map(t => t.done));
  const sorted = runs.map(t => t.done).sort((a, b) => a - b);
  console.log(`first frame: best ${best.toFixed(0)} ms, median ${sorted[sorted.length >> 1].toFixed(0)} ms of ` +
              `${runs.length} navigations; load average ` +
              `${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`);
  budget(best <= MAX_FIRST_FRAME_MS, `first frame drawn ${best.toFixed(0)} ms after navigation <= ${MAX_FIRST_FRAME_MS} ms`);
  console.log(`first frame (dpr 2, GPU process started; reported): ${describe(await firstFrame({dpr: 2}))}`);
  console.log(`first frame (cold browser, first WebGL context; reported): ${describe(await firstFrame({warm: false}))}`);
} catch (e) { failed++; console.error(e.message); }

try {
  await withPage(siteDir, outDir, async (page, url) => {
   try {
    await page.goto(url);
    await waitReady(page);
    await shot(page, 'app-results.png');

    // Same numbers as the native CLI.
    let diff = compareJson(await result(page), nativeResult(await api(page, () => window.gpucost.scenario())));
    check(diff === '', `default scenario: result() equals gpucost eval --format json to 1e-9 ${diff}`);
    const spot = '{"name": "spot KRW", "cluster": {"gpus": 1024}, "workload": {"params": 70e9, "tokens": 2e12},' +
                 ' "pricing": {"model": "spot", "currency": "KRW", "tax_rate": 0.1}}';
    check(await api(page, t => window.gpucost.load(t), spot) === '', 'load() accepts a scenario');
    diff = compareJson(await result(page), nativeResult(await api(page, () => window.gpucost.scenario())));
    check(diff === '', `spot/KRW scenario: result() equals the CLI to 1e-9 ${diff}`);
    await api(page, () => window.gpucost.load('{}'));

    // Edit through the UI: the mouse clicks into the GPU count, the keyboard types, Tab moves to the next field.
    const cost0 = (await result(page)).cost.expected_usd;
    await click(page, 'cluster.gpus');
    await settle(page, () => page.keyboard.press('Control+A'));
    await settle(page, () => page.keyboard.type('128'));
    let s = await scenario(page);
    check(s.cluster.gpus === 128, `typing 128 into cluster.gpus sets it (${s.cluster.gpus})`);
    const cost1 = (await result(page)).cost.expected_usd;
    check(cost1 !== cost0, `the result changed (${cost0.toFixed(0)} -> ${cost1.toFixed(0)} USD)`);
    await settle(page, () => page.keyboard.press('Tab'));
    await keys(page, '4');
    s = await scenario(page);
    check(s.cluster.gpus_per_node === 4 && s.cluster.gpus === 128,
          `Tab moved to gpus_per_node and typing set it (${s.cluster.gpus_per_node})`);
    // Out of range: shown, not applied.
    await typeInto(page, 'cluster.gpus', '0');
    s = await scenario(page);
    check(s.cluster.gpus === 128, 'an out-of-range value (0 GPUs) is not applied; the last good value stays');
    await shot(page, 'app-inline-error.png');
    await typeInto(page, 'cluster.gpus', '256');
    check((await scenario(page)).cluster.gpus === 256, 'a valid value after an invalid one applies');
    check(await page.evaluate(() => location.hash.startsWith('#s=2.')), 'the URL fragment follows the edits');

    // Pin two columns (the second on spot pricing) and look at the comparison.
    await click(page, 'tab', 1);
    await click(page, 'pin');
    await settle(page, () => api(page, () => window.gpucost.load('{"cluster": {"gpus": 256, "gpus_per_node": 4}, ' +
        '"pricing": {"model": "spot", "usd_per_gpu_hour": 1.6}, "name": "spot"}')));
    await click(page, 'pin');
    await shot(page, 'app-compare.png');

    // Link round trip: a fresh page load of link() restores the scenario and the pinned columns.
    const link = await api(page, () => window.gpucost.link());
    const before = await api(page, () => window.gpucost.scenario());
    check(link.length < 2000, `share link ${link.length} characters`);
    await page.goto('about:blank');
    await page.goto(link);
    await waitReady(page, 60000);
    check(await api(page, () => window.gpucost.scenario()) === before, 'opening link() restores the scenario exactly');
    check(await api(page, () => window.gpucost.link()) === link, 'and the pinned comparison (same link back)');
    check(await api(page, () => window.gpucost.error()) === '', 'no error after a good link');

    // Charts: the sweeps and the Monte Carlo run in slices, then the page goes idle.
    await click(page, 'tab', 2);
    await untilIdle(page);
    check(await rect(page, 'chart_mc_cost') !== null, 'charts drawn, Monte Carlo finished');
    await shot(page, 'app-charts.png');

    // A bad link pasted into the address bar: message, scenario kept.
    await page.evaluate(() => { location.hash = '#s=1.this-is-not-a-link!'; });
    await page.waitForFunction(() => window.gpucost.error() !== '', null, {timeout: 30000});
    const error = await api(page, () => window.gpucost.error());
    check(error.startsWith('Bad link'), `a bad link shows "${error}"`);
    check(await api(page, () => window.gpucost.scenario()) === before, 'and keeps the last good scenario');
    await shot(page, 'app-bad-link.png');

    // Import a file through the Upload button; then a bad file.
    await click(page, 'tab', 3);
    const upload = async (name, text) => {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser', {timeout: 30000}),
                                           click(page, 'upload')]);
      await settle(page, () => chooser.setFiles({name, mimeType: 'application/json', buffer: Buffer.from(text)}));
    };
    await upload('imported.json', '{"cluster": {"gpus": 2048}, "name": "imported"}');
    s = await scenario(page);
    check(s.cluster.gpus === 2048 && s.name === 'imported', 'uploading a scenario file loads it');
    check(await api(page, () => window.gpucost.error()) === '', 'and clears the error');
    await upload('broken.json', '{"cluster": {"gpus": "many"}}');
    const fileError = await api(page, () => window.gpucost.error());
    check(fileError.startsWith('broken.json: a scenario with 1 problem, the first: cluster.gpus'),
          `a bad file names itself, what it is and the path: "${fileError}"`);
    check((await scenario(page)).cluster.gpus === 2048, 'and keeps the last good scenario');
    await shot(page, 'app-share.png');

    // Idle: no input, no work -> no frames.
    await settle(page, () => page.mouse.move(5, 5));
    await page.waitForTimeout(300);
    const f1 = await api(page, () => window.gpucost.frames());
    await page.waitForTimeout(800);
    const f2 = await api(page, () => window.gpucost.frames());
    check(f2 === f1, `idle page draws no frames (${f1} -> ${f2})`);
   } catch (e) {
    await page.screenshot({path: path.join(outDir, 'app-failure.png')});  // what the page showed
    throw e;
   }
  });
} catch (e) {
  failed++;
  console.error(`FAILED: ${e.message}`);
}

// A bad link on opening the page: message, default scenario.
try {
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url + '#s=1.Zm9v');
    await waitReady(page, 60000);
    const error = await api(page, () => window.gpucost.error());
    check(error.startsWith('Bad link'), `opening a bad link shows "${error}"`);
    check((await result(page)).ok === true, 'and the page still shows the default scenario');
  }, {dpr: 2});
} catch (e) {
  failed++;
  console.error(`FAILED (bad link on open): ${e.message}`);
}
// The offers are not part of the first load (index.html fetches offers.json after the first frame); a link that
// names one, opened on a fresh page, still has it at once (read synchronously when the link is parsed): the
// scenario keeps the offer, the result equals the CLI's, and the file is fetched once.
try {
  let link = '';
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url);
    await waitReady(page);
    check(await api(page, () => window.gpucost.load('{"name": "offer link", "pricing": {"offer": "aws-p5.48xlarge-us-east-1"}}')) === '',
          'load() accepts a scenario with an offer');
    link = await api(page, () => window.gpucost.link());
  });
  await withPage(siteDir, outDir, async (page, url) => {  // (another server: the link's fragment on its address)
    await page.goto(url + link.slice(link.indexOf('#')));
    await waitReady(page, 60000);
    const s = await scenario(page);
    check(s.pricing.offer === 'aws-p5.48xlarge-us-east-1' && await api(page, () => window.gpucost.error()) === '',
          `a fresh page opened on a link with an offer keeps it (${s.pricing.offer})`);
    const diff = compareJson(await result(page), nativeResult(JSON.stringify(s)));
    check(diff === '', `and its result equals gpucost eval --format json to 1e-9 ${diff}`);
    await page.waitForTimeout(500);  // (the fetch after the first frame, if the link's read had not made it needless)
    const fetched = await api(page, () => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/offers.json')).length);
    check(fetched === 1, `offers.json fetched once (${fetched})`);
  });
} catch (e) {
  failed++;
  console.error(`FAILED (offer link on open): ${e.message}`);
}
// The presets are not part of the first load either (index.html fetches presets.json after the first frame; a menu
// opened before it has arrived reads it at once): the menu lists every preset, picking one loads it (the result
// equals gpucost eval preset:ID), and the file is fetched once.
try {
  const ids = fs.readdirSync(new URL('../../assets/presets/', import.meta.url)).filter(f => f.endsWith('.json'))
    .map(f => f.slice(0, -5)).sort();
  const id = 'llama2-70b-a100', index = ids.indexOf(id);
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url);
    await waitReady(page);
    await click(page, 'presets');
    check(await api(page, n => window.gpucost.widgetRect('preset', n) !== null &&
                               window.gpucost.widgetRect('preset', n + 1) === null, ids.length - 1),
          `the presets menu lists the ${ids.length} presets`);
    await click(page, 'preset', index);
    await untilIdle(page);
    const cli = JSON.parse(execFileSync(nativeCli, ['eval', `preset:${id}`, '--format', 'json'], {encoding: 'utf8'}));
    const diff = compareJson(await result(page), cli);
    check(diff === '', `picking ${id} in the menu gives gpucost eval preset:${id} to 1e-9 ${diff}`);
    const fetched = await api(page, () => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/presets.json')).length);
    check(fetched === 1, `presets.json fetched once (${fetched})`);
  });
} catch (e) {
  failed++;
  console.error(`FAILED (presets menu): ${e.message}`);
}
// A field's help and source are in the rest of the English table (i18n/en-more.json, fetched after the first frame;
// issue 50 took them out of app.wasm): a tooltip shown before it has arrived says the help is loading and fetches
// nothing at once (a synchronous read of the held file would freeze the page here), then shows the same help as
// gpucost catalog fields once it has.
try {
  const fields = JSON.parse(execFileSync(nativeCli, ['catalog', 'fields', '--format', 'json']).toString());
  const help = fields.find(f => f.path === 'cluster.gpus').help;
  let release = () => {};
  const held = new Promise(r => { release = r; });
  await withPage(siteDir, outDir, async (page, url) => {
    try {
      await page.route('**/i18n/en-more.json', async route => { await held; await route.continue(); });
      await page.goto(url);
      await waitFirstFrame(page);
      await idle(page);
      const r = await widgetRect(page, 'cluster.gpus');
      await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
      await page.waitForFunction(() => window.gpucost.drawnText('tooltip_help') !== '', null, {timeout: 20000});
      const before = await api(page, () => window.gpucost.drawnText('tooltip_help'));
      check(before === "Loading this field's help...", `before en-more.json has arrived the tooltip says "${before}"`);
      release();
      await page.waitForFunction(h => window.gpucost.drawnText('tooltip_help') === h, help, {timeout: 30000}).catch(() => {});
      const after = await api(page, () => window.gpucost.drawnText('tooltip_help'));
      check(after === help, `once it has, the tooltip shows the field's help as gpucost catalog fields does ("${after}")`);
      const fetched = await api(page, () => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/en-more.json')).length);
      check(fetched === 1, `i18n/en-more.json fetched once (${fetched})`);
    } finally {
      release();
    }
  });
} catch (e) {
  failed++;
  console.error(`FAILED (field help after the first frame): ${e.message}`);
}
if (budgetMisses.length) console.error(`budgets missed:\n  ${budgetMisses.join('\n  ')}`);
process.exit(failed || budgetMisses.length ? 1 : 0);
