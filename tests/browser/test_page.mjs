// Browser test of the page: loads, draws, exposes window.gpucost, follows resizes, stays idle, screenshots.
// node test_page.mjs SITE_DIR OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import {withPage, waitReady, check} from './harness.mjs';

const [siteDir, outDir] = [process.argv[2], process.argv[3]];
const sizes = {};
for (const f of ['index.html', 'app.js', 'app.wasm']) sizes[f] = fs.statSync(path.join(siteDir, f)).size;

let failed = 0;
for (const dpr of [1, 2]) {
  try {
    await withPage(siteDir, outDir, async (page, url) => {
      // Start the browser's GPU process first (see test_app.mjs): the page's own first frame is timed.
      await page.evaluate(() => document.createElement('canvas').getContext('webgl2'));
      await page.goto(url);
      await waitReady(page);
      // When the GPU had drawn the first frame (ms since navigation; the budget is checked in test_app.mjs).
      await page.waitForFunction(() => window.gpucost.firstFrameMs()[1] > 0);
      const [issued, done] = await page.evaluate(() => window.gpucost.firstFrameMs());
      check(issued > 0 && done >= issued, `first frame issued at ${issued.toFixed(0)} ms, drawn at ${done.toFixed(0)} ms ` +
            `after navigation (devicePixelRatio ${dpr})`);
      const canvas = await page.evaluate(() => {
        const c = document.getElementById('canvas');
        return {w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight};
      });
      check(canvas.w === Math.round(canvas.cssW * dpr) && canvas.h === Math.round(canvas.cssH * dpr),
            `canvas backbuffer ${canvas.w}x${canvas.h} matches CSS ${canvas.cssW}x${canvas.cssH} x dpr ${dpr}`);
      const result = JSON.parse(await page.evaluate(() => window.gpucost.result()));
      check(result.ok === true && result.cost.expected_usd > 0, 'result() returns the evaluated default scenario');
      // Idle: no input, no work -> no frames drawn (once what loads after the first frame has arrived: a font
      // that arrives redraws once).
      await page.waitForTimeout(300);
      await page.evaluate(() => window.gpucost.loaded());
      await page.waitForTimeout(300);
      const f1 = await page.evaluate(() => window.gpucost.frames());
      await page.waitForTimeout(700);
      const f2 = await page.evaluate(() => window.gpucost.frames());
      check(f2 === f1, `idle page draws no frames (${f1} -> ${f2})`);
      // Resize: the backbuffer follows.
      await page.setViewportSize({width: 900, height: 600});
      await page.waitForFunction(d => document.getElementById('canvas').width === Math.round(900 * d), dpr, {timeout: 5000});
      check(true, 'canvas follows a window resize');
      await page.setViewportSize({width: 1280, height: 800});
      await page.waitForTimeout(300);
      await page.screenshot({path: path.join(outDir, `page-dpr${dpr}.png`)});
      check(true, `screenshot saved: ${path.join(outDir, `page-dpr${dpr}.png`)}`);
    }, {dpr});
  } catch (e) {
    failed++;
    console.error(`FAILED at dpr ${dpr}: ${e.message}`);
  }
}
console.log(`bundle: ${Object.entries(sizes).map(([k, v]) => `${k} ${v} B`).join(', ')}`);
process.exit(failed ? 1 : 0);
