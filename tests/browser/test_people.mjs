// Browser test of the page in every hand, round three (issue 47): a sideways swipe on a phone's tab strip scrolls
// the tabs and never pans the page; the first click (or tap) on a tab right after typing in a field opens that
// view; a draft model turns speculative decoding on with a sourced depth and asks plainly for the acceptance rate
// (never a ticked "auto" that errors); the fix for a layout that does not fit keeps the cluster and leaves the
// batch on auto; a won quote shows in the price field (never "0 원/GPU시간"). Each section is independent.
// node test_people.mjs SITE_DIR OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import {check, api, settle, widgetRect, clickWidget, typeIntoField, scrollPos, idle, reuseBrowser, sections, shot as shotIn, swipe, tap} from './harness.mjs';

reuseBrowser();  // one Chromium for every section, a new context each (harness.mjs)

const [siteDir, outDir] = [process.argv[2], process.argv[3]];
const {section, failed} = sections(siteDir, outDir, 'people');  // harness.mjs
const scenario = page => api(page, () => JSON.parse(window.gpucost.scenario()));
const result = page => api(page, () => JSON.parse(window.gpucost.result()));
const preset = id => JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..',
                                                          'assets', 'presets', `${id}.json`), 'utf8')).scenario;
const offers = JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..',
                                                   'assets', 'offers.json'), 'utf8')).offers;  // the list's order

const PHONE_KO = {dpr: 3, width: 390, height: 844, touch: true, lang: 'ko', locale: 'ko-KR'};
const LAPTOP = {dpr: 1.5, width: 1280, height: 720};
const WIDE = {dpr: 1, width: 1440, height: 900};

const shot = (page, name) => shotIn(page, outDir, name);

// Scrolls the editor with the wheel until the widget is inside it (as a person would), then returns its rect.
async function reveal(page, id, index = -1) {
  const panel = await widgetRect(page, 'editor');
  await settle(page, () => page.mouse.move(panel.x + panel.w / 2, panel.y + panel.h / 2));
  for (let i = 0; i < 60; i++) {
    const r = await widgetRect(page, id, index);
    if (r.y >= panel.y && r.y + r.h <= panel.y + panel.h) return r;
    const step = Math.max(60, Math.floor(Math.min(600, panel.h / 2 - r.h)));
    await settle(page, () => page.mouse.wheel(0, r.y < panel.y ? -step : step), 'a wheel over the editor');
  }
  throw new Error(`${id} never scrolled into view`);
}

const shown = page => api(page, () => window.gpucost.drawnText('shown_view'));

// --- the tab strip: a sideways swipe scrolls the tabs, the page never pans ---------------------------------
await section('tab-swipe', async page => {
  const view0 = await widgetRect(page, 'view_window');
  const status0 = await widgetRect(page, 'status');
  const tab0 = await widgetRect(page, 'tab', 2);
  await shot(page, 'people-tab-swipe-before.png');
  // A thumb drags the strip 200 px to the left (to reach Fleet and Evidence), at the height of the tabs.
  await swipe(page, 330, tab0.y + tab0.h / 2, 130, tab0.y + tab0.h / 2);
  const view1 = await widgetRect(page, 'view_window');
  const status1 = await widgetRect(page, 'status');
  const tab1 = await widgetRect(page, 'tab', 2);
  check(view1.x === view0.x && view1.x >= 0, `the view keeps its left edge (x ${view0.x.toFixed(1)} -> ${view1.x.toFixed(1)})`);
  check(status1.x === status0.x && status1.x >= 0, `so does the status line (x ${status0.x.toFixed(1)} -> ${status1.x.toFixed(1)})`);
  check(tab1.x < tab0.x - 50, `the tabs moved with the thumb (tab 2 at x ${tab0.x.toFixed(0)} -> ${tab1.x.toFixed(0)})`);
  await shot(page, 'people-tab-swipe-after.png');
  // The last tab is now in reach: one tap opens it.
  const last = await widgetRect(page, 'tab', 7);
  check(last.x + last.w <= 390, `the Evidence tab is on the screen after the swipe (x ${last.x.toFixed(0)}..${(last.x + last.w).toFixed(0)})`);
  await tap(page, 'tab', 7);
  check(await shown(page) === 'Evidence', `one tap on it shows the Evidence view (${await shown(page)})`);
  const view2 = await widgetRect(page, 'view_window');
  check(view2.x >= 0, 'with its left edge on the screen');
  // A swipe back brings the first tabs back; the page still has not moved.
  await swipe(page, 100, tab0.y + tab0.h / 2, 380, tab0.y + tab0.h / 2);
  check((await widgetRect(page, 'tab', 0)).x >= 0 && (await widgetRect(page, 'status')).x === status0.x,
        'a swipe the other way brings the first tab back, the page unmoved');
}, PHONE_KO);

