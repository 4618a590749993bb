// The package as users get it: `npm pack` the built folder, install the tarball into scratch
// projects (ES module, CommonJS, TypeScript with nodenext resolution) and use it there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { packed, root, sh, tscOutput } from './pack.mjs';

let pack;
let files;
/** The testing entries drive the user's own @openai/agents (a peer dependency). */
const project = (name, manifest, texts) => pack.project(name, manifest, texts, ['@openai/agents@0.20.0']);

before(() => {
  pack = packed('understudy-pack-');
  files = pack.files;
  for (const required of ['package.json', 'README.md', 'esm/node.js', 'esm/browser.js', 'cjs/node-cjs.js', 'wasm/understudy_bg.wasm', 'wasm/understudy_doubles_bg.wasm', 'wasm/understudy_validator_bg.wasm', 'wasm/node/understudy.js', 'wasm/web/understudy.js', 'wasm/node/understudy_doubles.js', 'wasm/web/understudy_doubles.js', 'wasm/node/understudy_validator.js', 'wasm/web/understudy_validator.js', 'esm/node.d.ts', 'cjs/node-cjs.d.ts']) {
    assert.ok(files.includes(required), `tarball lacks ${required}`);
  }
  // Modules that run code at import (installing the engine, registering error classes) are
  // declared, so a bundler never drops them; every listed path exists.
  const manifest = JSON.parse(readFileSync(join(root, 'build', 'npm', 'package.json'), 'utf8'));
  assert.ok(Array.isArray(manifest.sideEffects), 'sideEffects lists the modules with import-time effects');
  for (const entry of manifest.sideEffects.filter((e) => !e.includes('*'))) {
    assert.ok(files.includes(entry.slice(2)), `sideEffects names ${entry}, which the tarball lacks`);
  }
  for (const file of ['esm/node.js', 'esm/doubles/scripted-model.js', 'esm/doubles/cassette.js', 'esm/engine/workerd.js', 'cjs/node-cjs.js', 'cjs/doubles/cassette.js']) {
    assert.ok(manifest.sideEffects.some((e) => (e.includes('*') ? file.startsWith(e.slice(2, e.indexOf('*'))) : e.slice(2) === file)), `${file} runs code at import but is not in sideEffects`);
  }
  // The node and web glue share one file per module.
  assert.deepEqual(files.filter((f) => f.endsWith('.wasm')).sort(), ['wasm/understudy_bg.wasm', 'wasm/understudy_doubles_bg.wasm', 'wasm/understudy_validator_bg.wasm']);
});

after(() => pack?.dispose());

const use = `
  const s = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] };
  const strict = lib.toStrictJsonSchema(s);
  if (strict.required.join() !== 'a,b') throw new Error('wrong strict schema');
  const v = lib.compileJsonSchema(s);
  if (v.validateJson('{"a":1}').valid) throw new Error('validation failed to fail');
  let refused;
  try { lib.toStrictJsonSchema({ type: 'object', properties: { x: { oneOf: [] } } }); } catch (e) { refused = e; }
  if (!(refused instanceof lib.StrictSchemaError) || refused.pointer !== '/properties/x') throw new Error('bad error');
`;

/** The scripted model drives the project's own Runner (its Usage class is the user's). */
const scripted = `
  const model = new testing.ScriptedModel([[testing.assistantMessage('scripted answer')]]);
  const result = await new agents.Runner({ tracingDisabled: true }).run(new agents.Agent({ name: 'a', model }), 'hi');
  if (result.finalOutput !== 'scripted answer') throw new Error('scripted run failed');
  model.assertComplete();
  console.log('ok');
`;

test('ES module project imports it without init()', () => {
  const dir = project('esm-app', { type: 'module' }, {
    'main.js': `import * as lib from '@understudy/agents';\nimport * as testing from '@understudy/agents/testing';\nimport * as rt from '@understudy/agents/realtime/testing';\nimport * as agents from '@openai/agents';\n${use}\n${scripted}`,
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), 'ok');
});

test('CommonJS project requires it', () => {
  const dir = project('cjs-app', {}, {
    'main.js': `const lib = require('@understudy/agents');\nconst testing = require('@understudy/agents/testing');\nconst rt = require('@understudy/agents/realtime/testing');\nif (typeof rt.ScriptedRealtimeTransport !== 'function') throw new Error('no realtime transport');\nconst agents = require('@openai/agents');\n${use}\n(async () => {${scripted}})().catch((e) => { console.error(e); process.exit(1); });`,
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), 'ok');
});

