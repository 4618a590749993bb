// Every runtime the README claims, from the packed tarball: Deno, Bun, Cloudflare Workers
// (workerd through miniflare, the `workerd` export condition), bundles made by Vite, webpack and
// esbuild loaded in headless Chromium, and Jest with jsdom. Each runs the same check: parse a
// broken reply, make a strict schema, validate with the lazily loaded validator module; the
// Node-like runtimes also drive the real Runner with a ScriptedModel.
import assert from 'node:assert/strict';
import { createReadStream, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { packed, root, sh } from './pack.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);
const CHROMIUM = '/usr/bin/chromium';

/** The check every runtime runs; `report(result)` hands the result over. */
const check = (initCall) => `
  const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false };
  ${initCall}
  const parsed = lib.parseStructured("Sure! \\u0060\\u0060\\u0060json\\n{city: 'Tokyo', days: '2',}\\n\\u0060\\u0060\\u0060", schema);
  const strict = lib.toStrictJsonSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
  const validator = lib.compileJsonSchema(schema);
  const result = {
    parsed: parsed.value,
    fixes: parsed.fixes.map((f) => f.kind).sort(),
    required: strict.required,
    valid: validator.validate(parsed.value).valid,
    invalid: validator.validateJson('{"city":1}').issues.length,
  };
  validator.free();
`;
const expected = {
  parsed: { city: 'Tokyo', days: 2 },
  required: ['a', 'b'],
  valid: true,
  invalid: 2,
};
function assertResult(result) {
  const { fixes, ...rest } = result;
  assert.deepEqual(rest, expected, JSON.stringify(result));
  assert.ok(fixes.includes('fence_stripped') && fixes.includes('string_to_number'), `fixes: ${fixes}`);
}

/** A ScriptedModel run through the real Runner (Node-like runtimes). */
const scripted = `
  const model = new testing.ScriptedModel([[testing.assistantMessage('scripted answer')]]);
  const run = await new agents.Runner({ tracingDisabled: true }).run(new agents.Agent({ name: 'a', model }), 'hi');
  result.scripted = run.finalOutput;
`;

/** The AI SDK double answering a call by itself (no \`ai\` needed), and the HTTP double a streamed Anthropic request (no Node API). */
const languageModel = `
  const lm = aiTesting.scriptedLanguageModel([[aiTesting.assistantMessage('language model answer')]]);
  result.languageModel = (await lm.doGenerate({ prompt: [] })).content[0].text;
  const streamedText = async (wire) => {
    const sse = await (await wire('https://api.anthropic.com/v1/messages', { method: 'POST', body: JSON.stringify({ model: 'claude', max_tokens: 9, stream: true, messages: [{ role: 'user', content: 'hi' }] }) })).text();
    return sse.split('\\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).filter((e) => e.delta?.type === 'text_delta').map((e) => e.delta.text).join('');
  };
  result.fetch = await streamedText(aiTesting.scriptedFetch([aiTesting.textStep('over http')], { deltaSize: 3 }));
  // A wire cassette recorded and replayed in the runtime, no file system involved.
  const recorder = aiTesting.recordingFetch(aiTesting.scriptedFetch([aiTesting.textStep('replayed over http')], { deltaSize: 3 }));
  await streamedText(recorder);
  result.replayed = await streamedText(aiTesting.scriptedFetch({ cassette: recorder.toScript() }));
`;

const nodeLike = `
  import * as lib from '@understudy/agents';
  import * as testing from '@understudy/agents/testing';
  import * as aiTesting from '@understudy/agents/ai-sdk/testing';
  import * as agents from '@openai/agents';
  ${check('')}
  ${scripted}
  ${languageModel}
  console.log(JSON.stringify(result));
`;

/** A page's script: loads in the browser, reports on the body. */
const page = (initCall, imports = '') => `
  import * as lib from '@understudy/agents';
  ${imports}
  (async () => {
    ${check(initCall)}
    document.body.dataset.result = JSON.stringify(result);
  })().catch((e) => { document.body.dataset.result = JSON.stringify({ error: String(e && e.stack || e) }); });
`;
const html = (script) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title><body><script type="module" src="${script}"></script></body>`;

/** A Jest test file (jsdom) that runs the check and asserts the result with Jest's own expect. */
const jestSuite = (importLine, title, initCall) => `/** @jest-environment jsdom */
  ${importLine}
  test(${JSON.stringify(title)}, async () => {
    ${check(initCall)}
    expect(typeof document).toBe('object');
    const { fixes, ...rest } = result;
    expect(rest).toEqual(${JSON.stringify(expected)});
    expect(fixes).toEqual(expect.arrayContaining(['fence_stripped', 'string_to_number']));
  });
`;

let pack;
let dir;
let browser;

before(async () => {
  pack = packed('understudy-runtimes-');
  dir = pack.project('runtimes', { type: 'module' }, {
    'node-like.mjs': nodeLike,
    'vite-app/index.html': html('./main.js'),
    'vite-app/main.js': page('await lib.init({ validator: true });'),
    'webpack-app/main.js': page('await lib.init({ validator: true });'),
    // esbuild does not copy files named by `new URL(…, import.meta.url)`: the app imports the
    // `.wasm` subpaths with the `file` loader and hands their URLs to init().
    'esbuild-app/main.js': page(
      'await lib.init({ validator: true, wasm: engineWasm, validatorWasm });',
      "import engineWasm from '@understudy/agents/wasm/engine';\nimport validatorWasm from '@understudy/agents/wasm/validator';",
    ),
    'worker/worker.js': `
      import * as lib from '@understudy/agents';
      import * as aiTesting from '@understudy/agents/ai-sdk/testing';
      export default {
        async fetch() {
          ${check('await lib.init({ validator: true });')}
          ${languageModel}
          return Response.json(result);
        },
      };
    `,
    'jest-esm/engine.test.mjs': jestSuite("import * as lib from '@understudy/agents';", 'the browser entry under jsdom', 'await lib.init({ validator: true });'),
    'jest-cjs/engine.test.js': jestSuite("const lib = require('@understudy/agents');", 'the Node entry under jsdom (customExportConditions)', 'await lib.init();'),
    'jest-cjs/package.json': '{ "type": "commonjs" }',
  }, ['@openai/agents@0.20.0']);
});

after(async () => {
  await browser?.close();
  pack?.dispose();
});

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/** Serves `folder` on a free port; resolves to its URL and a close function. */
function serveFolder(folder) {
  const server = createServer((req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^[/\\]+/, '') || 'index.html';
    const file = join(folder, rel);
    if (rel.startsWith('..') || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

/** Opens `index.html` of a built folder in Chromium; the result the page reports, and the .wasm it fetched. */
async function inChromium(folder) {
  assert.ok(existsSync(CHROMIUM), 'Chromium is missing: scripts/test.mjs installs Debian chromium');
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const { url, close } = await serveFolder(folder);
  const tab = await browser.newPage();
  const problems = [];
  const wasm = [];
  tab.on('pageerror', (e) => problems.push(String(e)));
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  tab.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
  try {
    await tab.goto(url);
    await tab.waitForFunction(() => document.body.dataset.result !== undefined, null, { timeout: 30_000 });
    const result = JSON.parse(await tab.evaluate(() => document.body.dataset.result));
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(problems, []);
    return { result, wasm };
  } finally {
    await tab.close();
    close();
  }
}

const wasmFiles = (folder) => readdirSync(folder, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));

test('Deno 2 runs the Node entries', () => {
  const out = sh(bin('deno'), ['run', '-A', 'node-like.mjs'], dir, { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' });
  const result = JSON.parse(out.trim().split('\n').pop());
  assert.equal(result.scripted, 'scripted answer');
  assert.equal(result.languageModel, 'language model answer');
  assert.equal(result.fetch, 'over http', 'scriptedFetch streams an Anthropic answer');
  assert.equal(result.replayed, 'replayed over http', 'a wire cassette replays');
  delete result.scripted;
  delete result.languageModel;
  delete result.fetch;
  delete result.replayed;
  assertResult(result);
});

test('Bun runs the Node entries', () => {
  const out = sh(bin('bun'), ['node-like.mjs'], dir);
  const result = JSON.parse(out.trim().split('\n').pop());
  assert.equal(result.scripted, 'scripted answer');
  assert.equal(result.languageModel, 'language model answer');
  assert.equal(result.fetch, 'over http', 'scriptedFetch streams an Anthropic answer');
  assert.equal(result.replayed, 'replayed over http', 'a wire cassette replays');
  delete result.scripted;
  delete result.languageModel;
  delete result.fetch;
  delete result.replayed;
  assertResult(result);
});

test('Cloudflare Workers (workerd via miniflare): the workerd condition imports the .wasm modules', async () => {
  // As wrangler does: bundle with the workerd condition, keep the .wasm imports as modules of
  // the Worker (CompiledWasm), which the platform compiles with it.
  const wasmDir = join(dir, 'node_modules', '@understudy', 'agents', 'wasm');
  const { build } = await import('esbuild');
  const bundle = await build({
    entryPoints: [join(dir, 'worker', 'worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    logLevel: 'silent',
    plugins: [{
      name: 'wasm-modules',
      setup(b) {
        b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: `./${args.path.split('/').pop()}`, external: true }));
      },
    }],
  });
  const code = bundle.outputFiles[0].text;
  assert.match(code, /from "\.\/understudy_bg\.wasm"/, 'the engine is a static import');
  assert.match(code, /from "\.\/understudy_doubles_bg\.wasm"/, 'the testing entry imports the doubles module');
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    compatibilityDate: '2025-06-01',
    modulesRoot: dir,
    modules: [
      { type: 'ESModule', path: join(dir, 'worker.js'), contents: code },
      { type: 'CompiledWasm', path: join(dir, 'understudy_bg.wasm'), contents: readFileSync(join(wasmDir, 'understudy_bg.wasm')) },
      { type: 'CompiledWasm', path: join(dir, 'understudy_doubles_bg.wasm'), contents: readFileSync(join(wasmDir, 'understudy_doubles_bg.wasm')) },
      { type: 'CompiledWasm', path: join(dir, 'understudy_validator_bg.wasm'), contents: readFileSync(join(wasmDir, 'understudy_validator_bg.wasm')) },
    ],
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/');
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const { languageModel: answer, fetch: overHttp, replayed, ...result } = JSON.parse(text);
    assert.equal(answer, 'language model answer', 'the testing entry loads the doubles module at import');
    assert.equal(overHttp, 'over http', 'scriptedFetch answers in a Worker');
    assert.equal(replayed, 'replayed over http', 'a wire cassette replays in a Worker');
    assertResult(result);
  } finally {
    await mf.dispose();
  }
});

test('a Vite 8 production build loads in Chromium, the validator after the engine', async () => {
  sh(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], join(dir, 'vite-app'));
  const dist = join(dir, 'vite-app', 'dist');
  assert.equal(wasmFiles(dist).length, 2, `the build holds both modules: ${wasmFiles(dist)}`);
  const { result, wasm } = await inChromium(dist);
  assertResult(result);
  assert.equal(wasm.length, 2);
  assert.match(wasm[0], /understudy_bg[^/]*\.wasm$/);
  assert.match(wasm[1], /understudy_validator_bg[^/]*\.wasm$/);
});

test('a webpack 5 bundle loads in Chromium', async () => {
  const webpack = (await import('webpack')).default;
  const dist = join(dir, 'webpack-app', 'dist');
  const stats = await new Promise((resolve, reject) =>
    webpack({
      mode: 'production',
      context: join(dir, 'webpack-app'),
      entry: './main.js',
      target: 'web',
      output: { path: dist, filename: 'main.js', publicPath: '' },
      performance: { hints: false },
    }).run((error, s) => (error ? reject(error) : resolve(s))),
  );
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  assert.ok(wasmFiles(dist).length >= 2, `the bundle holds both modules: ${wasmFiles(dist)}`);
  writeFileSync(join(dist, 'index.html'), html('./main.js'));
  assertResult((await inChromium(dist)).result);
});

test('an esbuild browser bundle loads in Chromium through the ./wasm subpaths', async () => {
  const dist = join(dir, 'esbuild-app', 'dist');
  sh(bin('esbuild'), [join(dir, 'esbuild-app', 'main.js'), '--bundle', '--format=esm', '--platform=browser', '--loader:.wasm=file', `--outdir=${dist}`, '--log-level=warning'], dir);
  assert.equal(wasmFiles(dist).length, 2, `the bundle holds both modules: ${wasmFiles(dist)}`);
  writeFileSync(join(dist, 'index.html'), html('./main.js'));
  assertResult((await inChromium(dist)).result);
});

/** Runs Jest (the workspace's, with jsdom) on one folder of the project; throws when a test fails. */
function jest(folder, config, nodeArgs = []) {
  const configFile = join(dir, folder, 'jest.config.json');
  writeFileSync(configFile, JSON.stringify({ rootDir: join(dir, folder), testEnvironment: join(root, 'node_modules', 'jest-environment-jsdom'), transform: {}, ...config }));
  try {
    sh(process.execPath, [...nodeArgs, join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', configFile, '--ci'], join(dir, folder));
  } catch (error) {
    assert.fail(`${error.stdout}\n${error.stderr}`);
  }
}

test('Jest 30 with jsdom (ES modules): the browser entry reads its .wasm from disk', () => {
  jest('jest-esm', { testMatch: ['**/*.test.mjs'] }, ['--experimental-vm-modules', '--no-warnings']);
});

test('Jest 30 with jsdom (CommonJS): the Node entry through customExportConditions', () => {
  jest('jest-cjs', { testMatch: ['**/*.test.js'], testEnvironmentOptions: { customExportConditions: ['node', 'require', 'default'] } });
});