// --- the first click on a tab after typing in a field opens that view --------------------------------------
await section('tab-click-after-typing', async page => {
  for (const [field, text, tab, want] of [['cluster.gpus', '96', 2, 'Charts'], ['name', 'mine', 1, 'Compare'],
                                          ['workload.tokens', '3T', 0, 'Results']]) {
    const f = await reveal(page, field);
    await settle(page, () => page.mouse.click(f.x + 30, f.y + f.h / 2));  // into the field
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await idle(page);
    // Straight to the tab, as a quick hand clicks (no frame of hover in between), once.
    const t = await widgetRect(page, 'tab', tab);
    await page.mouse.click(t.x + t.w / 2, t.y + t.h / 2);
    await idle(page);
    check(await shown(page) === want, `typing "${text}" into ${field}, then one click on the ${want} tab shows it (${await shown(page)})`);
  }
  const s = await scenario(page);
  check(s.cluster.gpus === 96 && s.name === 'mine' && s.workload.tokens === 3e12, 'and what was typed was kept');
  await shot(page, 'people-tab-click-laptop.png');
}, LAPTOP);

await section('tab-tap-after-typing', async page => {
  for (const [field, text, tab, want] of [['cluster.gpus', '96', 0, 'Results'], ['name', '내 시나리오', 2, 'Charts']]) {
    await tap(page, 'tab_editor');
    const f = await widgetRect(page, field);
    await page.touchscreen.tap(f.x + 30, f.y + f.h / 2);
    await idle(page);
    await page.keyboard.press('Control+A');
    if (/^[\x00-\x7f]*$/.test(text)) await page.keyboard.type(text);
    else await page.keyboard.insertText(text);  // what an input method commits
    await idle(page);
    await tap(page, 'tab', tab);
    check(await shown(page) === want, `phone: typing into ${field}, then one tap on the ${want} tab shows it (${await shown(page)})`);
  }
  const s = await scenario(page);
  check(s.cluster.gpus === 96 && s.name === '내 시나리오', `and what was typed was kept (${s.cluster.gpus}, ${s.name})`);
  await shot(page, 'people-tab-tap-phone.png');
}, PHONE_KO);

// --- speculative decoding: a draft turns it on; "auto" is a sourced depth; the acceptance rate is asked for --
await section('speculative-defaults', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(preset('llama2-70b-chat-h100'))));
  await reveal(page, 'inference.speculative.draft_model');
  await typeIntoField(page, 'inference.speculative.draft_model', 'llama-2-7b');
  let r = await result(page);
  check(!r.ok, 'with a draft and no acceptance rate the scenario is not evaluated');
  const paths = await api(page, () => window.gpucost.drawnText('problem_paths'));
  check(paths === 'inference.speculative.acceptance_rate', `only the acceptance rate is asked for, not the depth on auto (${paths})`);
  await shot(page, 'people-speculative-asked.png');
  // The acceptance rate is an empty field that says it is required: typed straight in, no "auto" to untick.
  await reveal(page, 'inference.speculative.acceptance_rate');
  await typeIntoField(page, 'inference.speculative.acceptance_rate', '70%');
  r = await result(page);
  check(r.ok && r.inference.draft_tokens_per_step === 5, `then it is priced, drafting 5 tokens per step on auto (${r.ok && r.inference.draft_tokens_per_step})`);
  check(Math.abs(r.inference.tokens_per_decode_step - (1 - 0.7 ** 6) / 0.3) < 1e-9,
        `at (1 - 0.7^6) / 0.3 = ${((1 - 0.7 ** 6) / 0.3).toFixed(3)} tokens per step (${r.inference.tokens_per_decode_step})`);
  const s = await scenario(page);
  check(s.inference.speculative.acceptance_rate === 0.7 && !('tokens_per_step' in s.inference.speculative),
        'the scenario holds the typed 0.7 and leaves the depth on auto');
  await shot(page, 'people-speculative-priced.png');
}, WIDE);