test('the validator module loads on the first compileJsonSchema, not before', () => {
  const dir = project('lazy-validator', {}, {
    'main.js': `
      const loaded = () => Object.keys(require.cache).some((file) => /understudy_validator\\.js$/.test(file));
      const testing = require('@understudy/agents/testing');
      const lib = require('@understudy/agents');
      const agents = require('@openai/agents');
      (async () => {
        ${scripted.replace("console.log('ok');", '')}
        lib.toStrictJsonSchema({ type: 'object', properties: { a: { type: 'string' } } });
        if (lib.parseStructured('{a: 1,}', { type: 'object', properties: { a: { type: 'number' } } }).value.a !== 1) throw new Error('parse failed');
        if (loaded()) throw new Error('the validator module was loaded before it was needed');
        const v = lib.compileJsonSchema({ type: 'object', required: ['a'] });
        if (!loaded()) throw new Error('compileJsonSchema did not load the validator module');
        if (v.validate({}).valid || !v.validateJson('{"a":1}').valid) throw new Error('wrong verdicts');
        const handles = lib.engineLiveHandles();
        const w = lib.compileJsonSchema({ type: 'object', required: ['a'] });
        if (lib.engineLiveHandles() !== handles + 1) throw new Error('the validator is not counted as a live handle');
        v.free();
        w.free();
        console.log('ok');
      })().catch((e) => { console.error(e); process.exit(1); });`,
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), 'ok');
});

test('the doubles module loads with a double, never with the root entry alone', () => {
  const dir = project('lazy-doubles', {}, {
    'main.js': `
      const loaded = () => Object.keys(require.cache).some((file) => /understudy_doubles\\.js$/.test(file));
      const lib = require('@understudy/agents');
      lib.toStrictJsonSchema({ type: 'object', properties: { a: { type: 'string' } } });
      if (lib.parseStructured('{a: 1,}', { type: 'object', properties: { a: { type: 'number' } } }).value.a !== 1) throw new Error('parse failed');
      const model = lib.repairingModel({ async getResponse() { return { output: [], usage: {} }; }, async *getStreamedResponse() {} });
      if (loaded()) throw new Error('the root entry loaded the doubles module');
      const testing = require('@understudy/agents/testing');
      const agents = require('@openai/agents');
      const before = lib.engineLiveHandles();
      const scripted = new testing.ScriptedModel([[testing.assistantMessage('hi')]]);
      if (!loaded()) throw new Error('a double did not load the doubles module');
      if (lib.engineLiveHandles() !== before + 1) throw new Error('the script is not counted as a live handle');
      new agents.Runner({ tracingDisabled: true }).run(new agents.Agent({ name: 'a', model: scripted }), 'hi').then((run) => {
        if (run.finalOutput !== 'hi') throw new Error('wrong output: ' + run.finalOutput);
        console.log('ok');
      }).catch((e) => { console.error(e); process.exit(1); });`,
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), 'ok');
});

/** A run of both doubles whose objects must be the user's agents-core classes. */
const peerIdentity = `
  const response = await new testing.ScriptedModel([[testing.assistantMessage('hi')]]).getResponse({ input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false });
  if (!(response.usage instanceof core.Usage)) throw new Error('usage is not the user\\'s Usage');
  const session = testing.scriptedSandboxSession([]);
  if (!(session.state.manifest instanceof sandbox.Manifest)) throw new Error('manifest is not the user\\'s Manifest');
`;

test('the Node testing entries load two files of @openai/agents-core, not its root, and share its classes', () => {
  // ES modules: a load hook (off-thread) writes every URL Node loads to a file.
  const esm = project('peers-esm', { type: 'module' }, {
    'hooks.mjs': "import { register } from 'node:module';\nregister('./log.mjs', import.meta.url);\n",
    'log.mjs': "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(new URL('./loaded.txt', import.meta.url), url + '\\n'); return next(url, context); }\n",
    'main.mjs': `
      import { readFileSync } from 'node:fs';
      import * as testing from '@understudy/agents/testing';
      const loaded = () => readFileSync(new URL('./loaded.txt', import.meta.url), 'utf8').split('\\n');
      const early = loaded();
      if (early.some((u) => /agents-core\\/dist\\/(index|sandbox\\/index)\\.mjs$/.test(u))) throw new Error('the testing entry loaded the root of @openai/agents-core');
      if (!early.some((u) => /agents-core\\/dist\\/usage\\.mjs$/.test(u))) throw new Error('usage.mjs was not loaded');
      const core = await import('@openai/agents-core');
      const sandbox = await import('@openai/agents-core/sandbox');
      ${peerIdentity}
      console.log('ok');`,
  });
  assert.equal(sh('node', ['--import', './hooks.mjs', 'main.mjs'], esm).trim(), 'ok');
  const cjs = project('peers-cjs', {}, {
    'main.js': `
      const testing = require('@understudy/agents/testing');
      const early = Object.keys(require.cache);
      if (early.some((f) => /agents-core[\\\\/]dist[\\\\/](index|sandbox[\\\\/]index)\\.js$/.test(f))) throw new Error('the testing entry required the root of @openai/agents-core');
      if (!early.some((f) => /agents-core[\\\\/]dist[\\\\/]usage\\.js$/.test(f))) throw new Error('usage.js was not required');
      const core = require('@openai/agents-core');
      const sandbox = require('@openai/agents-core/sandbox');
      (async () => { ${peerIdentity} console.log('ok'); })().catch((e) => { console.error(e); process.exit(1); });`,
  });
  assert.equal(sh('node', ['main.js'], cjs).trim(), 'ok');
});

