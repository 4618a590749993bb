// A small static server for the playground: www/ at `/`, the built package at `/pkg/`, the
// bundled SDK at `/vendor/` (scripts/build.mjs playground).
// `node www/serve.mjs [port]` prints the URL; tests import `serve()` and use port 0.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mounts = [
  ['/pkg/', join(root, 'build', 'npm')],
  ['/vendor/', join(root, 'build', 'www', 'vendor')],
  ['/', join(root, 'www')],
];
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

function resolve(urlPath) {
  for (const [prefix, dir] of mounts) {
    if (!urlPath.startsWith(prefix)) continue;
    const rel = normalize(decodeURIComponent(urlPath.slice(prefix.length)) || 'index.html');
    if (rel.startsWith('..')) return undefined;
    return join(dir, rel);
  }
  return undefined;
}

export function serve(port = 0, host = '127.0.0.1') {
  const server = createServer((req, res) => {
    const file = resolve(new URL(req.url, 'http://x').pathname);
    let stat;
    try {
      stat = file && statSync(file);
    } catch {}
    if (!stat?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-length': stat.size });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}/` })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.argv[2] ?? 8080));
  console.log(`understudy playground: ${url}`);
}
