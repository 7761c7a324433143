// Browser test of what a new user's walk-through found (2026-12-07): every row of the offer list readable on a phone
// and a laptop (no first glyph cut at the left, no name cut at the right; the two Samsung SDS rows told apart), its
// prices in a KRW scenario's won; the status line cut on a character boundary and whole after a tap on a phone; the
// status line naming refused fields; the training Layouts table readable on a phone (sideways, first column kept); a
// latency target's "auto" unticked starting at what the plan achieves, the field taking the keys typed next; the
// Sensitivity view saying "tap" on a touch screen and giving its bounds' units; preset titles inside a phone's width.
// Its second round: a share link of pinned serving options says where their prices came from, as before sharing; the
// serving chart's x ticks in one unit; a dense model's Hardware section not led by the MoE-only expert parallel; the
// English serving plan inside 1280x720 without scrolling sideways; the closed offer picker naming its offer whole.
// node test_fresh.mjs SITE_DIR OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import {check, api, settle, widgetRect, clickWidget, typeIntoField, idle, reuseBrowser, sections, shot as shotIn, swipe, tap, waitReady,
        scrollPos, panelEdgeGap, EDGE_GAP_CSS} from './harness.mjs';

reuseBrowser();  // one Chromium for every section, a new context each (harness.mjs)

const [siteDir, outDir] = [process.argv[2], process.argv[3]];
const {section, failed} = sections(siteDir, outDir, 'fresh');  // harness.mjs
const here = path.dirname(new URL(import.meta.url).pathname);
const scenario = page => api(page, () => JSON.parse(window.gpucost.scenario()));
const result = page => api(page, () => JSON.parse(window.gpucost.result()));
const drawn = (page, id) => api(page, i => window.gpucost.drawnText(i), id);
const preset = id => JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'assets', 'presets', `${id}.json`), 'utf8')).scenario;
const offers = JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'assets', 'offers.json'), 'utf8')).offers;  // the list's order

const PHONE_KO = {dpr: 3, width: 390, height: 844, touch: true, lang: 'ko', locale: 'ko-KR'};
const LAPTOP = {dpr: 1.5, width: 1280, height: 720};
const LAPTOP_KO = {...LAPTOP, lang: 'ko', locale: 'ko-KR'};
const WIDE = {dpr: 1, width: 1440, height: 900};

const shot = (page, name) => shotIn(page, outDir, name);

// Brings a widget of the editor into view: the wheel on a laptop, a vertical swipe on a phone.
async function reveal(page, id, index = -1, touch = false) {
  const panel = await widgetRect(page, 'editor');
  if (!touch) await settle(page, () => page.mouse.move(panel.x + panel.w / 2, panel.y + panel.h / 2));
  for (let i = 0; i < 60; i++) {
    const r = await widgetRect(page, id, index);
    if (r.y >= panel.y && r.y + r.h <= panel.y + panel.h) return r;
    const step = Math.max(60, Math.floor(Math.min(touch ? 300 : 600, panel.h / 2 - r.h)));
    const down = r.y >= panel.y;
    if (touch) {
      const x = panel.x + 20, mid = panel.y + panel.h / 2;
      await swipe(page, x, down ? mid + step / 2 : mid - step / 2, x, down ? mid - step / 2 : mid + step / 2, {steps: 12, ms: 30});
    } else {
      await settle(page, () => page.mouse.wheel(0, down ? step : -step), 'a wheel over the editor');
    }
  }
  throw new Error(`${id} never scrolled into view`);
}

// Opens the pricing section (the editor's fourth) and the offer list in it.
async function openOfferList(page, touch) {
  if (touch) await tap(page, 'tab_editor');
  const pricing = await reveal(page, 'section', 3, touch);
  if (touch) await page.touchscreen.tap(pricing.x + 40, pricing.y + pricing.h / 2);
  else await settle(page, () => page.mouse.click(pricing.x + 40, pricing.y + pricing.h / 2));
  await idle(page);
  await reveal(page, 'pricing.offer', -1, touch);
  if (touch) await tap(page, 'pricing.offer');
  else await clickWidget(page, 'pricing.offer');
  await widgetRect(page, 'offer', 0);
  await idle(page);
}