test('with another @openai/agents-core layout the testing entries fall back to its public entries', () => {
  // A stand-in agents-core with the public entries only (no dist/usage, no dist/sandbox/manifest).
  const classes = "class Usage { constructor(u) { Object.assign(this, u ?? {}); } }\nclass Manifest { constructor() { this.entries = {}; } }\nconst cloneManifest = (m) => Object.assign(new Manifest(), structuredClone({ ...m }));\n";
  const fake = {
    'fake-core/package.json': JSON.stringify({ name: '@openai/agents-core', version: '0.20.0', exports: {
      '.': { import: './root.mjs', require: './root.cjs' },
      './sandbox': { import: './sandbox.mjs', require: './sandbox.cjs' },
      './testing': { import: './testing/index.mjs', require: './testing/index.cjs' },
    } }),
    'fake-core/classes.mjs': `${classes}export { Usage, Manifest, cloneManifest };\n`,
    'fake-core/classes.cjs': `${classes}module.exports = { Usage, Manifest, cloneManifest };\n`,
    'fake-core/root.mjs': "export { Usage } from './classes.mjs';\n",
    'fake-core/root.cjs': "module.exports = { Usage: require('./classes.cjs').Usage };\n",
    'fake-core/sandbox.mjs': "export { Manifest, cloneManifest } from './classes.mjs';\n",
    'fake-core/sandbox.cjs': "const c = require('./classes.cjs'); module.exports = { Manifest: c.Manifest, cloneManifest: c.cloneManifest };\n",
    'fake-core/testing/index.mjs': 'export {};\n',
    'fake-core/testing/index.cjs': 'module.exports = {};\n',
  };
  const body = `${peerIdentity} console.log('ok');`;
  const esm = project('peers-fallback-esm', { type: 'module' }, {
    ...fake,
    'main.mjs': `import * as testing from '@understudy/agents/testing';\nimport * as core from '@openai/agents-core';\nimport * as sandbox from '@openai/agents-core/sandbox';\n${body}`,
  }, ['./fake-core']);
  assert.equal(sh('node', ['main.mjs'], esm).trim(), 'ok');
  const cjs = project('peers-fallback-cjs', {}, {
    ...fake,
    'main.js': `const testing = require('@understudy/agents/testing');\nconst core = require('@openai/agents-core');\nconst sandbox = require('@openai/agents-core/sandbox');\n(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });`,
  }, ['./fake-core']);
  assert.equal(sh('node', ['main.js'], cjs).trim(), 'ok');
});

test('the published types compile with TypeScript\'s default lib and skipLibCheck: false', () => {
  // They use Disposable and Symbol.dispose, which the default lib of es2022 lacks: the types
  // reference the lib they need themselves.
  const dir = project('ts-strict-libs', { type: 'module' }, {
    'main.ts': `
      import { compileJsonSchema, parseStructured, init, type InitOptions } from '@understudy/agents';
      const options: InitOptions = { validator: true, wasm: new Uint8Array(0) };
      export const ready: Promise<void> = init(options);
      import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';
      import { ScriptedRealtimeTransport } from '@understudy/agents/realtime/testing';
      const v = compileJsonSchema({ type: 'object' }, { formats: false });
      v[Symbol.dispose]();
      export const parsed = parseStructured('{}', { type: 'object' }).value;
      export const model = new ScriptedModel([[assistantMessage('a')]]);
      export const transport = new ScriptedRealtimeTransport();
    `,
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', types: [] } }),
  });
  const output = tscOutput(dir, root);
  // @openai/agents 0.20.0's own declarations do not compile without @types/node (three TS2416
  // in its lifecycle and realtime types); only errors in ours or in the consumer count.
  const ours = output.split('\n').filter((line) => /error TS/.test(line) && !line.startsWith('node_modules/@openai/'));
  assert.deepEqual(ours, [], output);
});