// --- a layout that does not fit: the fix keeps the cluster and the batch on auto ---------------------------
await section('adopt-keeps-cluster', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(
      {workload: {model: 'llama-2-70b', tokens: 1e9}, cluster: {gpu: 'h100-sxm', gpus: 64}})));
  let r = await result(page);
  check(r.blocking && r.blocking.code === 'memory_does_not_fit', 'a 70B job on 64 GPUs without model parallelism does not fit');
  await clickWidget(page, 'apply_fix');
  let s = await scenario(page);
  check(s.cluster.gpus === 64, `the fix keeps the 64 GPUs (${s.cluster.gpus})`);
  check(!s.parallel || !('global_batch' in s.parallel), `and leaves the global batch on auto (${s.parallel && s.parallel.global_batch})`);
  r = await result(page);
  check(!r.blocking && r.memory.fits, 'the job fits and is priced');
  await shot(page, 'people-adopt-applied.png');
  await typeIntoField(page, 'cluster.gpus', '128');
  r = await result(page);
  check((await scenario(page)).cluster.gpus === 128 && !r.blocking, 'typing another GPU count later keeps it priced (nothing to retype)');
  // With a global batch its MFU is predicted: the held-out error band of the runs most like it stands beside the
  // headline (issue 47), the result document's evidence_band (issue 46) as the page words it.
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(
      {workload: {model: 'llama-2-70b', tokens: 1e9}, cluster: {gpu: 'h100-sxm', gpus: 64},
       parallel: {tensor_parallel: 2, zero_stage: 3, global_batch: 1024}})));
  r = await result(page);
  const band = r.evidence_band;
  check(band && band.kind === 'training', `the result document has a training band (${band && band.runs} runs)`);
  await page.waitForFunction(() => window.gpucost.drawnText('headline_band').includes('%'), null, {timeout: 30000});
  const line = await api(page, () => window.gpucost.drawnText('headline_band'));
  const signed = v => `${v >= 0 ? '+' : '-'}${Math.abs(100 * v).toFixed(1)}%`;
  check(line.startsWith('Predicted MFU') && (band.runs === 0 ? line.includes('unlike every validated run')
        : band.runs === 1 ? line.includes(`${signed(band.low)} on 1 similar run`)
        : line.includes(`${signed(band.low)} .. ${signed(band.high)} on ${band.runs} similar runs`)),
        `the headline's band is the document's: "${line}"`);
  await shot(page, 'people-band-laptop.png');
  // FLOPs off auto: the field shows the count as the parser reads it back, never in e-notation (issue 47).
  await reveal(page, 'workload.flops');
  await clickWidget(page, 'workload.flops');  // its "auto" box, ticked
  const derived = await api(page, () => window.gpucost.drawnText('workload.flops'));
  const held = (await scenario(page)).workload.flops;
  check(held > 1e15 && !/e[+-]?\d/i.test(derived) && /[PEZY]$/.test(derived), `auto off: the derived ${held} FLOPs show as "${derived}"`);
  await typeIntoField(page, 'workload.flops', derived);
  check((await scenario(page)).workload.flops === held, 'typing back what is shown keeps the value exactly');
  await typeIntoField(page, 'workload.flops', '9.755e20');
  const flops = await api(page, () => window.gpucost.drawnText('workload.flops'));
  check((await scenario(page)).workload.flops === 9.755e20 && flops === '975.5E', `9.755e20 FLOPs typed show as "${flops}"`);
  await typeIntoField(page, 'workload.flops', flops);
  check((await scenario(page)).workload.flops === 9.755e20, 'and typing back what is shown keeps the value');
}, LAPTOP);

// --- a won quote: the price field shows it, never 0 원/GPU시간 ----------------------------------------------
await section('won-quote', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify({pricing: {currency: 'KRW'}})));
  const pricing = await reveal(page, 'section', 3);
  await settle(page, () => page.mouse.click(pricing.x + 40, pricing.y + pricing.h / 2));
  await reveal(page, 'pricing.offer');
  await clickWidget(page, 'pricing.offer');
  // The open list shows about eight offers: wheel over it (at its first item) until KT Cloud's H200 is among them.
  const index = offers.findIndex(o => o.id === 'kt-cloud-ai-nexus-h200');
  const first = await widgetRect(page, 'offer', 0);
  for (let i = 0; i < 40; i++) {
    const r = await widgetRect(page, 'offer', index);
    if (r.y >= first.y && r.y + r.h <= first.y + 7 * first.h) break;
    await page.mouse.move(first.x + 20, first.y + first.h / 2);
    await settle(page, () => page.mouse.wheel(0, 60), 'a wheel over the offer list');
  }
  check(index >= 0 && offers[index].price_by_quote, 'the list has KT Cloud\'s H200 (price by quote)');
  await clickWidget(page, 'offer', index);
  check((await scenario(page)).pricing.offer === 'kt-cloud-ai-nexus-h200', 'picked');
  await reveal(page, 'quote');
  await clickWidget(page, 'quote');
  await settle(page, () => page.keyboard.type('₩9,500'));
  await page.waitForTimeout(300);
  await settle(page, () => page.keyboard.press('Enter'));
  check((await scenario(page)).pricing.krw_per_gpu_hour === 9500, 'the quote is the price in won');
  await reveal(page, 'pricing.usd_per_gpu_hour');
  const price = await api(page, () => window.gpucost.drawnText('overridden_value'));
  check(price.includes('9,500') && !/^0 /.test(price), `the price field shows the quoted price: "${price}"`);
  await shot(page, 'people-won-quote.png');
}, {...LAPTOP, lang: 'ko', locale: 'ko-KR'});

if (failed()) console.error(`${failed()} section(s) failed`);
process.exit(failed() ? 1 : 0);
