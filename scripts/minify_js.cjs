// Minifies the page's app.js in place with terser (Debian's node-terser): names mangled at top level except
// `Module`, which index.html defines before app.js runs and reads afterwards. Usage: node minify_js.cjs IN OUT
const fs = require('fs');
let terser;
try { terser = require('terser'); } catch (e) { console.error('node-terser is not installed'); process.exit(2); }
const [input, output] = process.argv.slice(2);
const source = fs.readFileSync(input, 'utf8');
terser.minify(source, {toplevel: true, mangle: {reserved: ['Module']}, compress: {passes: 2}, ecma: 2018})
  .then(r => {
    fs.writeFileSync(output, r.code);
    console.log(`app.js minified: ${source.length} -> ${r.code.length} bytes`);
  })
  .catch(e => { console.error(String(e)); process.exit(1); });
