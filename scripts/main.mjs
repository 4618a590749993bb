#!/usr/bin/env node
// The main job: build the package, run the demo against it, then serve the playground (www/)
// on http://127.0.0.1:<port> (PORT, or the first argument; default 8080) until interrupted.
import { join } from 'node:path';
import { build, root, run } from './build.mjs';
import { serve } from '../www/serve.mjs';

await build();
console.log('\n== demo');
run(process.execPath, [join(root, 'scripts', 'demo.mjs')]);
console.log('\n== playground');
const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
const { url } = await serve(port);
console.log(`understudy playground: ${url} (Ctrl-C to stop)`);
