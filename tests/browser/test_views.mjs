// Browser test of issue 14: every view's document, window.gpucost.view(name), equals the CLI's --format json
// for the same scenario and options (numbers to 1e-9 relative), for every preset and 50 seeded random
// scenarios (both currencies, all four pricing models, with and without a model shape). An inference scenario
// (issue 17) has its own documents for mc and plan, and sweep and fleet are refused in the same words; the
// page's "Compare serving options" equals `gpucost compare --serving-options`, and a plan over >= 10,000
// configurations is timed in the page.
// node test_views.mjs SITE_DIR OUT_DIR NATIVE_GPUCOST PRESETS_DIR
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import {withPage, waitReady, check, api, clickWidget} from './harness.mjs';

const [siteDir, outDir, cli, presetsDir] = process.argv.slice(2);
// 25 random scenarios beside the presets (was 50): this test was a third of the browser tests' time and the CI run
// must stay under 20 minutes on 2 cores; the draws still cover every pricing model (i % 4) and shape (i % 3), and
// the money laws check the model itself on 10,000 scenarios natively (tests/laws).
const REL_TOL = 1e-9, RANDOM_SCENARIOS = 25, VIEW_TIMEOUT_MS = 60000;
const PAGE_DEFAULTS = {trials: 2000, seed: 1, top: 10, objective: 'time'};  // the page's Monte Carlo and Layouts
// An inference scenario's views (issue 17): mc is the request simulation of this many requests (seed 1), plan the
// serving plan (--top 10); sweep --gpus and fleet are refused by the CLI (exit 2) in the words the page shows.
// The page's work cap for that simulation (web/app.h kServingPageMaxWork): the CLI's --max-work reproduces it.
const SERVING_REQUESTS = 20000, SERVING_MAX_WORK = 3000000, PLAN_TARGET = {configurations: 10000, seconds: 1, frameMs: 250};
const REFUSALS = {sweep: 'serving.refuse_gpu_sweep', fleet: 'serving.refuse_fleet'};
const english = JSON.parse(fs.readFileSync(path.join(presetsDir, '..', 'i18n', 'en.json'), 'utf8'));
const NAMES = ['result', 'pricing', 'sweep', 'sensitivity', 'mc', 'plan', 'compare', 'fleet', 'evidence'];
const IGNORED = new Set(['seconds', 'file']);  // the plan search's own time; the CLI's input file names
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-views-'));

// Every leaf equal: strings exactly, numbers to REL_TOL relative. Returns the first difference or ''.
function compareJson(a, b, where = '') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null))
    return `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (typeof a === 'number') return Math.abs(a - b) <= REL_TOL * Math.max(Math.abs(a), Math.abs(b)) ? '' : `${where}: ${a} vs ${b}`;
  if (a === null || typeof a !== 'object') return a === b ? '' : `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter(k => !IGNORED.has(k)));
  for (const k of keys) {
    if (!(k in a) || !(k in b)) return `${where}.${k}: present on one side only`;
    const d = compareJson(a[k], b[k], `${where}.${k}`);
    if (d) return d;
  }
  return '';
}