// Every row of the open offer list: its text starts inside its row (ImGui's Selectable widens its box by half the
// item spacing to the left, beyond the list's clip: text drawn at that box's edge lost its first glyph), ends inside
// it and inside the screen, and names the offer whole.
async function checkOfferRows(page, screenWidth, what) {
  const rows = (await drawn(page, 'offer_rows')).split('\n\n').filter(Boolean);
  check(rows.length === offers.length, `${what}: the list has a row for each of the ${offers.length} offers (${rows.length})`);
  const bad = [];
  for (let i = 0; i < offers.length; i++) {
    const row = await widgetRect(page, 'offer', i), text = await widgetRect(page, 'offer_text', i);
    if (text.x < row.x + 1 || text.x + text.w > row.x + row.w + 0.5 || text.x + text.w > screenWidth || row.x < 0)
      bad.push(`${offers[i].id}: text ${text.x.toFixed(1)}..${(text.x + text.w).toFixed(1)} in row ${row.x.toFixed(1)}..${(row.x + row.w).toFixed(1)}`);
  }
  check(bad.length === 0, `${what}: every row's text lies inside its row and the screen${bad.length ? ` (${bad.length} not: ${bad.slice(0, 3).join('; ')})` : ''}`);
  const joined = rows.map(r => r.replace(/\n/g, ' '));
  const missing = offers.filter((o, i) => !joined[i] || ![o.provider, o.product, o.region].every(p => joined[i].includes(p)));
  check(missing.length === 0, `${what}: each row names its provider, product and region whole${missing.length ? ` (not: ${missing.map(o => o.id).join(', ')})` : ''}`);
  return rows;
}

// --- 1. the offer list: readable rows on a phone (KRW: prices in won) and on a laptop --------------------------
await section('offer-rows-phone', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify({pricing: {currency: 'KRW'}})));
  await openOfferList(page, true);
  await shot(page, 'fresh-offer-rows-phone.png');
  const rows = await checkOfferRows(page, 390, 'phone');
  const samsung = offers.map((o, i) => [o, rows[i]]).filter(([o]) => o.provider === 'Samsung SDS');
  check(samsung.length === 2 && samsung[0][1] !== samsung[1][1] && samsung.some(([, r]) => r.includes('H100')) &&
        samsung.some(([, r]) => r.includes('A100')), 'the two Samsung SDS rows read apart (H100, A100)');
  // A KRW scenario: list prices in won at the scenario's rate (the core's OfferListPrice), the dollars beside them.
  const priced = offers.map((o, i) => [o, rows[i]]).filter(([o]) => !o.price_by_quote);
  const inWon = priced.filter(([, r]) => /₩[\d,]+\/GPU/.test(r) && r.includes('$'));
  check(inWon.length === priced.length, `a KRW scenario's list prices read in won, with the dollars (${inWon.length} of ${priced.length}: "${priced[0][1].split('\n').pop()}")`);
  const rate = (await scenario(page)).pricing.krw_per_usd;
  const p5 = priced.find(([o]) => o.id === 'aws-p5.48xlarge-us-east-1');
  const won = Math.round(p5[0].usd_per_gpu_hour * rate).toLocaleString('en-US');
  check(p5[1].includes(`₩${won}/`), `p5.48xlarge at $${p5[0].usd_per_gpu_hour} x ${rate} = ₩${won} (${p5[1].split('\n').pop()})`);
}, PHONE_KO);

await section('offer-rows-laptop', async page => {
  await openOfferList(page, false);
  await shot(page, 'fresh-offer-rows-laptop.png');
  const rows = await checkOfferRows(page, 1280, 'laptop');
  const p5 = offers.findIndex(o => o.id === 'aws-p5.48xlarge-us-east-1');
  check(rows[p5].includes('$6.88/GPU-h'), `a USD scenario's prices in dollars (${rows[p5].split('\n').pop()})`);
}, LAPTOP);

