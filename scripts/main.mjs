#!/usr/bin/env node
// The main job: build the package, then run the demo against it.
import { join } from 'node:path';
import { build, root, run } from './build.mjs';

await build();
console.log('\n== demo');
run(process.execPath, [join(root, 'scripts', 'demo.mjs')]);
