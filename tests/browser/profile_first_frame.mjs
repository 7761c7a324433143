// Records which WebAssembly functions the page's first frames run, for the code split (scripts/split_wasm.py).
// Run by scripts/profile_first_frame.sh on a site whose app.wasm is the instrumented module emcc -sSPLIT_MODULE
// leaves (build/web/split/app.instrumented.wasm): it opens the English page at 1280x720, lets it draw, moves
// the mouse, turns to a phone size and back (what a first visit does before anyone types), then writes the
// module's profile (its __write_profile export) to OUT.  Usage: node profile_first_frame.mjs OUT SITE_DIR
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {withPage} from './harness.mjs';

const [out, siteDir] = process.argv.slice(2);
await withPage(siteDir, path.join(os.tmpdir(), 'gpucost-profile'), async (page, url) => {
  await page.goto(url);
  await page.waitForFunction(() => window.gpucost && window.gpucost.frames() > 5, null, {timeout: 60000});
  await page.waitForTimeout(1500);
  await page.mouse.move(300, 300);
  await page.waitForTimeout(300);
  await page.setViewportSize({width: 390, height: 844});
  await page.waitForTimeout(1500);
  await page.setViewportSize({width: 1280, height: 720});
  await page.waitForTimeout(1000);
  const bytes = await page.evaluate(() => {
    Module.pauseMainLoop();  // the grow below leaves the program's heap views stale: draw no frame after it
    const asm = Module.asm;
    const memory = asm[Object.keys(asm).find(k => asm[k] instanceof WebAssembly.Memory)];
    const at = memory.buffer.byteLength;
    memory.grow(4);  // 256 KiB past the program's heap for the profile
    const n = asm.__write_profile(at, 65536 * 4);
    return Array.from(new Uint8Array(memory.buffer, at, n));
  });
  fs.writeFileSync(out, Buffer.from(bytes));
  console.log(`profile: ${bytes.length} bytes -> ${out}`);
}, {width: 1280, height: 720});
