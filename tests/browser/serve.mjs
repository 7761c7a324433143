// A minimal static file server for the built page (no dependencies). Used by the browser tests and by
// scripts/serve.sh. serveSite(dir, port) -> Promise<{url, close()}>; port 0 picks a free port.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {'.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
               '.json': 'application/json', '.png': 'image/png', '.css': 'text/css'};

export function serveSite(dir, port = 0, host = '127.0.0.1') {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (file.endsWith(path.sep) || file === root) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404, {'content-type': 'text/plain'}).end('not found'); return; }
      res.writeHead(200, {'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
                          'cache-control': 'no-cache'});
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      resolve({url: `http://${host}:${addr.port}/`, close: () => new Promise(r => server.close(r))});
    });
  });
}

// node serve.mjs DIR [PORT]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, port] = [process.argv[2] || '.', Number(process.argv[3] || 8080)];
  serveSite(dir, port).then(s => console.log(`gpucost is served at ${s.url} (Ctrl-C stops)`));
}