// --- 2. the status line: cut between characters; on a phone, a tap shows it whole ------------------------------
await section('status-phone', async page => {
  // A Korean message longer than the phone's two lines: a scenario with three problems.
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(
      {name: '아주 긴 이름의 시나리오', cluster: {gpus: -8, mfu: 7}, workload: {tokens: -1}, pricing: {usd_per_gpu_hour: -3}})));
  const full = await drawn(page, 'status_text');
  const shownCut = await drawn(page, 'status_shown');
  await shot(page, 'fresh-status-phone-cut.png');
  check(full.length > 60, `a long message in the status line (${full.length} characters)`);
  check(!shownCut.includes('\ufffd'), `the status line cuts between characters, never inside one ("${shownCut.replace('\n', ' | ')}")`);
  const start = shownCut.replace(/\.\.\.$/, '').replace('\n', ' ').replace(/ +/g, ' ');
  check(full.replace(/ +/g, ' ').startsWith(start.replace(/ $/, '')), 'what it shows is the message\'s start');
  await tap(page, 'status');
  const open = await drawn(page, 'status_shown');
  await shot(page, 'fresh-status-phone-open.png');
  check(open.replace(/\n/g, ' ').replace(/ +/g, ' ') === full.replace(/ +/g, ' '), `a tap on it shows the whole message ("${open.slice(0, 40)}...")`);
  await tap(page, 'status');
  check((await drawn(page, 'status_shown')).length < open.length, 'another tap folds it back');
}, PHONE_KO);

await section('status-laptop', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(
      {name: '아주 긴 이름의 시나리오', cluster: {gpus: -8, mfu: 7}, workload: {tokens: -1}, pricing: {usd_per_gpu_hour: -3}})));
  const full = await drawn(page, 'status_text');
  // The laptop's one line, narrowed by a long name: cut in the middle of the Korean text.
  const shownCut = await drawn(page, 'status_shown');
  await shot(page, 'fresh-status-laptop.png');
  check(shownCut !== full && shownCut.endsWith('...'), `the message is cut ("${shownCut}")`);
  check(!shownCut.includes('\ufffd'), 'between characters, never inside one');
}, {dpr: 1, width: 800, height: 800, lang: 'ko', locale: 'ko-KR'});

// --- 3. refused fields: the status line says so, with their names ----------------------------------------------
for (const [name, options, want] of [['refused-ko', LAPTOP_KO, /필드 2개/], ['refused-en', WIDE, /2 fields refused/]]) {
  await section(name, async page => {
    check(!(await drawn(page, 'status_shown')).match(want), 'nothing refused yet');
    await reveal(page, 'cluster.gpus');
    await typeIntoField(page, 'cluster.gpus', '-8');
    await reveal(page, 'workload.tokens');
    await typeIntoField(page, 'workload.tokens', '-1T');
    check(await api(page, () => window.gpucost.fieldMessage('cluster.gpus')) !== '', 'the GPU count is refused');
    check(await api(page, () => window.gpucost.fieldMessage('workload.tokens')) !== '', 'and the token count');
    const status = await drawn(page, 'status_shown');
    await shot(page, `fresh-${name}.png`);
    const labels = options.lang === 'ko' ? ['GPU 수', '학습 토큰 수'] : ['GPUs', 'Training tokens'];
    check(want.test(status) && labels.every(l => status.includes(l)), `the status line names both ("${status}")`);
    await typeIntoField(page, 'workload.tokens', '1T');
    await reveal(page, 'cluster.gpus');
    await typeIntoField(page, 'cluster.gpus', '64');
    check(!want.test(await drawn(page, 'status_shown')), `fixed, it no longer does ("${await drawn(page, 'status_shown')}")`);
  }, options);
}

