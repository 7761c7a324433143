// Browser test of money in the scenario's currency (issue 16): in a KRW scenario the money fields show and take
// won (₩5,000, 300만 원, 1.2 typed as a person types them), labelled with the dated rate; the cost equals the
// CLI's for the same typed text (gpucost eval --set); a value out of range is refused with its message; a
// price-by-quote offer leaves the scenario unpriced until the quoted price is typed.
// node test_money.mjs SITE_DIR OUT_DIR NATIVE_GPUCOST
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import {withPage, waitReady, check, api, settle, widgetRect, clickWidget} from './harness.mjs';

const [siteDir, outDir, nativeCli] = [process.argv[2], process.argv[3], process.argv[4]];
const RATE = 1439;
const SCENARIO = {name: 'KRW owned', pricing: {currency: 'KRW', krw_per_usd: RATE, model: 'owned'}};
const SECTION = {pricing: 3, storage: 4, ownership: 5};  // web/ui_scenario.cpp kSections
const TYPED = [  // [field, section, text as typed, stored USD]
  ['pricing.owned.usd_per_kwh', 'ownership', '₩5,000', 5000 / RATE],
  ['pricing.owned.capex_usd_per_gpu', 'ownership', '300만 원', 3e6 / RATE],
  ['storage.usd_per_gb_month', 'storage', '1.2', 1.2 / RATE],
];

const scenario = async page => JSON.parse(await api(page, () => window.gpucost.scenario()));
const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o || {})[k], obj);
function cliCost(sets) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-money-')), 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(SCENARIO));
  const out = execFileSync(nativeCli, ['eval', file, '--format', 'json', '--set', sets], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']});
  return JSON.parse(out).cost.expected_usd;
}
// Brings a widget into view by wheeling the editor, as a person scrolls to it: well inside it, below the page's
// header and the line under it that says the last conversion (at 1280x720 the editor's content starts near
// y = 55: a field at y = 46 is drawn under that line and a click there misses it).
async function reveal(page, id, index = -1) {
  const height = page.viewportSize().height;
  const top = 90;
  for (let i = 0; i < 60; i++) {
    const r = await widgetRect(page, id, index);
    if (r.y >= top && r.y + r.h <= height - 40) return r;
    const editor = await widgetRect(page, 'reset');
    await page.mouse.move(editor.x + 20, height / 2);
    await settle(page, () => page.mouse.wheel(0, r.y < top ? -120 : 120), 'a wheel over the editor');
  }
  throw new Error(`could not scroll ${id} into view`);
}
// Opens an editor section by its header and waits for one of its fields (a click can land while the layout
// moves on a loaded machine: then it is clicked again).
async function openSection(page, name, field) {
  for (let i = 0; i < 3; i++) {
    await reveal(page, 'section', SECTION[name]);
    await clickWidget(page, 'section', SECTION[name]);
    const shown = await page.waitForFunction(f => window.gpucost.widgetRect(f, -1), field, {timeout: 5000}).then(() => true, () => false);
    if (shown) return;
  }
  throw new Error(`section ${name} did not open`);
}
async function typeMoney(page, field, text) {
  await reveal(page, field);
  await clickWidget(page, field);
  await settle(page, () => page.keyboard.press('Control+A'));
  await settle(page, () => page.keyboard.type(text));
  // Keys typed in one go reach ImGui over the next frames: wait for the text to settle, then Enter.
  await page.waitForTimeout(300);
  await settle(page, () => page.keyboard.press('Enter'));
}
async function shot(page, name) {
  await page.waitForTimeout(150);
  await page.screenshot({path: path.join(outDir, name)});
  check(true, `screenshot saved: ${path.join(outDir, name)}`);
}