test('TypeScript (nodenext) type-checks a consumer against the published types', () => {
  const dir = project('ts-app', { type: 'module' }, {
    'main.ts': `
      import { toStrictJsonSchema, compileJsonSchema, io, type InferOut, type IO, StrictSchemaError, type ValidationResult } from '@understudy/agents';
      import { ScriptedModel, assistantMessage, functionCall, modelError, type RecordedModelCall, type InvalidScriptedModelStepReason } from '@understudy/agents/testing';
      import { Agent, type Model } from '@openai/agents';
      import type { RealtimeTransportLayer } from '@openai/agents-realtime';
      import type { RealtimeTransportMethod } from '@understudy/agents/realtime/testing';
      import { repairingModel } from '@understudy/agents';
      const model: Model = new ScriptedModel([[assistantMessage('a')], [functionCall('f', { x: 1 }, { callId: 'c' })], modelError(new Error('e'), { suggested: true })]);
      const agent = new Agent({ name: 'typed', model });
      const firstCall: RecordedModelCall | undefined = new ScriptedModel().firstCall;
      const stepReason: InvalidScriptedModelStepReason = 'incompatible_call';
      const schema = toStrictJsonSchema({ type: 'object', properties: {} } as const);
      const result: ValidationResult = compileJsonSchema(schema).validateJson('{}');
      const carrier = io<{ path: string }>();
      const out: InferOut<typeof carrier> = { path: 'x' };
      const asIo: IO<{ path: string }> = carrier;
      // @ts-expect-error the output type is checked
      const wrong: InferOut<typeof carrier> = { path: 1 };
      const reason: StrictSchemaError['reason'] = 'depth';
      // The realtime double's method list, written out, is the one RealtimeTransportLayer derives.
      type FunctionKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends (...args: any[]) => any ? K : never }[keyof T];
      type Derived = Exclude<FunctionKeys<RealtimeTransportLayer>, 'emit' | 'off' | 'on' | 'once'>;
      type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
      const methodsAgree: Same<Derived, RealtimeTransportMethod> = true;
      // repairingModel keeps the agents Model type.
      const repaired: Model = repairingModel(model);
      export { result, out, asIo, wrong, reason, agent, firstCall, stepReason, methodsAgree, repaired };
    `,
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, target: 'es2022', lib: ['es2022', 'esnext.disposable', 'dom'], types: [] } }),
  });
  const output = tscOutput(dir, root);
  if (output !== '') assert.fail(`tsc failed:\n${output}`);
});

test('the AI SDK testing entry runs in a project with ai and without @openai/agents (ES module and CommonJS)', () => {
  const run = (load) => `
    const model = t.scriptedLanguageModel([[t.functionCall('weather', { city: 'Oslo' }, { callId: 'c1' })], [t.assistantMessage('Sunny.')]]);
    const weather = ai.tool({ description: 'd', inputSchema: ai.jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }), execute: async () => 'sunny' });
    const result = await ai.generateText({ model, tools: { weather }, stopWhen: ai.stepCountIs(3), prompt: 'weather' });
    if (result.text !== 'Sunny.' || result.steps.length !== 2) throw new Error('scripted AI SDK run failed: ' + result.text);
    t.assertToolCalled(model, 'weather', { city: 'Oslo' });
    model.assertComplete();
    let agentsFound = true;
    try { ${load}('@openai/agents-core'); } catch { agentsFound = false; }
    if (agentsFound) throw new Error('the project has @openai/agents-core');
    console.log('ok');`;
  const dir = pack.project('ai-sdk-app', { type: 'module' }, {
    'main.js': `import * as t from '@understudy/agents/ai-sdk/testing';\nimport * as ai from 'ai';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${run('require.resolve')}`,
    'main.cjs': `const t = require('@understudy/agents/ai-sdk/testing');\nconst ai = require('ai');\n(async () => {${run('require.resolve')}})().catch((e) => { console.error(e); process.exit(1); });`,
  }, ['ai@7.0.173']);
  assert.equal(sh('node', ['main.js'], dir).trim(), 'ok');
  assert.equal(sh('node', ['main.cjs'], dir).trim(), 'ok');
});