// --- 4. the training Layouts table on a phone: sideways, the first column kept -----------------------------------
await section('plan-phone', async page => {
  // A model with its shape (the search needs the layers and widths), on 8 GPUs: a short search.
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(
      {workload: {model: 'llama-2-7b', tokens: 1e9}, cluster: {gpu: 'h100-sxm', gpus: 8}})));
  check(await api(page, () => window.gpucost.show('plan')), 'the Layouts view opens');
  await idle(page);
  await tap(page, 'plan_search');
  await page.waitForFunction(() => window.gpucost.widgetRect('plan_cost', 0) && window.gpucost.idle(), null, {timeout: 120000, polling: 200});
  await shot(page, 'fresh-plan-phone.png');
  const clipped = async () => (await api(page, () => window.gpucost.clippedWidgets())).filter(([id]) => id.startsWith('plan_'));
  const step0 = await widgetRect(page, 'plan_step', 0);
  const visible = r => r.x >= 0 && r.x + r.w <= 390;
  // Cells on the screen are never cut to slivers: a cell drawn cut is on the table's clipped edge only.
  const cut = (await clipped()).filter(([id, , x0, x1]) => x0 / 3 >= 0 && x1 / 3 <= 390 - 20);
  check(cut.length === 0, `no cell on the screen is cut (${JSON.stringify(cut.slice(0, 4))})`);
  // A thumb drags the table to the left at the height of its first row: the cost column comes into view, whole.
  const t = await widgetRect(page, 'plan_step', 0);
  for (let i = 0; i < 4 && !visible(await widgetRect(page, 'plan_cost', 0)); i++)
    await swipe(page, 360, t.y + t.h / 2, 60, t.y + t.h / 2, {steps: 12, ms: 30});
  const cost = await widgetRect(page, 'plan_cost', 0);
  await shot(page, 'fresh-plan-phone-swiped.png');
  check(visible(cost), `a sideways swipe brings the job cost on the screen (x ${cost.x.toFixed(0)}..${(cost.x + cost.w).toFixed(0)})`);
  check(!(await clipped()).some(([id, i]) => id === 'plan_cost' && i === 0), 'whole');
  const adopt = await widgetRect(page, 'plan_adopt', 0);
  check(visible(adopt), `the first column (Adopt) stays on the screen (x ${adopt.x.toFixed(0)})`);
  check(step0.w > 10, `the step time column is wider than a sliver (${step0.w.toFixed(1)} px)`);
}, PHONE_KO);

// --- 5. a latency target's "auto" unticked: starts met, at the plan's achieved value; keys go into it -------------
await section('latency-untick', async page => {
  const s = preset('llama2-70b-chat-h100');
  delete s.inference.slo.ttft_ms;
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(s)));
  const before = await result(page);
  const achieved = before.inference.ttft_ms[`p${s.inference.slo.percentile}`];
  check(achieved > 0, `without a TTFT target the plan achieves P${s.inference.slo.percentile} TTFT ${achieved} ms`);
  await reveal(page, 'inference.slo.ttft_ms');
  await clickWidget(page, 'inference.slo.ttft_ms');  // its "auto" box, ticked
  const target = (await scenario(page)).inference.slo.ttft_ms;
  const after = await result(page);
  await shot(page, 'fresh-latency-untick.png');
  check(target >= achieved && target <= achieved * 1.1 + 1, `auto off: the target starts at the achieved value rounded up (${target} ms for ${achieved})`);
  check(after.inference.slo_met, 'so the service still meets it');
  await settle(page, () => page.keyboard.type('1500'));
  await settle(page, () => page.keyboard.press('Enter'));
  check((await scenario(page)).inference.slo.ttft_ms === 1500, `keys typed right after the click go into the field (${(await scenario(page)).inference.slo.ttft_ms})`);
}, WIDE);

// --- 6. Sensitivity on a phone: "tap", and units on the bounds ---------------------------------------------------
await section('sens-phone', async page => {
  check(await api(page, () => window.gpucost.show('sensitivity')), 'the Sensitivity view opens');
  await page.waitForFunction(() => window.gpucost.drawnText('sens_note') !== '', null, {timeout: 60000});
  const note = await drawn(page, 'sens_note'), bounds = await drawn(page, 'sens_bounds');
  await shot(page, 'fresh-sens-phone.png');
  check(!note.includes('마우스') && note.includes('누르면'), `the note says tap on a touch screen ("${note.slice(0, 30)}...")`);
  check(/[A-Za-z가-힣%₩$]/.test(bounds), `the bounds carry their unit ("${bounds}")`);
  await tap(page, 'sens_input', 0);
  const source = await api(page, () => window.gpucost.widgetRect('sens_source'));
  await shot(page, 'fresh-sens-phone-tapped.png');
  check(source && source.y > 0 && source.y + source.h <= 844, 'a tap on an input shows where its bounds come from, under the table');
}, PHONE_KO);