for (const [width, height, dpr] of [[1280, 720, 1], [390, 844, 2]]) {
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url);
    await waitReady(page);
    check(await api(page, t => window.gpucost.load(t), JSON.stringify(SCENARIO)) === '', `${width}px: the KRW owned scenario loads`);
    if (width < 600) await clickWidget(page, 'tab_editor');  // a phone: the editor is behind its tab
    await openSection(page, 'storage', 'storage.usd_per_gb_month');
    await openSection(page, 'ownership', 'pricing.owned.usd_per_kwh');
    for (const [field, , text, usd] of TYPED) {
      await typeMoney(page, field, text);
      const stored = get(await scenario(page), field);
      check(Math.abs(stored - usd) <= 1e-9 * usd, `typing "${text}" into ${field} stores ${usd} USD (${stored})`);
    }
    const label = await api(page, p => window.gpucost.drawnText(p), 'pricing.owned.usd_per_kwh');
    check(label === '= $3.47464/kWh at ₩1,439/$ (2025-12-30)', `the field is labelled with its dated conversion: ${label}`);
    const notice = await api(page, () => window.gpucost.notice());
    check(notice === '₩1.2/GB-month = $0.000833912/GB-month at ₩1,439/$ (2025-12-30)', `the last typed conversion is said in full: ${notice}`);
    if (width === 1280) {
      // The page and the CLI give the same cost for the same typed text.
      const page_usd = JSON.parse(await api(page, () => window.gpucost.result())).cost.expected_usd;
      const cli_usd = cliCost(TYPED.map(([f, , t]) => `${f}=${t}`).join('; '));
      check(Math.abs(page_usd - cli_usd) <= 1e-9 * cli_usd, `page = CLI (gpucost eval --set) for the typed won: ${page_usd} vs ${cli_usd} USD`);
      // Out of range in won: refused with the range in won, the last good value kept.
      await typeMoney(page, 'pricing.owned.usd_per_kwh', '₩20,000');
      const kept = get(await scenario(page), 'pricing.owned.usd_per_kwh');
      check(Math.abs(kept - 5000 / RATE) < 1e-12, 'an out-of-range ₩20,000/kWh is not applied; ₩5,000 stays');
      const message = await api(page, p => window.gpucost.fieldMessage(p), 'pricing.owned.usd_per_kwh');
      check(message.includes('"₩20,000" is not allowed') && message.includes('<= 14,390 KRW/kWh'),
            `the message quotes the text as typed (₩ after Enter included) and names the range in won: ${message}`);
      await shot(page, 'money-krw-fields.png');
      await typeMoney(page, 'pricing.owned.usd_per_kwh', '₩5,000');
    } else {
      await reveal(page, 'pricing.owned.usd_per_kwh');
      await shot(page, 'money-krw-fields-phone.png');
    }
  }, {locale: 'en-US', width, height, dpr});
}

// A price-by-quote offer: picked, the scenario is not priced; the quote typed prices it.
await withPage(siteDir, outDir, async (page, url) => {
  await page.goto(url);
  await waitReady(page);
  const offers = JSON.parse(execFileSync(nativeCli, ['catalog', 'offers', '--format', 'json'], {encoding: 'utf8'}));
  const kt = offers.findIndex(o => o.id === 'kt-cloud-ai-nexus-h200');
  check(kt >= 0 && offers[kt].price_by_quote, 'the catalog has KT Cloud\'s H200 as a price-by-quote offer');
  await api(page, t => window.gpucost.load(t), JSON.stringify({pricing: {currency: 'KRW', krw_per_usd: RATE},
                                                              provider: {encryption: 'answered for another provider'}}));
  await openSection(page, 'pricing', 'pricing.offer');
  await reveal(page, 'pricing.offer');
  await clickWidget(page, 'pricing.offer');
  // The open list shows about eight offers: wheel over it (at its first item) until KT's is among them.
  const first = await widgetRect(page, 'offer', 0);
  for (let i = 0; i < 40; i++) {
    const r = await widgetRect(page, 'offer', kt);
    if (r.y >= first.y && r.y + r.h <= first.y + 7 * first.h) break;
    await page.mouse.move(first.x + 20, first.y + first.h / 2);
    await settle(page, () => page.mouse.wheel(0, 60), 'a wheel over the offer list');
  }
  await clickWidget(page, 'offer', kt);
  let s = await scenario(page);
  if (s.pricing.offer !== 'kt-cloud-ai-nexus-h200') await shot(page, 'money-quote-debug.png');
  check(s.pricing.offer === 'kt-cloud-ai-nexus-h200' && s.cluster.gpu === 'h200-sxm', 'picking the offer sets the GPU and records it');
  let result = JSON.parse(await api(page, () => window.gpucost.result()));
  check(result.blocking && result.blocking.code === 'price_by_quote', 'the scenario is not priced: blocking price_by_quote');
  const picked = await api(page, () => window.gpucost.notice());
  check(picked.startsWith('Offer KT Cloud GPU (AI Nexus) H200 141GB container sessions: price by quote') &&
        picked.includes('1 earlier answers were replaced or cleared'),
        `the notice asks for the quoted price and says the sheet's earlier answer was cleared: ${picked}`);
  check(!s.provider || !s.provider.encryption, 'the other provider\'s answer is not kept as this offer\'s');
  check(s.provider && s.provider.tenancy && s.provider.tenancy.startsWith('Docker container sessions'), 'the offer\'s facts fill the sheet');
  await shot(page, 'money-quote-asked.png');
  await reveal(page, 'quote');
  await clickWidget(page, 'quote');
  await settle(page, () => page.keyboard.type('₩9,500'));
  await page.waitForTimeout(300);
  await settle(page, () => page.keyboard.press('Enter'));
  s = await scenario(page);
  check(s.pricing.krw_per_gpu_hour === 9500, `the typed quote ₩9,500 is the price per GPU-hour in won (${s.pricing.krw_per_gpu_hour})`);
  result = JSON.parse(await api(page, () => window.gpucost.result()));
  check(!result.blocking, 'with the quote the scenario is priced');
  check(Math.abs(result.cost.usd_per_gpu_hour - 9500 / RATE) < 1e-9, 'at 9,500 / 1,439 USD per GPU-hour');
  await shot(page, 'money-quote-priced.png');
}, {locale: 'en-US', width: 1280, height: 720});
// Issue 45: the pricing model switched in the editor is exactly `gpucost pricing`'s row for it (the price re-derived
// with the function the pins use, said in the status line), in Korean and English, on a desktop and a phone.
const SWITCHED = {name: 'KRW spot switch', cluster: {gpu: 'h100-sxm', gpus: 64}, workload: {params: 7e9, tokens: 1e11},
                  pricing: {currency: 'KRW', krw_per_usd: RATE, tax_rate: 0.1, krw_per_gpu_hour: 4303}};
