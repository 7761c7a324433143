// Browser test of the Korean page: it opens in Korean for a Korean browser, draws every Korean string (glyph
// coverage of the font atlas), shows KRW in 억/만 with the VAT lines (the same text as the CLI), switches
// language without losing the scenario, takes Hangul through IME composition events, exports a CSV with a
// UTF-8 BOM; bundle sizes (English, Korean) and first-frame times are reported.
// node test_korean.mjs SITE_DIR OUT_DIR NATIVE_GPUCOST
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {execFileSync} from 'node:child_process';
import {withPage, waitReady, waitFirstFrame, check, panelEdgeGap, EDGE_GAP_CSS} from './harness.mjs';

const [siteDir, outDir, nativeCli] = [process.argv[2], process.argv[3], process.argv[4]];
const MAX_KOREAN_EXTRA_GZIP = 120e3;  // what Korean adds before its first frame (issue 27), measured as fetched

const api = (page, expr, ...args) => page.evaluate(expr, ...args);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');  // the repository
const gz = file => zlib.gzipSync(fs.readFileSync(path.join(siteDir, file)), {level: 9}).length;

async function settle(page, action) {
  const before = await api(page, () => window.gpucost.frames());
  await action();
  await page.waitForFunction(f => window.gpucost.frames() >= f + 3, before, {timeout: 30000, polling: 50});
}
async function click(page, id, index = -1) {
  await page.waitForFunction(([i, n]) => window.gpucost.widgetRect(i, n), [id, index], {timeout: 30000});
  const r = await api(page, ([i, n]) => window.gpucost.widgetRect(i, n), [id, index]);
  await settle(page, () => page.mouse.move(r.x + r.w / 2, r.y + r.h / 2));
  await settle(page, () => page.mouse.click(r.x + r.w / 2, r.y + r.h / 2));
}
// Opens the page, waits for its first frame to be on screen (GPU done) and reports when that was. Returns the
// first load as the page's own resource timing gives it: the page and every file asked for before the first
// frame was issued (as browser_app measures English).
async function openAndReportFirstFrame(page, url, language) {
  await page.goto(url);
  await waitReady(page);
  await page.waitForFunction(() => window.gpucost.firstFrameMs()[1] >= 0, null, {timeout: 30000});
  const ms = await api(page, () => window.gpucost.firstFrameMs());
  console.log(`# first frame, ${language}: ${ms[1]} ms`);
  return api(page, issued => ['index.html'].concat(performance.getEntriesByType('resource')
    .filter(e => e.startTime < issued).map(e => new URL(e.name).pathname.replace(/^\//, ''))), ms[0]);
}
// Every file the page fetched so far, once what loads after the first frame has arrived: none twice.
async function fetchedOnce(page, language) {
  await page.waitForFunction(() => window.gpucost.loaded().then(() => true), null, {timeout: 60000});
  await page.waitForTimeout(300);
  const all = await api(page, () => performance.getEntriesByType('resource').map(e => new URL(e.name).pathname));
  const twice = [...new Set(all.filter((f, i) => all.indexOf(f) !== i))];
  check(twice.length === 0, `${language}: no file fetched twice (${all.length} fetches${twice.length ? '; twice: ' + twice.join(', ') : ''})`);
}
const firstLoads = {};
async function shot(page, name) {
  await page.waitForTimeout(150);
  await page.screenshot({path: path.join(outDir, name)});
  check(true, `screenshot saved: ${path.join(outDir, name)}`);
}
function cli(scenario, ...args) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-ko-')), 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  return execFileSync(nativeCli, ['eval', file, ...args], {encoding: 'utf8', env: {...process.env, LC_ALL: 'C.UTF-8'}});
}

// A Korean pretraining run priced in KRW with 10% VAT: over 1억 원, so the page writes 억/만.
const KRW_SCENARIO = {
  name: '7B 사전학습 2T 토큰, H100 256장',
  workload: {params: 7e9, tokens: 2e12}, cluster: {gpu: 'h100-sxm', gpus: 256},
  pricing: {currency: 'KRW', krw_per_usd: 1400, tax_rate: 0.1},
};

// --- sizes -------------------------------------------------------------------------------------------------
const english = ['index.html', 'app.js', 'app.wasm'].reduce((n, f) => n + gz(f), 0);
const koUi = gz('fonts/ko-ui.ttf'), koMin = gz('fonts/ko-min.ttf'), koTyping = gz('fonts/ko-typing.ttf');
const koStrings = gz('i18n/ko.json'), koExtra = koUi + koStrings;  // both fetched before a Korean first frame
console.log(`# bundle gzip: English first load ${(english / 1e3).toFixed(1)} KB (no font); Korean first load adds ` +
            `ko-ui.ttf ${(koUi / 1e3).toFixed(1)} KB + i18n/ko.json ${(koStrings / 1e3).toFixed(1)} KB = ` +
            `${((english + koExtra) / 1e3).toFixed(1)} KB; later: ko-min.ttf ` +
            `${(koMin / 1e3).toFixed(1)} KB (English, after its first frame), ko-typing.ttf ${(koTyping / 1e3).toFixed(1)} KB (first Hangul typed)`);
check(fs.existsSync(path.join(siteDir, 'fonts/NOTICE.txt')) &&
      fs.readFileSync(path.join(siteDir, 'fonts/NOTICE.txt'), 'utf8').includes('SIL Open Font License'),
      'the font licence notice ships with the fonts');

// --- English browser: no font before the first frame ----------------------------------------------------------
await withPage(siteDir, outDir, async (page, url) => {
  const fonts = [];
  page.on('request', r => { if (r.url().includes('/fonts/')) fonts.push({url: r.url()}); });
  firstLoads.en = await openAndReportFirstFrame(page, url, 'English');
  check(await api(page, () => window.gpucost.lang()) === 'en', 'an English browser gets the English page');
  await fetchedOnce(page, 'English');
  check(!fonts.some(f => /ko-ui|ko-typing/.test(f.url)), 'the English page fetches no Korean UI font');
  await page.waitForFunction(() => window.gpucost.fonts().includes('ko-min.ttf'), null, {timeout: 30000});
  check(true, 'after its first frame the English page fetches ko-min.ttf (the 한국어 switch, ₩)');
  check((await api(page, () => window.gpucost.missingGlyphs())).length === 0, 'every English string and ₩ can be drawn');
}, {locale: 'en-US'});

// --- Korean browser ------------------------------------------------------------------------------------------
await withPage(siteDir, outDir, async (page, url) => {
  firstLoads.ko = await openAndReportFirstFrame(page, url, 'Korean');
  check(await api(page, () => window.gpucost.lang()) === 'ko', 'a Korean browser (ko-KR) gets the Korean page');
  // The Korean first load, measured: no deferred code before the first frame, at most 120 KB more than English.
  const sum = files => [...new Set(files)].reduce((n, f) => n + gz(f), 0);
  const extra = sum(firstLoads.ko) - sum(firstLoads.en);
  console.log(`# first load as fetched (gzip): English ${(sum(firstLoads.en) / 1e3).toFixed(1)} KB [${firstLoads.en.join(', ')}], ` +
              `Korean ${(sum(firstLoads.ko) / 1e3).toFixed(1)} KB [${firstLoads.ko.join(', ')}]`);
  check(!firstLoads.ko.includes('app.deferred.wasm'), 'the Korean first frame fetches no deferred code' +
        (firstLoads.ko.includes('app.deferred.wasm') ? ' (refresh web/first_frame_funcs.txt: scripts/profile_first_frame.sh)' : ''));
  check(extra <= MAX_KOREAN_EXTRA_GZIP, `Korean adds ${(extra / 1e3).toFixed(1)} KB gzip before its first frame (<= 120 KB)`);
  await fetchedOnce(page, 'Korean');
  check((await api(page, () => window.gpucost.fonts())).includes('ko-ui.ttf'), 'the Korean UI font is in the atlas at the first frame');
  const missing = await api(page, () => window.gpucost.missingGlyphs());
  check(missing.length === 0, `every Korean string can be drawn (missing: ${missing.map(c => String.fromCodePoint(c)).join('')})`);

  // The status line renders codes in Korean (issue 27): a cut link, a scenario with an error, a probe-less notice.
  await api(page, () => { location.hash = '#s=2.100.abc'; });
  await page.waitForFunction(() => window.gpucost.drawnText('status_text').includes('100'), null, {timeout: 30000});
  const badLink = await api(page, () => window.gpucost.drawnText('status_text'));
  check(badLink.includes('링크가 불완전합니다') && !/incomplete|cut when/.test(badLink), `a cut link is said in Korean: "${badLink}"`);
  check((await api(page, () => window.gpucost.error())).startsWith('Bad link: incomplete link'), 'window.gpucost.error() keeps the English text');
  await api(page, () => window.gpucost.load(JSON.stringify({workload: {experts: 8}})));
  await page.waitForFunction(() => window.gpucost.drawnText('status_text').includes('workload.active_experts'), null, {timeout: 30000});
  const moe = await api(page, () => window.gpucost.drawnText('status_text'));
  check(moe.includes('문제가 1개') && moe.includes('workload.experts와 함께 필요합니다') && !/needed with/.test(moe),
        `a scenario with an error is refused in Korean, its first problem too: "${moe.slice(0, 90)}..."`);

  // A probe report uploaded (the real H200 run, assets/probes): the measured peak over the healthy reference gives back
  // about the datasheet's 989.4 TFLOP/s, and the notice says what it divided by, in Korean; a broken report is
  // refused in Korean and the scenario kept.
  await api(page, () => window.gpucost.load(JSON.stringify({cluster: {gpu: 'h200-sxm', gpus: 64}})));
  const report = fs.readFileSync(path.join(root, 'assets/probes/2026-12-04-device-h200.json'), 'utf8');
  await page.setInputFiles('#file-input', {name: 'h200.json', mimeType: 'application/json', buffer: Buffer.from(report)});
  await page.waitForFunction(() => window.gpucost.drawnText('status_text').includes('0.684'), null, {timeout: 30000});
  const applied = await api(page, () => window.gpucost.drawnText('status_text'));
  check(applied.includes('프로브 적용') && applied.includes('정상 h200-sxm의 지속 bf16 비율') && !/healthy|sustained/.test(applied),
        `a probe report's import is said in Korean: "${applied.slice(0, 100)}..."`);
  const peak = await api(page, () => JSON.parse(window.gpucost.scenario()).cluster.peak_tflops);
  check(Math.abs(peak / 989.4 - 1) < 0.03, `the healthy H200's measured peak imports to about its datasheet (${peak.toFixed(1)} of 989.4 TFLOP/s)`);
  const broken = report.replace(/"median": 664\.[0-9]+/, '"median": -1');
  await page.setInputFiles('#file-input', {name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(broken)});
  await page.waitForFunction(() => window.gpucost.drawnText('status_text').includes('broken.json'), null, {timeout: 30000});
  const refused = await api(page, () => window.gpucost.drawnText('status_text'));
  check(refused.includes('프로브 보고서') && !/must be|got/.test(refused), `a broken probe report is refused in Korean: "${refused}"`);
  check(await api(page, () => JSON.parse(window.gpucost.scenario()).cluster.peak_tflops) === peak, 'the scenario is kept');

  // KRW in 억/만 and the VAT lines, the same text as the CLI in Korean.
  check(await api(page, t => window.gpucost.load(t), JSON.stringify(KRW_SCENARIO)) === '', 'the KRW scenario loads');
  await page.waitForFunction(() => window.gpucost.drawnText('vat_lines') !== '', null, {timeout: 30000});
  const headline = await api(page, () => window.gpucost.drawnText('headline'));
  const vat = await api(page, () => window.gpucost.drawnText('vat_lines'));
  const ko = cli(KRW_SCENARIO, '--lang', 'ko');
  const total = ko.split('\n').find(l => l.startsWith('완료된 작업당 비용')).trim().split(/\s{2,}/).pop();
  check(/^\d[\d,]*억( [\d,]+만)? 원$/.test(total), `the CLI writes the total in 억/만 (${total})`);
  check(headline === `완료된 작업당 ${total} (부가세 포함)`, `the page's headline has the CLI's figure and says VAT is included: ${headline}`);
  for (const label of ['공급가액', '부가세 (10.0%)', '합계']) {
    const cliLine = ko.split('\n').find(l => l.trim().startsWith(label));
    const figure = cliLine.trim().split(/\s{2,}/).pop();
    check(vat.includes(`${label} ${figure}`), `page and CLI agree on ${label}: ${figure}`);
  }
  await shot(page, 'korean-results.png');

  // The language switch keeps the scenario (and the link: the language is not part of it).
  const before = await api(page, () => [window.gpucost.scenario(), window.gpucost.link()]);
  await click(page, 'language');
  check(await api(page, () => window.gpucost.lang()) === 'en', 'the switch turns the page English');
  const after = await api(page, () => [window.gpucost.scenario(), window.gpucost.link()]);
  check(after[0] === before[0] && after[1] === before[1], 'switching language keeps the scenario and its link');
  check((await api(page, () => window.gpucost.drawnText('headline'))).includes('(VAT included)'), 'the English headline says VAT included');
  check(await api(page, () => localStorage.getItem('gpucost.lang')) === 'en', 'the choice is remembered (localStorage)');
  await page.reload();
  await waitReady(page);
  check(await api(page, () => window.gpucost.lang()) === 'en', 'after a reload the remembered English wins over the Korean browser');
  await api(page, () => window.gpucost.setLang('ko'));
  await page.waitForFunction(() => window.gpucost.fonts().includes('ko-ui.ttf'), null, {timeout: 30000});

  // Hangul through IME composition events (CDP): a name typed in Korean.
  await click(page, 'name');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'ime-input', null, {timeout: 10000});
  check(true, 'a text field focuses the hidden IME input');
  const cdp = await page.context().newCDPSession(page);
  // Empty the field first (on a loaded machine a quick Ctrl+A can land between frames: try again until empty).
  for (let i = 0; i < 5 && (JSON.parse(await api(page, () => window.gpucost.scenario())).name || '') !== ''; i++) {
    await settle(page, () => page.keyboard.press('Control+A'));
    await settle(page, () => page.keyboard.press('Backspace'));
    await page.waitForTimeout(100 * i);
  }
  await cdp.send('Input.imeSetComposition', {text: 'ㅎ', selectionStart: 1, selectionEnd: 1});
  await cdp.send('Input.imeSetComposition', {text: '한', selectionStart: 1, selectionEnd: 1});
  await cdp.send('Input.imeSetComposition', {text: '한국', selectionStart: 2, selectionEnd: 2});
  await settle(page, () => cdp.send('Input.insertText', {text: '한국어'}));
  await cdp.send('Input.imeSetComposition', {text: ' 시', selectionStart: 2, selectionEnd: 2});
  await settle(page, () => cdp.send('Input.insertText', {text: ' 시나리오'}));
  await settle(page, () => page.keyboard.type(' v2'));
  // Keys typed in one go reach ImGui over the next frames: wait for the name to settle before reading it.
  await page.waitForFunction(() => JSON.parse(window.gpucost.scenario()).name.endsWith('v2'), null, {timeout: 5000}).catch(() => {});
  const name = JSON.parse(await api(page, () => window.gpucost.scenario())).name;
  check(name === '한국어 시나리오 v2', `Hangul composed through the IME lands in the name once: "${name}"`);
  await page.waitForFunction(() => window.gpucost.fonts().includes('ko-typing.ttf'), null, {timeout: 30000});
  check(true, 'composition fetched the 2,350-syllable font (ko-typing.ttf)');
  await settle(page, () => page.keyboard.press('Enter'));
  await shot(page, 'korean-ime.png');

  // A 200-character name of any script and a pinned comparison with its provider sheet survive the share link.
  const longScenario = {...KRW_SCENARIO, name: [...'가나다라마바사아자차카타파하 日本語 Ελληνικά 🙂 '.repeat(10)].slice(0, 200).join(''),
                        provider: {data_location: '대한민국 (서울 가산)', encryption: 'AES-256, 고객 관리 키'}};
  check(await api(page, t => window.gpucost.load(t), JSON.stringify(longScenario)) === '', 'a 200-character name loads');
  await click(page, 'tab', 1);  // the Compare view
  await click(page, 'pin');
  const link = await api(page, () => window.gpucost.link());
  await page.goto(link);
  await waitReady(page);
  check(JSON.parse(await api(page, () => window.gpucost.scenario())).name === longScenario.name, 'the 200-character name survives the link');
  await click(page, 'tab', 1);
  await page.waitForFunction(() => window.gpucost.drawnText('provider_sheet') !== '', null, {timeout: 30000});
  const sheet = await api(page, () => window.gpucost.drawnText('provider_sheet'));
  check(sheet.includes('대한민국 (서울 가산)') && sheet.includes('AES-256, 고객 관리 키'),
        'the pinned column\'s provider sheet answers survive the share link');
  check(sheet.includes('제공사에 확인 필요'), 'unanswered items read 제공사에 확인 필요 (ask the provider)');
  await shot(page, 'korean-compare.png');
  // The comparison's table ends at its last row: its height was a guess of 6 lines more than its rows (an empty band).
  const [table, end] = await api(page, () => [window.gpucost.widgetRect('compare_table', -1), window.gpucost.widgetRect('compare_end', -1)]);
  const band = table.y + table.h - (end.y + end.h);
  check(band >= 0 && band <= 20, `the Compare table ends at its last row (${band.toFixed(1)} px under it: padding, a sideways scrollbar)`);

  // CSV export: a UTF-8 BOM, then the comparison and its provider sheet.
  const [download] = await Promise.all([page.waitForEvent('download', {timeout: 30000}), click(page, 'export_csv')]);
  const bytes = fs.readFileSync(await download.path());
  fs.writeFileSync(path.join(outDir, 'korean-comparison.csv'), bytes);
  check(bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF, `the CSV export starts with a UTF-8 BOM (${bytes.slice(0, 8).toString('hex')})`);
  const csv = bytes.toString('utf8');
  check(csv.includes(longScenario.name.slice(0, 20)), 'the CSV holds the Korean name as UTF-8');
  check(/\r\nsheet\.provider\.data_location,[^,]+,text,대한민국 \(서울 가산\)\r\n/.test(csv), 'the CSV carries the provider sheet (English keys, answers as given)');
  // The same bytes as `gpucost compare --format csv` of the same scenarios, in Korean (issue 30).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpucost-csv-'));
  const pinnedLink = await api(page, () => window.gpucost.link());
  const files = [];
  for (let i = 0; ; i++) {
    let text;
    try { text = execFileSync(nativeCli, ['link', '--decode', pinnedLink, '--pinned', String(i)], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}); } catch (e) { break; }
    files.push(path.join(tmp, `p${i}.json`));
    fs.writeFileSync(files[i], text);
  }
  const cliCsv = execFileSync(nativeCli, ['compare', ...files, '--format', 'csv'], {env: {...process.env, LC_ALL: 'ko_KR.UTF-8', LANG: 'ko_KR.UTF-8'}});
  check(files.length >= 1 && Buffer.compare(cliCsv, bytes) === 0,
        `the page's CSV and gpucost compare --format csv (Korean) are the same ${bytes.length} bytes (${files.length} columns)`);
}, {locale: 'ko-KR', width: 1280, height: 720});

// --- Every view in Korean, on a laptop and on a phone: drawn (no missing glyph), nothing cut, no English left ---
// A scenario that fills every panel: a model shape and batch (layouts, memory, step), KRW with VAT, owned inputs,
// measured scaling points (the scaling chart), a pinned comparison (compare, provider sheet).
const MOE_SERVICE = {workload: {kind: 'inference', model: 'deepseek-v3'}, cluster: {gpu: 'h200-sxm', gpus: 8},
                     parallel: {tensor_parallel: 8}, inference: {attention: 'data', moe_split: 'expert', weight_precision: 'fp8'}};
const FULL_SCENARIO = {
  ...KRW_SCENARIO,
  workload: {model: 'llama-2-7b', tokens: 2e12}, parallel: {global_batch: 512},
  scaling: {points: [{gpus: 8, tokens_per_second: 3.2e4}, {gpus: 64, tokens_per_second: 2.4e5}]},
};
const VIEW_NAMES = ['결과', '비교', '차트', '공유', '레이아웃', '민감도', '운영 계획'];
async function wheelOver(page, id, dy) {  // over the editor, or over the view (right of the editor; all of a phone)
  const r = await api(page, i => window.gpucost.widgetRect(i), id) ||
            await api(page, () => ({x: innerWidth > 600 ? innerWidth / 2 : 0, y: innerHeight / 3, w: innerWidth / 2, h: innerHeight / 3}));
  await page.mouse.move(r.x + r.w / 2, r.y + Math.min(r.h / 2, 200));
  await settle(page, () => page.mouse.wheel(0, dy));
}
for (const [width, height, dpr] of [[1280, 720, 1], [390, 844, 2]]) {
  const size = `${width}x${height}`;
  const phone = width < 600;
  await withPage(siteDir, outDir, async (page, url) => {
    await page.goto(url);
    await waitReady(page);
    check(await api(page, t => window.gpucost.load(t), JSON.stringify(FULL_SCENARIO)) === '', `${size}: the full scenario loads`);
    await page.waitForTimeout(100);
    if (!phone) {
      await click(page, 'tab', 1);
      await click(page, 'pin');
    }
    for (let v = 0; v < VIEW_NAMES.length; v++) {
      await click(page, 'tab', v);
      if (v === 4) await click(page, 'plan_search');  // the Layouts view: run the search
      await page.waitForFunction(() => !window.gpucost.busy(), null, {timeout: 120000, polling: 100});
      await page.waitForTimeout(100);
      const cuts = new Map();
      let edge = Infinity;  // the least room between what the view drew and its scrollbar or the screen's edge
      for (let i = 0; i < 30; i++) {  // every screenful of the view
        // (the tab bar scrolls sideways on a phone, with arrows: a tab half out of it is not cut)
        for (const c of await api(page, () => window.gpucost.clippedWidgets())) if (!c[0].startsWith('tab')) cuts.set(`${c[0]}[${c[1]}]`, c);
        edge = Math.min(edge, await panelEdgeGap(page));
        const pos = await api(page, () => window.gpucost.scrollPos('view'));
        if (!pos || pos.y >= pos.maxY) break;
        if (i === 0) await shot(page, `korean-${size}-view${v}.png`);
        await wheelOver(page, 'view', 400);
      }
      await shot(page, `korean-${size}-view${v}-end.png`);
      check(cuts.size === 0, `${size}, ${VIEW_NAMES[v]} view in Korean: nothing cut (${JSON.stringify([...cuts.keys()].slice(0, 8))})`);
      // Its last columns (the results' notes on a phone, the legends' percentages, the pricing table's last column)
      // end the editor's gap before the scrollbar or the screen's edge; they touched it.
      check(edge >= EDGE_GAP_CSS, `${size}, ${VIEW_NAMES[v]} view: every screenful ends ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
      const missing = await api(page, () => window.gpucost.missingGlyphs());
      check(missing.length === 0, `${size}, ${VIEW_NAMES[v]} view: every glyph drawn (missing: ${missing.map(c => String.fromCodePoint(c)).join('')})`);
    }
    if (phone) {
      await page.reload();  // the tab bar has scrolled the Scenario tab out of reach: start again from the first tab
      await waitReady(page);
      await api(page, t => window.gpucost.load(t), JSON.stringify(FULL_SCENARIO));
      await click(page, 'tab_editor');
      await shot(page, `korean-${size}-editor.png`);
      const cut = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => c[0] !== 'tab');
      check(cut.length === 0, `${size}: the Korean editor has nothing cut (${JSON.stringify(cut.slice(0, 6))})`);
      const edge = await panelEdgeGap(page, 'editor');  // its sections' headers touched the screen's edge
      check(edge >= EDGE_GAP_CSS, `${size}: the editor ends ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the screen's edge`);
    } else {
      // Every editor section open, scrolled through: Korean labels, values and units whole.
      for (let i = 2; i <= 7; i++) {  // each closed section: scrolled into view, then opened
        for (let k = 0; k < 40; k++) {
          const [r, panel] = await api(page, n => [window.gpucost.widgetRect('section', n), window.gpucost.widgetRect('editor')], i);
          if (!r) break;
          if (r.y >= panel.y && r.y + r.h <= panel.y + panel.h) {
            await settle(page, () => page.mouse.click(r.x + 40, r.y + r.h / 2));
            break;
          }
          await wheelOver(page, 'editor', r.y < panel.y ? -200 : 200);
        }
      }
      while ((await api(page, () => window.gpucost.scrollPos('editor'))).y > 0) await wheelOver(page, 'editor', -2000);
      const cuts = new Map();
      let edge = Infinity;
      for (let i = 0; i < 60; i++) {
        for (const c of await api(page, () => window.gpucost.clippedWidgets())) if (!c[0].startsWith('tab')) cuts.set(`${c[0]}[${c[1]}]`, c);
        edge = Math.min(edge, await panelEdgeGap(page, 'editor'));
        const pos = await api(page, () => window.gpucost.scrollPos('editor'));
        if (!pos || pos.y >= pos.maxY) break;
        if (i % 3 === 0) await shot(page, `korean-${size}-editor-${i}.png`);
        await wheelOver(page, 'editor', 300);
      }
      check(cuts.size === 0, `${size}: every Korean editor section open, nothing cut (${JSON.stringify([...cuts.keys()].slice(0, 8))})`);
      check(edge >= EDGE_GAP_CSS, `${size}: every editor screenful ends ${edge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before its border`);
      check((await api(page, () => window.gpucost.missingGlyphs())).length === 0, `${size}: every editor glyph drawn`);
    }
    // A MoE service under data attention: its lists' Korean choices ("데이터 병렬 (GPU별 시퀀스)") whole. In the value
    // column alone they were cut on a phone; a field without a unit takes the unit's cell as well.
    check(await api(page, t => window.gpucost.load(t), JSON.stringify(MOE_SERVICE)) === '', `${size}: a MoE service loads`);
    const lists = ['inference.attention', 'inference.moe_split'];
    await page.waitForFunction(ids => ids.every(i => window.gpucost.widgetRect(i, -1)), lists, {timeout: 30000});
    await page.waitForFunction(() => window.gpucost.idle(), null, {timeout: 30000, polling: 30});
    const cutLists = (await api(page, () => window.gpucost.clippedWidgets())).filter(c => lists.includes(c[0]));
    check(cutLists.length === 0, `${size}: the attention and MoE split lists show their Korean choices whole (${JSON.stringify(cutLists)})`);
    // A job that does not fit (70B on 64 GPUs, no model parallelism): the results' memory part names the smallest layout
    // that fits ("메모리에 들어가는 가장 작은 구성: GPU 16장 (텐서 8 x 파이프라인 2 ...)"), wrapped: it ran off a phone's edge.
    check(await api(page, t => window.gpucost.load(t), JSON.stringify({workload: {params: 70e9, tokens: 2e12}, cluster: {gpus: 64}})) === '',
          `${size}: a job that does not fit loads`);
    await click(page, 'tab', 0);
    await page.waitForFunction(() => window.gpucost.idle(), null, {timeout: 30000, polling: 30});
    let blockedEdge = Infinity;
    for (let i = 0; i < 10; i++) {
      blockedEdge = Math.min(blockedEdge, await panelEdgeGap(page));
      const pos = await api(page, () => window.gpucost.scrollPos('view'));
      if (!pos || pos.y >= pos.maxY) break;
      await wheelOver(page, 'view', 400);
    }
    await shot(page, `korean-${size}-blocked.png`);
    check(blockedEdge >= EDGE_GAP_CSS, `${size}: a job that does not fit: its results end ${blockedEdge.toFixed(1)} px (>= ${EDGE_GAP_CSS}) before the panel's edge`);
  }, {locale: 'ko-KR', width, height, dpr});
}

// --- Someone acts while the deferred code is still on its way (a slow network, held back 2 s here) ----------------
// The frames after the first wait for app.deferred.wasm; the first input's own handlers are in app.wasm. Before
// both, a wheel, click, key or touch in that window loaded the file a second time, synchronously.
await withPage(siteDir, outDir, async (page, url) => {
  await page.route('**/app.deferred.wasm', async route => { await new Promise(r => setTimeout(r, 2000)); await route.continue(); });
  await page.goto(url);
  await waitFirstFrame(page);
  await page.mouse.move(300, 300);
  await page.mouse.wheel(0, 300);
  await page.mouse.click(300, 300);
  await page.keyboard.press('Tab');
  await page.keyboard.type('7');
  await api(page, () => { Module._gpucost_touch(0, 200, 400, performance.now()); Module._gpucost_touch(2, 200, 380, performance.now() + 40); });
  const early = await api(page, () => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/app.deferred.wasm')).length);
  check(early === 0, `input while the deferred code is on its way loads nothing itself (${early} fetches)`);
  await fetchedOnce(page, 'Korean, acting during the fetch');
  const frames = await api(page, () => window.gpucost.frames());
  await page.mouse.wheel(0, -300);
  await page.waitForFunction(f => window.gpucost.frames() > f, frames, {timeout: 30000});
  check(true, 'frames follow input once the deferred code has arrived');
}, {locale: 'ko-KR', width: 1280, height: 720});

// --- A phone-sized Korean page, for the eye --------------------------------------------------------------------
await withPage(siteDir, outDir, async (page, url) => {
  await page.goto(url);
  await waitReady(page);
  await api(page, t => window.gpucost.load(t), JSON.stringify(KRW_SCENARIO));
  await page.waitForFunction(() => window.gpucost.drawnText('vat_lines') !== '', null, {timeout: 30000});
  await shot(page, 'korean-phone.png');
}, {locale: 'ko-KR', width: 390, height: 844, dpr: 2});
console.log('test_korean: all checks passed');