// --- 7. preset titles inside a phone's width -----------------------------------------------------------------------
await section('presets-phone', async page => {
  await tap(page, 'presets');
  await widgetRect(page, 'preset', 0);
  await idle(page);
  await shot(page, 'fresh-presets-phone.png');
  const out = [];
  for (let i = 0; ; i++) {
    const r = await api(page, n => window.gpucost.widgetRect('preset', n), i);
    if (!r) break;
    if (r.x < 0 || r.x + r.w > 390) out.push(`${i}: ${r.x.toFixed(0)}..${(r.x + r.w).toFixed(0)}`);
  }
  check(out.length === 0, `every preset row lies inside the 390 px screen${out.length ? ` (not: ${out.join(', ')})` : ''}`);
  const cut = [];
  for (let i = 0; ; i++) {
    const [row, text] = await api(page, n => [window.gpucost.widgetRect('preset', n), window.gpucost.widgetRect('preset_text', n)], i);
    if (!row) break;
    if (!text || text.x < row.x + 1 || text.x + text.w > row.x + row.w) cut.push(i);
  }
  check(cut.length === 0, `and every title is drawn inside its row (wrapped)${cut.length ? ` (not: ${cut.join(', ')})` : ''}`);
}, PHONE_KO);

// --- 8. a share link of pinned serving options: the reopened comparison names where its prices came from ---------
await section('share-serving-options', async page => {
  await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(preset('llama2-70b-chat-h100'))));
  check(await api(page, () => window.gpucost.show('compare')), 'the Compare view opens');
  await clickWidget(page, 'serving_options');
  const pinned = () => page.waitForFunction(() => {
    const d = window.gpucost.view('compare');
    return d !== '' && JSON.parse(d).scenarios.length === 3 ? d : false;
  }, null, {timeout: 60000, polling: 50}).then(h => h.jsonValue()).then(JSON.parse);
  const before = await pinned();
  check(before.price_source && before.scenarios.every(c => c.price_source), `pinned: the comparison names its prices' source ("${before.price_source}")`);
  const link = await api(page, () => window.gpucost.link());
  await page.goto('about:blank');
  await page.goto(link);
  await waitReady(page);
  check(await api(page, () => window.gpucost.error()) === '', 'the link opens without an error');
  check(await api(page, () => window.gpucost.show('compare')), 'its Compare view opens');
  const after = await pinned();
  await shot(page, 'fresh-share-serving-options.png');
  check(JSON.stringify(after.scenarios.map(c => c.serving)) === JSON.stringify(before.scenarios.map(c => c.serving)), 'the reopened columns have the same numbers');
  check(after.price_source === before.price_source, `the reopened comparison names the same source ("${after.price_source}")`);
  const lost = after.scenarios.filter((c, i) => c.price_source !== before.scenarios[i].price_source).map(c => c.label);
  check(lost.length === 0, `and each column where its prices came from, as before sharing${lost.length ? ` (not: ${lost.join(', ')})` : ''}`);
  check(JSON.stringify(after) === JSON.stringify(before), 'the whole comparison document is the one before sharing');
}, WIDE);

// --- 9. the serving chart's x axis: every tick in one unit ("0 ms ... 200 ms", never "0 s" beside "50 ms") ---------
for (const [name, options] of [['chart-ticks-en', WIDE], ['chart-ticks-ko', LAPTOP_KO]]) {
  await section(name, async page => {
    await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(preset('llama2-70b-chat-h100'))));
    await settle(page, () => api(page, () => window.gpucost.show('result')));
    await page.waitForFunction(() => window.gpucost.drawnText('inference_frontier_ticks') !== '', null, {timeout: 60000});
    const ticks = (await drawn(page, 'inference_frontier_ticks')).split('|');
    const units = new Set(ticks.map(t => t.replace(/^-?[\d.,]+\s*/, '')));
    await shot(page, `fresh-${name}.png`);
    check(ticks.length >= 3, `the chart has ${ticks.length} x ticks (${ticks.join(', ')})`);
    check(units.size === 1, `all in one unit (${[...units].join(', ')})`);
  }, options);
}