// The CLI's JSON, or null when it refuses (exit != 0).
function run(args) {
  try {
    return JSON.parse(execFileSync(cli, [...args, '--format', 'json'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']}));
  } catch (e) {
    return null;
  }
}

function write(name, text) {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

// --- scenarios ------------------------------------------------------------------------------------------
function splitmix(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}
const SHAPES = [  // Llama 2 7B and 70B (Touvron et al. 2023, arXiv:2307.09288)
  null,
  {params: 6.7e9, layers: 32, hidden: 4096, heads: 32, seq_len: 4096, vocab: 32000, ffn_hidden: 11008, ffn_gated: true},
  {params: 70e9, layers: 80, hidden: 8192, heads: 64, kv_heads: 8, seq_len: 4096, vocab: 32000, ffn_hidden: 28672,
   ffn_gated: true},
];
const MODELS = ['on_demand', 'spot', 'reserved', 'owned'];

function randomScenario(i, rnd) {
  const pick = list => list[Math.floor(rnd() * list.length)];
  const shape = SHAPES[i % SHAPES.length];
  const krw = rnd() < 0.5;
  const s = {schema: 'gpucost/scenario@1', name: `random ${i}`,
             workload: {params: shape ? shape.params : pick([1.3e9, 7e9, 13e9]), tokens: pick([1e9, 2e10, 3e11])},
             cluster: {gpu: pick(['h100-sxm', 'a100-sxm-80gb']), gpus: pick([8, 16, 48, 64, 256, 1024])},
             parallel: {}, reliability: {gpu_mtbf_hours: pick([5e3, 5e4, 2e5])},
             pricing: {model: MODELS[i % 4], tax_rate: krw ? 0.1 : pick([0, 0.08]), price_includes_tax: rnd() < 0.3,
                       reserved: {term_months: pick([1, 12, 36]), other_use_fraction: pick([0, 0.5])}}};
  if (shape) {
    Object.assign(s.workload, shape);
    s.parallel = {global_batch: pick([128, 512, 1024]), tensor_parallel: pick([1, 2, 8]), zero_stage: pick([1, 3])};
  }
  if (rnd() < 0.5) s.cluster.mfu = pick([0.3, 0.4, 0.5]);
  if (krw) Object.assign(s.pricing, {currency: 'KRW', krw_per_usd: pick([1350, 1400]), krw_per_gpu_hour: pick([3000, 4200, 6500])});
  else s.pricing.usd_per_gpu_hour = pick([1.8, 2.5, 3.9]);
  return s;
}

function scenarios() {
  const list = fs.readdirSync(presetsDir).filter(f => f.endsWith('.json')).sort()
    .map(f => JSON.parse(fs.readFileSync(path.join(presetsDir, f), 'utf8')).scenario);
  const rnd = splitmix(14);
  for (let i = 0; i < RANDOM_SCENARIOS; ++i) list.push(randomScenario(i, rnd));
  return list;
}

// --- the page --------------------------------------------------------------------------------------------
// Opens the scenario with the pinned comparison [scenario, previous] through a share link (as a person would).
async function open(page, file, previousFile) {
  const link = execFileSync(cli, ['link', file, file, previousFile], {encoding: 'utf8'}).trim();
  const fragment = link.slice(link.indexOf('#'));
  const name = JSON.parse(fs.readFileSync(file, 'utf8')).name;
  await api(page, f => { location.hash = f; }, fragment);
  await page.waitForFunction(n => JSON.parse(window.gpucost.scenario()).name === n, name, {timeout: 30000, polling: 20});
}

// The view's document once computed ("" when the CLI refuses too: the page then never shows one).
async function pageView(page, name, expectDocument) {
  check(await api(page, n => window.gpucost.show(n), name), `show("${name}") is known`);
  if (!expectDocument) {
    await page.waitForFunction(() => !window.gpucost.busy(), null, {timeout: VIEW_TIMEOUT_MS, polling: 20});
    return await api(page, n => window.gpucost.view(n), name);
  }
  await page.waitForFunction(n => window.gpucost.view(n) !== '', name, {timeout: VIEW_TIMEOUT_MS, polling: 20});
  return JSON.parse(await api(page, n => window.gpucost.view(n), name));
}

function cliDocument(name, file, previousFile, pageDoc, serving = false) {
  if (serving && name === 'mc') return run(['mc', file, '--trials', String(SERVING_REQUESTS), '--seed', '1', '--max-work', String(SERVING_MAX_WORK)]);
  if (serving && name === 'plan') return run(['plan', file, '--top', String(pageDoc.top)]);
  switch (name) {
    case 'result': return run(['eval', file]);
    case 'pricing': return run(['pricing', file]);
    case 'sweep': return run(['sweep', file, '--gpus']);
    case 'sensitivity': return run(['sensitivity', file]);
    case 'mc': return run(['mc', file, '--trials', String(pageDoc.trials), '--seed', String(pageDoc.seed)]);
    case 'plan': return run(['plan', file, '--top', String(pageDoc.top), '--objective', pageDoc.objective]);
    case 'compare': return run(['compare', file, previousFile]);
    case 'fleet': return run(['fleet', write('fleet.json', JSON.stringify(pageDoc.input))]);
    case 'evidence': return run(['catalog', 'evidence', file]);  // the published runs, where this scenario stands
  }
  return null;
}

// "Compare serving options" on the page pins what `gpucost compare --serving-options` compares.
async function servingOptions(page) {
  const scenario = JSON.parse(fs.readFileSync(path.join(presetsDir, 'llama2-70b-chat-h100.json'), 'utf8')).scenario;
  const file = write('serving-options.json', JSON.stringify(scenario));
  await open(page, file, file);
  check(await api(page, () => window.gpucost.show('compare')), 'the Compare view opens');
  await clickWidget(page, 'serving_options');
  // The link opened with two pinned columns (open() pins the scenario and the one before): the options ask first.
  await clickWidget(page, 'confirm_serving_options');
  await page.waitForFunction(() => {
    const d = window.gpucost.view('compare');
    return d !== '' && JSON.parse(d).scenarios.length === 3 && 'price_source' in JSON.parse(d).scenarios[0];
  }, null, {timeout: VIEW_TIMEOUT_MS, polling: 20});
  const pageDoc = JSON.parse(await api(page, () => window.gpucost.view('compare')));
  const difference = compareJson(pageDoc, run(['compare', '--serving-options', file]), 'compare');
  if (difference) throw new Error(`serving options: the page's comparison differs from the CLI: ${difference}`);
  check(true, `"Compare serving options" pins ${pageDoc.scenarios.map(c => c.label).join(' | ')}, equal to the CLI's`);
  // Columns the user pinned are asked about before the serving options replace them (2026-12-07's walk-through:
  // two pinned columns vanished without a word); a new set of options replaces an earlier set without asking.
  const pins = () => api(page, () => JSON.parse(window.gpucost.view('compare') || '{"scenarios": []}').scenarios.length);
  await clickWidget(page, 'pin');  // the user's own column: now 4
  await page.waitForFunction(() => JSON.parse(window.gpucost.view('compare') || '{"scenarios": []}').scenarios.length === 4, null, {timeout: VIEW_TIMEOUT_MS});
  await clickWidget(page, 'serving_options');
  await page.waitForFunction(() => window.gpucost.widgetRect('cancel_serving_options', -1), null, {timeout: 10000});
  const asked = await api(page, () => window.gpucost.drawnText('confirm_serving_options'));
  check(asked.includes('take the place of the 4 columns'), `with a column of the user's, the options ask first: "${asked}"`);
  await clickWidget(page, 'cancel_serving_options');
  check(await pins() === 4, 'Cancel keeps the 4 pinned columns');
  await clickWidget(page, 'serving_options');
  await clickWidget(page, 'confirm_serving_options');
  await page.waitForFunction(() => JSON.parse(window.gpucost.view('compare') || '{"scenarios": []}').scenarios.length === 3, null, {timeout: VIEW_TIMEOUT_MS});
  const notice = await api(page, () => window.gpucost.notice());
  check(notice === 'Compare: 3 serving options pinned in place of 4 earlier columns', `Replace says what it did: "${notice}"`);
}

// Issue 17's target: a plan over at least 10,000 configurations within 1 s in the browser. A scenario with quotes
// for three GPUs the offers do not price (8 priced types: 15 batch caps x (32 colocated + 32 x 32 split pools)).
// The longest gap between animation frames until view(name) has its document (issue 31: long work runs in slices).
function longestGapUntil(page, name) {
  return api(page, n => new Promise(resolve => {
    let last = performance.now(), worst = 0;
    const tick = now => {
      worst = Math.max(worst, now - last);
      last = now;
      if (window.gpucost.view(n) === '') requestAnimationFrame(tick); else resolve(worst);
    };
    requestAnimationFrame(tick);
  }), name);
}

// The request simulation of the chat preset (20,000 requests, 2.6 million request-steps: 30-90 ms in one frame
// here, more on a loaded machine) runs in 50 ms slices too, and gives the CLI's document.
async function simTimed(page) {
  const file = path.join(presetsDir, 'llama2-70b-chat-h100.json');
  const scenario = JSON.parse(fs.readFileSync(file, 'utf8')).scenario;
  Object.assign(scenario, {name: 'simulation timing'});
  const timed = write('sim-timing.json', JSON.stringify(scenario));
  await open(page, timed, timed);
  const gaps = longestGapUntil(page, 'mc');
  const started = Date.now();
  check(await api(page, () => window.gpucost.show('mc')), 'the Charts view opens');
  await page.waitForFunction(() => window.gpucost.view('mc') !== '', null, {timeout: VIEW_TIMEOUT_MS, polling: 5});
  const wall = (Date.now() - started) / 1000;
  const worst = await gaps;
  check(worst < PLAN_TARGET.frameMs, `the page keeps drawing while the requests are simulated (longest gap between frames ` +
        `${worst.toFixed(0)} ms < ${PLAN_TARGET.frameMs} ms; ${wall.toFixed(3)} s from show() to the document)`);
  const doc = JSON.parse(await api(page, () => window.gpucost.view('mc')));
  const difference = compareJson(doc, run(['mc', timed, '--trials', String(SERVING_REQUESTS), '--seed', '1',
                                           '--max-work', String(SERVING_MAX_WORK)]), 'mc');
  if (difference) throw new Error(`simulation timing scenario: the page's simulation differs from the CLI: ${difference}`);
}

async function planTimed(page) {
  const scenario = JSON.parse(fs.readFileSync(path.join(presetsDir, 'llama2-70b-chat-h100.json'), 'utf8')).scenario;
  Object.assign(scenario, {name: 'plan timing: quotes for H100 NVL, H100 PCIe and L40S'});
  Object.assign(scenario.cluster, {gpu: 'h100-nvl'});
  Object.assign(scenario.pricing, {usd_per_gpu_hour: 2.79});
  Object.assign(scenario.inference, {mode: 'disaggregated', prefill: {gpu: 'h100-pcie', usd_per_gpu_hour: 2.49},
                                     decode: {gpu: 'l40s', usd_per_gpu_hour: 1.19}});
  const file = write('plan-timing.json', JSON.stringify(scenario));
  await open(page, file, file);
  // The longest gap between animation frames while it searches (issue 31: the search runs in slices; in one
  // frame it held the page for the whole search, ~0.5 s here). 250 ms: a slice is 50 ms, with room for a loaded machine.
  const gaps = longestGapUntil(page, 'plan');
  const started = Date.now();
  check(await api(page, () => window.gpucost.show('plan')), 'the Layouts view opens');
  await page.waitForFunction(() => window.gpucost.view('plan') !== '', null, {timeout: VIEW_TIMEOUT_MS, polling: 5});
  const wall = (Date.now() - started) / 1000;
  const worst = await gaps;
  check(worst < PLAN_TARGET.frameMs, `the page keeps drawing while the plan searches (longest gap between frames ${worst.toFixed(0)} ms < ${PLAN_TARGET.frameMs} ms)`);
  const doc = JSON.parse(await api(page, () => window.gpucost.view('plan')));
  const difference = compareJson(doc, run(['plan', file, '--top', '10']), 'plan');
  if (difference) throw new Error(`plan timing scenario: the page's plan differs from the CLI: ${difference}`);
  // The target is a rate (issue 17: 10,000 configurations within 1 s); the search goes on to all 15,840, so the
  // time it took for 10,000 of them is read from its rate, not from its total.
  const perSecond = doc.evaluated / Math.max(doc.seconds, 1e-9);
  check(doc.evaluated >= PLAN_TARGET.configurations && perSecond * PLAN_TARGET.seconds >= PLAN_TARGET.configurations,
        `plan in the browser: ${doc.evaluated} configurations in ${doc.seconds.toFixed(3)} s, ${perSecond.toFixed(0)} a second ` +
        `(${wall.toFixed(3)} s from show() to the document; target >= ${PLAN_TARGET.configurations} within ${PLAN_TARGET.seconds} s)`);
}

// Issue 49: view("actual") is `gpucost actual SCENARIO RUN`. A run of each training scenario (the presets' and the
// random ones'): 90% of its planned rate, one failure and one preemption, 5% longer than planned, dropped on the page
// as a file; the page's document against the CLI's for the same scenario and run.
async function actualViews(page, list) {
  let compared = 0;
  for (const [i, s] of list.entries()) {
    if (s.workload && s.workload.kind && s.workload.kind !== 'training') continue;
    const file = write(`actual-plan-${i}.json`, JSON.stringify(s));
    const planned = run(['eval', file]);
    if (!planned || planned.blocking || !planned.work.tokens) continue;
    await open(page, file, file);
    const cluster = JSON.parse(await api(page, () => window.gpucost.scenario())).cluster;
    const compute = planned.time.breakdown_hours.compute + planned.time.breakdown_hours.data_stall;
    const record = {gpu: cluster.gpu, gpus: cluster.gpus, wall_hours: planned.time.expected_hours * 1.05,
                    tokens_per_second: 0.9 * planned.work.tokens / (compute * 3600),
                    interruptions: [{lost_hours: 0.5, cause: 'hardware'}, {lost_hours: 0.2, cause: 'preemption'}]};
    const runFile = write(`actual-run-${i}.json`, JSON.stringify(record));
    await api(page, ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, {type: 'application/json'}));
      window.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, cancelable: true}));
    }, [`run-${i}.json`, JSON.stringify(record)]);
    await page.waitForFunction(n => window.gpucost.notice().includes(n), `run-${i}.json`, {timeout: VIEW_TIMEOUT_MS, polling: 20});
    const pageDoc = await pageView(page, 'actual', true);
    const difference = compareJson(pageDoc, run(['actual', file, runFile]), 'actual');
    if (difference) throw new Error(`${s.name} (${file}): view("actual") differs from the CLI: ${difference}`);
    ++compared;
  }
  check(compared >= 20, `view("actual") equals gpucost actual for ${compared} training scenarios and their runs`);
  // A service against its plan (issue 49, serving): 10% more requests on 20% more replica-hours, TPOT 1.3x the
  // plan's median, an invoice; a few of the serving scenarios (each solves the decode efficiency: kept short).
  let served = 0;
  for (const [i, s] of list.entries()) {
    if (served >= 4 || !s.workload || s.workload.kind !== 'inference') continue;
    const file = write(`actual-serve-plan-${i}.json`, JSON.stringify(s));
    const planned = run(['eval', file]);
    if (!planned || planned.blocking || !planned.inference || !(planned.inference.requests > 0)) continue;
    const inf = planned.inference;
    const record = {gpu: inf.decode.gpu, gpus: inf.gpus, wall_hours: inf.hours, requests: 1.1 * inf.requests,
                    replica_hours: 1.2 * inf.hours * (inf.decode.replicas + (inf.mode === 'disaggregated' ? inf.prefill.replicas : 0)),
                    tpot_ms: {p50: 1.3 * inf.tpot_ms.p50}, ttft_ms: {p50: 1.2 * inf.ttft_ms.p50},
                    invoice: {amount: 1.25 * planned.cost.expected_usd, currency: 'USD', includes_tax: false}};
    await open(page, file, file);
    const runFile = write(`actual-serve-run-${i}.json`, JSON.stringify(record));
    await api(page, ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, {type: 'application/json'}));
      window.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, cancelable: true}));
    }, [`serve-run-${i}.json`, JSON.stringify(record)]);
    await page.waitForFunction(n => window.gpucost.notice().includes(n), `serve-run-${i}.json`, {timeout: VIEW_TIMEOUT_MS, polling: 20});
    const pageDoc = await pageView(page, 'actual', true);
    const cliDoc = run(['actual', file, runFile]);
    if (!cliDoc || cliDoc.workload !== 'serving') throw new Error(`${s.name} (${file}): gpucost actual gave no serving document`);
    const difference = compareJson(pageDoc, cliDoc, 'actual');
    if (difference) throw new Error(`${s.name} (${file}): view("actual") of a service differs from the CLI: ${difference}`);
    ++served;
  }
  check(served >= 3, `view("actual") equals gpucost actual for ${served} serving scenarios and their runs`);
}

