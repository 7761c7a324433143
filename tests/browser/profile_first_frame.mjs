// Records which WebAssembly functions the page's first frames run, for the code split (scripts/split_wasm.py).
// Run by scripts/profile_first_frame.sh on a site whose app.wasm is the instrumented module emcc -sSPLIT_MODULE
// leaves (build/web/split/app.instrumented.wasm): it opens the English page, then the Korean one, at 1280x720, lets it draw, moves
// the mouse, scrolls, clicks, presses a key, touches, turns to a phone size and back (what a first visit does first), then writes the
// module's profile (its __write_profile export) to OUT.  Usage: node profile_first_frame.mjs OUT SITE_DIR
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {withPage} from './harness.mjs';

const [out, siteDir, keysOut] = process.argv.slice(2);
// English first, then Korean in the same module instance (the profile is cumulative): a Korean browser's first
// frame (Hangul font atlas, the fetched string table, 억/만) must not need app.deferred.wasm either (issue 27).
await withPage(siteDir, path.join(os.tmpdir(), 'gpucost-profile'), async (page, url) => {
  const visit = async () => {
    await page.waitForFunction(() => window.gpucost && window.gpucost.frames() > 5, null, {timeout: 60000});
    await page.waitForTimeout(1500);
    await page.mouse.move(300, 300);
    await page.waitForTimeout(300);
    await page.setViewportSize({width: 390, height: 844});
    await page.waitForTimeout(1500);
    await page.setViewportSize({width: 1280, height: 720});
    await page.waitForTimeout(1000);
    // The first input's handlers (wheel, click, key, character, touch) run in the event, not in a frame: one missing
    // here loads app.deferred.wasm a second time when someone acts while its fetch is still under way. Recorded
    // with the main loop paused: what the frames then do with that input waits for app.deferred.wasm anyway
    // (main_web.cpp), so it stays there.
    await page.evaluate(() => Module.pauseMainLoop());
    await page.mouse.wheel(0, 120);
    await page.mouse.click(300, 300);
    // Modifiers last: a modifier's release holds back every later event (main_web.cpp QueueInput), which would
    // leave the other keys' paths unrecorded.
    await page.keyboard.type('x7.,');
    for (const key of ['Tab', 'Backspace', 'Enter', 'ArrowDown', 'Escape', 'Shift', 'Control+A']) await page.keyboard.press(key);
    await page.evaluate(() => { Module._gpucost_touch(0, 300, 300, performance.now()); Module._gpucost_touch(2, 300, 300, performance.now() + 50); });
    await page.waitForTimeout(300);
  };
  const profile = () => page.evaluate(() => {
    Module.pauseMainLoop();  // the grow below leaves the program's heap views stale: draw no frame after it
    const asm = Module.asm;
    const memory = asm[Object.keys(asm).find(k => asm[k] instanceof WebAssembly.Memory)];
    const at = memory.buffer.byteLength;
    memory.grow(4);  // 256 KiB past the program's heap for the profile
    const n = asm.__write_profile(at, 65536 * 4);
    return Array.from(new Uint8Array(memory.buffer, at, n));
  });
  // The string-table keys the same first frames look up (issue 47: the rest of the tables is fetched after it).
  await page.addInitScript(() => { window.gpucostRecordKeys = true; });
  const keys = new Set();
  const lookedUp = () => page.evaluate(() => JSON.parse(Module.UTF8ToString(Module._gpucost_looked_up_keys())));
  await page.goto(url);
  await visit();
  for (const k of await lookedUp()) keys.add(k);
  const english = await profile();
  await page.evaluate(() => localStorage.setItem('gpucost.lang', 'ko'));
  await page.goto(url);
  await visit();
  for (const k of await lookedUp()) keys.add(k);
  const korean = await profile();
  await page.evaluate(() => localStorage.removeItem('gpucost.lang'));
  // The profile holds one entry per function (a timestamp, 0 when it never ran) after an 8-byte hash: keep
  // what either visit ran.
  const merged = Buffer.from(english), ko = Buffer.from(korean);
  if (ko.length !== merged.length || !ko.subarray(0, 8).equals(merged.subarray(0, 8))) throw new Error('profiles of two modules');
  for (let i = 8; i + 4 <= merged.length; i += 4)
    if (merged.readUInt32LE(i) === 0) merged.writeUInt32LE(ko.readUInt32LE(i), i);
  fs.writeFileSync(out, merged);
  if (keysOut) fs.writeFileSync(keysOut, [...keys].sort().join('\n') + '\n');
  console.log(`keys: ${keys.size} looked up by the first frames -> ${keysOut}`);
  console.log(`profile: ${merged.length} bytes (English and Korean first frames) -> ${out}`);
}, {width: 1280, height: 720});
