// Minifies index.html's inline scripts with terser (Debian's node-terser) and its CSS (comments and the
// spaces around punctuation); the markup is left as written. Top-level names stay (app.js and the tests read window.gpucost,
// gpucostFiles and the functions index.html defines). Without terser the page is copied as it is.
// Usage: node minify_html.cjs IN OUT
const fs = require('fs');
const [input, output] = process.argv.slice(2);
const source = fs.readFileSync(input, 'utf8');
let terser = null;
try { terser = require('terser'); } catch (e) { console.error('node-terser is not installed: index.html copied as it is'); }
const style = (html) => html.replace(/<style>([\s\S]*?)<\/style>/g, (m, css) =>
  '<style>' + css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\s*([{};:,])\s*/g, '$1')
                  .replace(/;}/g, '}').trim() + '</style>');
async function main() {
  let html = style(source);
  if (terser) {
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    for (const m of scripts) {
      const r = await terser.minify(m[1], {toplevel: false, compress: {passes: 2}, mangle: true, ecma: 2018});
      html = html.replace(m[0], () => '<script>' + r.code + '</script>');
    }
  }
  fs.writeFileSync(output, html);
  console.log(`index.html minified: ${source.length} -> ${html.length} bytes`);
}
main().catch(e => { console.error(String(e)); process.exit(1); });