const started = Date.now();
await withPage(siteDir, outDir, async (page, url) => {
  await page.goto(url);
  await waitReady(page);
  check(await api(page, () => window.gpucost.view('nonsense') === '' && !window.gpucost.show('nonsense')),
        'an unknown view name has no document');
  // The published runs are not part of the page's load: the evidence view fetches them when it first opens, once.
  const validationFetches = () => api(page, () => performance.getEntriesByType('resource').map(r => r.name)
                                                     .filter(n => n.includes('/validation/')).map(n => n.split('/').pop()).sort());
  check((await validationFetches()).length === 0, 'the page loads without the published validation runs');
  const list = scenarios();
  let previousFile = write('previous.json', JSON.stringify(list[list.length - 1]));
  let compared = 0, servingCompared = 0, refusals = 0, servingRefusedBoth = 0;
  for (const [i, s] of list.entries()) {
    const file = write(`scenario-${i}.json`, JSON.stringify(s));
    await open(page, file, previousFile);
    for (const name of NAMES) {
      const serving = s.workload && s.workload.kind === 'inference';
      if (serving && REFUSALS[name]) {  // no serving answer: the CLI refuses, the page says why in the same words
        check(run(name === 'sweep' ? ['sweep', file, '--gpus'] : ['fleet', file]) === null, `${s.name}: the CLI refuses ${name}`);
        check(await pageView(page, name, false) === '', `${s.name}: view("${name}") has no document`);
        await page.waitForFunction(t => window.gpucost.drawnText('serving_refusal') === t, english[REFUSALS[name]],
                                   {timeout: VIEW_TIMEOUT_MS, polling: 20});
        ++refusals;
        continue;
      }
      // The page's own options are in its documents (trials, seed, top, objective, the fleet's input): the CLI
      // runs with the page's defaults, and the comparison checks that the page used them.
      const cliDoc = name === 'fleet' ? undefined : cliDocument(name, file, previousFile, PAGE_DEFAULTS, serving);
      const pageDoc = await pageView(page, name, cliDoc !== null);
      if (cliDoc === null) {  // refused by the CLI (no model shape to plan, too many interruptions to simulate)
        if (pageDoc !== '') throw new Error(`${s.name}: view("${name}") has a document where the CLI refuses`);
        if (serving) ++servingRefusedBoth;  // e.g. mc of a day's load or speculative decoding (issue 28)
        continue;
      }
      const expected = name === 'fleet' ? cliDocument('fleet', file, previousFile, pageDoc) : cliDoc;
      const difference = compareJson(pageDoc, expected, name);
      if (difference) throw new Error(`${s.name} (${file}): view("${name}") differs from the CLI: ${difference}`);
      ++compared;
      if (serving) ++servingCompared;
    }
    previousFile = file;
  }
  const servingScenarios = list.filter(s => s.workload && s.workload.kind === 'inference').length;
  check(servingScenarios >= 3 && refusals === 2 * servingScenarios &&
        servingCompared + servingRefusedBoth >= servingScenarios * (NAMES.length - 2) && servingCompared >= servingScenarios * 4,
        `inference scenarios: ${servingCompared} documents equal the CLI's, ${refusals} refusals in the CLI's words, ` +
        `${servingRefusedBoth} views the CLI and the page both refuse`);
  const fetched = await validationFetches();
  check(JSON.stringify(fetched) === JSON.stringify(['measured_runs.json', 'serving_runs.json']),
        `the evidence view fetched each validation file once over ${list.length} scenarios (${fetched.join(', ')})`);
  await actualViews(page, list);
  await servingOptions(page);
  await planTimed(page);
  await simTimed(page);
  check(compared >= (list.length - 8) * NAMES.length - 2 * servingScenarios,
        `${compared} documents equal the CLI's over ${list.length} scenarios (${((Date.now() - started) / 1000).toFixed(0)} s)`);
});