// --- 10. a dense model's Hardware section starts with the hardware, the MoE-only expert parallel after the layout ---
await section('moe-field-order', async page => {
  const gpu = await reveal(page, 'cluster.gpu');
  const rows = {};
  for (const id of ['cluster.gpu', 'cluster.gpus', 'parallel.tensor_parallel', 'parallel.pipeline_parallel', 'parallel.expert_parallel'])
    rows[id] = await widgetRect(page, id);
  await shot(page, 'fresh-moe-field-order.png');
  check(rows['parallel.expert_parallel'].y > gpu.y, `expert parallel is not the section's first field (y ${rows['parallel.expert_parallel'].y.toFixed(0)} vs GPU ${gpu.y.toFixed(0)})`);
  const first = ['cluster.gpus', 'parallel.tensor_parallel', 'parallel.pipeline_parallel'].filter(id => rows[id].y > rows['parallel.expert_parallel'].y);
  check(first.length === 0, `it comes after the general layout fields${first.length ? ` (not after: ${first.join(', ')})` : ''}`);
  // A value set in it stays (a MoE model's expert parallel, shown where it now is).
  check(await api(page, t => window.gpucost.load(t), JSON.stringify({workload: {model: 'mixtral-8x7b'}, parallel: {expert_parallel: 2}})) === '',
        'a MoE model with expert parallel 2 loads');
  await idle(page);
  await reveal(page, 'parallel.expert_parallel');
  check((await scenario(page)).parallel.expert_parallel === 2, 'a value set there is kept');
}, LAPTOP_KO);

// --- 11. the English serving plan's cheapest configurations inside 1280x720 (150% and 100%): no sideways scroll -----
const MOE_SERVICE = {workload: {kind: 'inference', model: 'deepseek-v3'}, cluster: {gpu: 'h200-sxm', gpus: 8},
                     parallel: {tensor_parallel: 8}, inference: {attention: 'data', moe_split: 'expert', weight_precision: 'fp8'}};
for (const dpr of [1.5, 1]) {
  await section(`serving-plan-en@${dpr}`, async page => {
    await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify(MOE_SERVICE)));
    await settle(page, () => api(page, () => window.gpucost.show('plan')));
    await page.waitForFunction(() => !window.gpucost.busy() && window.gpucost.scrollPos('serving_plan_best'), null, {timeout: 120000, polling: 100});
    await idle(page, 'the page after the serving plan');
    const best = await scrollPos(page, 'serving_plan_best');
    await shot(page, `fresh-serving-plan-en@${dpr}.png`);
    check(best.maxX < 0.5, `en 1280x720@${dpr}: the cheapest configurations fit without scrolling sideways (${best.maxX.toFixed(1)} px to scroll)`);
    const edge = await panelEdgeGap(page);
    check(edge >= EDGE_GAP_CSS, `and end ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
  }, {...LAPTOP, dpr});
}

// --- 12. the closed offer picker on a phone names its offer whole: the two Samsung SDS offers read apart ----------
for (const [name, options] of [['offer-closed-phone-ko', PHONE_KO], ['offer-closed-phone-en', {...PHONE_KO, lang: 'en', locale: 'en-US'}]]) {
  await section(name, async page => {
    const previews = [];
    for (const id of ['samsung-sds-scp-gpu-server-h100', 'samsung-sds-scp-gpu-server-a100']) {
      await settle(page, () => api(page, t => window.gpucost.load(t), JSON.stringify({pricing: {offer: id}})));
      if (!previews.length) {
        await tap(page, 'tab_editor');
        const pricing = await reveal(page, 'section', 3, true);
        await page.touchscreen.tap(pricing.x + 40, pricing.y + pricing.h / 2);
        await idle(page);
      }
      const combo = await reveal(page, 'pricing.offer', -1, true);
      await idle(page);
      const text = await widgetRect(page, 'offer_preview'), preview = await drawn(page, 'offer_preview');
      await shot(page, `fresh-${name}-${previews.length}.png`);
      const offer = offers.find(o => o.id === id);
      // Its arrow, a square as tall as one line's box, takes the right end (over 12 px at every size here).
      check(text.x >= combo.x && text.x + text.w <= combo.x + combo.w - 12 && text.y + text.h <= combo.y + combo.h + 0.5 && text.x + text.w <= 390,
            `${id}: the closed picker's text lies inside it, left of its arrow (text ${text.x.toFixed(0)}..${(text.x + text.w).toFixed(0)} x ${text.h.toFixed(0)}, picker ${combo.x.toFixed(0)}..${(combo.x + combo.w).toFixed(0)} x ${combo.h.toFixed(0)})`);
      check(preview.includes(offer.product), `and names it whole ("${preview.replace(/\n/g, ' ')}")`);
      previews.push(preview);
    }
    check(previews[0] !== previews[1] && previews[0].includes('H100') && previews[1].includes('A100'), 'the two Samsung SDS offers read apart when closed');
  }, options);
}

if (failed()) console.error(`${failed()} section(s) failed`);
process.exit(failed() ? 1 : 0);