function cliRow(model) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-switch-')), 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(SWITCHED));
  const out = execFileSync(nativeCli, ['pricing', file, '--format', 'json'], {encoding: 'utf8'});
  return JSON.parse(out).models.find(m => m.model === model);
}
for (const [width, height, dpr, locale] of [[1280, 720, 1.5, 'en-US'], [390, 844, 2, 'ko-KR']]) {
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url);
    await waitReady(page);
    check(await api(page, t => window.gpucost.load(t), JSON.stringify(SWITCHED)) === '', `${width}px: the KRW on-demand job loads`);
    if (width < 600) await clickWidget(page, 'tab_editor');
    await openSection(page, 'pricing', 'pricing.model');
    await reveal(page, 'pricing.model');
    await clickWidget(page, 'pricing.model');         // the combo opens on on_demand
    await settle(page, () => page.keyboard.press('ArrowDown'));  // spot, as a person picks the next choice
    // Dear ImGui 1.86 activates a highlighted choice with Space (Enter is its text-input key, and leaves the list open).
    await settle(page, () => page.keyboard.press('Space'));
    const s = await scenario(page);
    check(s.pricing.model === 'spot', `${width}px: the editor switched the pricing model to spot (${s.pricing.model})`);
    check(Math.abs(s.pricing.krw_per_gpu_hour - 4303 * 0.6) < 1e-9, `${width}px: the price is re-derived in won: ₩4,303 x 0.6 (${s.pricing.krw_per_gpu_hour})`);
    const row = cliRow('spot');
    const page_usd = JSON.parse(await api(page, () => window.gpucost.result())).cost.expected_usd;
    check(page_usd === row.total_usd, `${width}px: the page's spot job = gpucost pricing's spot row, bit for bit: ${page_usd} vs ${row.total_usd}`);
    const notice = await api(page, () => window.gpucost.notice());
    check(notice.startsWith('Pricing model on-demand → spot') && notice.includes('₩2,582'),
          `${width}px: the status line says the price was re-derived: ${notice}`);
    await shot(page, width < 600 ? 'money-switch-phone-ko.png' : 'money-switch-desktop.png');
    // The money breakdown's title gives the total as the headline above it does ("1,119만 8,513 원" beside
    // "1,120만 원" before, 2026-12-07's walk-through): one amount, written one way, in one view.
    if (width < 600) await clickWidget(page, 'tab', 0);  // a phone: the results are the first tab
    await page.waitForFunction(() => window.gpucost.drawnText('shown_view') === 'Results' &&
                                     window.gpucost.drawnText('where_money') !== '', null, {timeout: 30000});
    const headline = await api(page, () => window.gpucost.drawnText('headline'));
    const where = await api(page, () => window.gpucost.drawnText('where_money'));
    const total = where.slice(where.lastIndexOf(': ') + 2);
    check(total.length > 1 && headline.includes(total), `${width}px: the breakdown's total "${total}" is the headline's (${headline})`);
    // The Sensitivity view's bounds of a price read as money in the scenario's won ("2.2425 USD/GPU시간" before).
    check(await api(page, () => window.gpucost.show('sensitivity')), `${width}px: the Sensitivity view opens`);
    await page.waitForFunction(() => window.gpucost.drawnText('sens_money_bounds') !== '', null, {timeout: 60000});
    const bounds = await api(page, () => window.gpucost.drawnText('sens_money_bounds'));
    check(/^₩[0-9,.]+\/\S+ \/ ₩[0-9,.]+\/\S+\*?$/.test(bounds), `${width}px: a money input's bounds read as won per unit, as the CLI writes them: ${bounds}`);
  }, {locale, width, height, dpr});
}
console.log('test_money: all checks passed');
