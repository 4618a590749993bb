// API fuzz: every export of the three entries, and every method of the objects they return,
// called with hostile values in every argument position. What may happen: a value is returned,
// or an error is thrown that is ours (a UserError or one of the doubles' classes), a TypeError
// that names the function and the argument, an exception raised by the hostile value's own
// code (a throwing proxy trap or toString), or exactly what the reference throws for the same
// call. What must never happen: a WebAssembly.RuntimeError (a trap leaves the allocator in any
// state), an internal-looking TypeError from our code, a hang; and the engine must answer
// correctly afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as root from '@understudy/agents';
import * as testing from '@understudy/agents/testing';
import * as realtime from '@understudy/agents/realtime/testing';
import * as aiTesting from '@understudy/agents/ai-sdk/testing';
import * as refTesting from '@openai/agents/testing';
import * as refRealtime from '@openai/agents/realtime/testing';
import * as reference from './reference.mjs';

const HOSTILE_MARK = 'hostile value code ran';
const cycle = { a: 1 };
cycle.self = cycle;
let deep = {};
for (let i = 0; i < 5000; i++) deep = { d: deep };
const throwingProxy = new Proxy({}, {
  get() { throw new Error(HOSTILE_MARK); },
  has() { throw new Error(HOSTILE_MARK); },
  ownKeys() { throw new Error(HOSTILE_MARK); },
  getOwnPropertyDescriptor() { throw new Error(HOSTILE_MARK); },
  getPrototypeOf() { throw new Error(HOSTILE_MARK); },
});
const badToString = { toString() { throw new Error(HOSTILE_MARK); }, valueOf() { throw new Error(HOSTILE_MARK); } };

const hostile = [
  ['undefined', undefined],
  ['null', null],
  ['NaN', NaN],
  ['2^53', 2 ** 53],
  ['bigint', 10n],
  ['symbol', Symbol('s')],
  ['function', () => 1],
  ['cycle', cycle],
  ['5000-deep object', deep],
  ['throwing proxy', throwingProxy],
  ['throwing toString', badToString],
  ['100k string', 'x'.repeat(100_000)],
  ['lone surrogate', '\uD800'],
  ['Date', new Date(0)],
  ['RegExp', /a+/g],
  ['Map', new Map([[1, 2]])],
  ['null-prototype object', Object.create(null)],
];

// Messages of TypeErrors that come from reading a value that was never checked.
const INTERNAL = /Cannot read propert|is not a function|is not iterable|Cannot convert (undefined|null|object)|reading 'length'|is not a constructor|Cannot destructure|Invalid array length|unreachable|memory access/;

/** Runs `fn`, awaiting a returned promise (or async iterator) for at most two seconds. */
async function outcome(fn) {
  try {
    let value = fn();
    if (value && typeof value[Symbol.asyncIterator] === 'function' && typeof value.then !== 'function') {
      const it = value[Symbol.asyncIterator]();
      value = it.next();
    }
    if (value && typeof value.then === 'function') {
      let timer;
      const hang = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('HANG')), 2000); });
      try {
        value = await Promise.race([value, hang]);
      } finally {
        clearTimeout(timer);
      }
    }
    return { value };
  } catch (error) {
    return { error };
  }
}

const ours = new Set([root.UserError, Error]);
function acceptable(error, referenceError, label) {
  assert.ok(!(error instanceof WebAssembly.RuntimeError), `${label}: a wasm trap: ${error?.message}`);
  assert.notEqual(error?.message, 'HANG', `${label}: no answer within 2 s`);
  if (error?.message === HOSTILE_MARK) return; // the hostile value's own code threw
  if (error instanceof TypeError && INTERNAL.test(error.message)) {
    // Only where the reference throws the very same thing.
    assert.ok(
      referenceError instanceof TypeError && referenceError.message === error.message,
      `${label}: internal-looking TypeError "${error.message}" (the reference: ${referenceError === undefined ? 'no such call' : `${referenceError?.constructor?.name}: ${referenceError?.message}`})`,
    );
  }
  if (error instanceof RangeError) {
    assert.ok(referenceError instanceof RangeError, `${label}: RangeError ${error.message}`);
  }
  assert.ok(error instanceof Error || error === referenceError || typeof error !== 'object', `${label}: threw a non-error ${String(error)}`);
  void ours;
}

function isClass(f) {
  return typeof f === 'function' && /^class\b/.test(Function.prototype.toString.call(f));
}

/** Calls `fn(args)` with each hostile value in each position of `valid`. */
async function fuzzCall(label, valid, call, referenceCall) {
  for (let position = 0; position < valid.length; position++) {
    for (const [name, value] of hostile) {
      const args = valid.slice();
      args[position] = value;
      const ours = await outcome(() => call(args));
      if (!('error' in ours)) continue;
      const theirs = referenceCall ? await outcome(() => referenceCall(args)) : undefined;
      acceptable(ours.error, theirs?.error, `${label} with ${name} as argument ${position + 1}`);
    }
  }
}

const schema = { type: 'object', properties: { a: { type: 'string' } } };
const zodLike = { '~standard': { version: 1, vendor: 'x', validate: (v) => ({ value: v }), jsonSchema: { input: () => schema, output: () => schema } } };
const validRootArgs = {
  toStrictJsonSchema: [schema],
  prepareStrictJsonSchema: [schema],
  stripStrictNulls: [schema, { a: null }],
  assertStrictSchemaPreservesOpenObjects: [schema],
  compileJsonSchema: [schema, { formats: true }],
  hasStandardSchemaMarker: [zodLike],
  isStandardSchemaWithJSON: [zodLike],
  standardSchemaToJsonSchema: [zodLike, 'input'],
  assertStandardSchemaObjectRoot: [schema, 'Tool parameter'],
  validateStandardSchema: [zodLike, { a: 'x' }],
  io: ['vendor'],
  parseStructured: ['{"a": "x"}', schema, { truncated: 'close' }],
  parsePartial: ['{"a": "x', schema, { atomic: ['/a'] }],
  compileStructuredParser: [schema],
  repairingModel: [{ getResponse: async () => ({ output: [] }), getStreamedResponse: async function* () {} }, { allowFixes: ['fence_stripped'] }],
  repairText: [schema],
  repairingMiddleware: [{ allowFixes: ['fence_stripped'], completeTruncated: ['search'] }],
  providerSchemas: ['gemini'],
  checkRequestLimits: ['anthropic', { tools: [{ name: 't', parameters: schema }], output: schema }],
  checkTools: [[{ name: 't', parameters: schema }], { providers: ['gemini'] }],
  coerceToolInput: [schema, { a: 'x' }],
  toolCallRepair: [],
};
/** Runs a generator-returning export to its end, so its checks and errors show. */
async function drain(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}
/** Text deltas, afresh for every iteration. */
const deltas = () => ({
  async *[Symbol.asyncIterator]() {
    yield '{"a": ';
    yield '"x"}';
  },
});
const referenceRoot = {
  hasStandardSchemaMarker: reference.standard.hasStandardSchemaMarker,
  isStandardSchemaWithJSON: reference.standard.isStandardSchemaWithJSON,
  standardSchemaToJsonSchema: reference.standard.standardSchemaToJsonSchema,
  assertStandardSchemaObjectRoot: reference.standard.assertStandardSchemaObjectRoot,
  validateStandardSchema: reference.standard.validateStandardSchema,
  toStrictJsonSchema: reference.strict.toOpenAIStrictToolSchema,
  prepareStrictJsonSchema: reference.strict.prepareOpenAIStrictToolSchema,
  assertStrictSchemaPreservesOpenObjects: reference.strict.assertOpenAIStrictToolSchemaPreservesOpenObjects,
};

function engineStillAnswers() {
  assert.deepEqual(root.toStrictJsonSchema(schema).required, ['a']);
  assert.deepEqual(root.parseStructured("```json\n{a: 'x',}\n```", schema).value, { a: 'x' });
  const v = root.compileJsonSchema(schema);
  assert.equal(v.validateJson('{"a":1}').valid, false);
  assert.equal(v.validate({ a: 'y' }).valid, true);
  v.free();
}

test('root entry: every function, and the validator and prepared schema they return', async () => {
  const functions = Object.entries(root).filter(([, f]) => typeof f === 'function' && !isClass(f));
  for (const [name] of functions) {
    if (name === 'init' || name === 'partialOutput' || name.startsWith('engine')) continue;
    assert.ok(validRootArgs[name], `the fuzz knows the arguments of ${name} (add them)`);
  }
  for (const [name, valid] of Object.entries(validRootArgs)) {
    await fuzzCall(name, valid, (args) => root[name](...args), referenceRoot[name] && ((args) => referenceRoot[name](...args)));
  }
  const validator = root.compileJsonSchema(schema);
  await fuzzCall('validator.validate', [{ a: 'x' }], ([v]) => validator.validate(v));
  await fuzzCall('validator.validateJson', ['{"a":"x"}'], ([t]) => validator.validateJson(t));
  await fuzzCall('validator.isValidJson', ['{"a":"x"}'], ([t]) => validator.isValidJson(t));
  validator.free();
  await fuzzCall('partialOutput', [deltas(), schema, { atomic: [] }], (args) => drain(root.partialOutput(...args)));
  const parser = root.compileStructuredParser(schema);
  await fuzzCall('parser.parse', ['{"a": "x"}', { allowFixes: [] }], ([t, o]) => parser.parse(t, o));
  await fuzzCall('parser.partial', ['{"a": "x', { atomic: ['/a'] }], ([t, o]) => parser.partial(t, o));
  parser.free();
  const repair = root.repairText(schema);
  await fuzzCall('repairText()', [{ text: "{a: 'x'}", error: new Error('x') }], ([o]) => repair(o));
  const wrapped = root.repairingModel({ getResponse: async (r) => ({ output: r?.output ?? [] }), getStreamedResponse: async function* () {} });
  await fuzzCall('repairingModel().getResponse', [{ input: 'x', tools: [], outputType: 'text' }], ([r]) => wrapped.getResponse(r));
  await fuzzCall('toStrictJsonSchema(gemini)', [schema, { provider: 'gemini' }], (args) => root.toStrictJsonSchema(...args));
  const forAnthropic = root.prepareStrictJsonSchema(schema, { provider: 'anthropic' });
  await fuzzCall('normalizeInput (anthropic)', [{ a: 'x' }], ([v]) => forAnthropic.normalizeInput(v));
  const middleware = root.repairingMiddleware();
  const generated = { content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: "{a: 'x'}" }], finishReason: { unified: 'stop', raw: 'stop' } };
  const params = { tools: [{ type: 'function', name: 't', inputSchema: schema }], responseFormat: { type: 'json', schema } };
  await fuzzCall('repairingMiddleware().wrapGenerate', [params, generated], ([p, g]) => middleware.wrapGenerate({ doGenerate: async () => g, params: p }));
  const prepared = root.prepareStrictJsonSchema(schema);
  await fuzzCall('normalizeInput', [{ a: null }], ([v]) => prepared.normalizeInput(v));
  // Error classes construct from a message as Error does (the reference's classes extend it).
  for (const [name, Class] of Object.entries(root).filter(([, f]) => isClass(f))) {
    await fuzzCall(`new ${name}`, ['message'], ([m]) => new Class(m), ([m]) => new Error(m));
  }
  engineStillAnswers();
});

test('testing entry: every function, ScriptedModel and the sandbox session', async () => {
  const cwd = process.cwd();
  process.chdir(mkdtempSync(join(tmpdir(), 'understudy-fuzz-'))); // cassette() may write here
  try {
    const valid = {
      assistantMessage: ['hi', {}],
      functionCall: ['tool', { x: 1 }, { callId: 'c' }],
      modelError: [new Error('e'), undefined],
      modelResponder: [() => [testing.assistantMessage('x')]],
      modelResponse: [[testing.assistantMessage('x')]],
      modelStream: [[]],
      modelStreamResponder: [() => []],
      scriptedSandboxSession: [[{ method: 'readFile', result: 'x' }]],
      recordingModel: [{ getResponse: async () => ({ output: [] }), getStreamedResponse: async function* () {} }, {}],
      // An assertion that fails is an AssertionError: hostile values must give that or a TypeError.
      assertToolCalled: [new testing.ScriptedModel([]), 'weather', { city: 'x' }],
      assertToolNotCalled: [new testing.ScriptedModel([]), 'weather'],
      assertToolCalledTimes: [new testing.ScriptedModel([]), 'weather', 0],
      assertToolCallOrder: [new testing.ScriptedModel([]), []],
      assertToolsOffered: [new testing.ScriptedModel([]), []],
      assertToolsAccepted: [[{ name: 't', parameters: schema }], 'openai'],
      scriptedFetch: [[[testing.assistantMessage('x')]], { deltaSize: 3 }],
      fetchResponder: [() => [testing.assistantMessage('x')]],
      providerServer: [[[testing.assistantMessage('x')]], { port: 0 }],
      withFault: [[testing.assistantMessage('x')], { kind: 'disconnect', afterEvents: 1 }],
      overloadedError: [{ retryAfterMs: 10 }],
      embeddingStep: [[[1, 0]]],
      assertRetried: [testing.scriptedFetch([]), { call: 0, after: 1 }],
      recordingFetch: [async () => new Response('{}'), { redact: 'pii' }],
      fetchCassette: ['fuzz', () => async () => new Response('{}'), { record: true }],
    };
    for (const [name, f] of Object.entries(testing)) {
      if (typeof f !== 'function' || isClass(f) || name === 'cassette') continue;
      assert.ok(valid[name], `the fuzz knows the arguments of ${name} (add them)`);
      // A server that starts is closed again.
      const call = name === 'providerServer' ? (args) => f(...args).then((server) => server.close()) : (args) => f(...args);
      await fuzzCall(name, valid[name], call, refTesting[name] && ((args) => refTesting[name](...args)));
    }
    await fuzzCall('cassette', ['fuzz', () => ({ getResponse: async () => ({ output: [] }) }), { mode: 'replay' }], (args) => testing.cassette(...args));
    await fuzzCall('new ScriptedModel', [[[testing.assistantMessage('x')]]], ([steps]) => new testing.ScriptedModel(steps), ([steps]) => new refTesting.ScriptedModel(steps));
    await fuzzCall('ScriptedModel.fromCassette', [{ format: 'understudy-cassette', version: 1, redaction: { keys: [], patterns: [] }, steps: [] }, {}], ([c, o]) => testing.ScriptedModel.fromCassette(c, o));
    const request = { input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false };
    for (const method of ['getResponse', 'getStreamedResponse', 'getRetryAdvice']) {
      await fuzzCall(
        `ScriptedModel.${method}`,
        [request],
        ([r]) => new testing.ScriptedModel([[testing.assistantMessage('x')]])[method](r),
        ([r]) => new refTesting.ScriptedModel([[testing.assistantMessage('x')]])[method](r),
      );
    }
    await fuzzCall('ScriptedModel.enqueue', [[testing.assistantMessage('x')]], ([s]) => new testing.ScriptedModel().enqueue(s), ([s]) => new refTesting.ScriptedModel().enqueue(s));
    const session = () => testing.scriptedSandboxSession([{ method: 'readFile', result: 'x' }]);
    const refSession = () => refTesting.scriptedSandboxSession([{ method: 'readFile', result: 'x' }]);
    for (const method of Object.keys(session()).filter((k) => typeof session()[k] === 'function')) {
      await fuzzCall(`sandbox.${method}`, [{ path: 'a' }], ([a]) => session()[method](a), ([a]) => refSession()[method]?.(a));
    }
  } finally {
    process.chdir(cwd);
  }
  engineStillAnswers();
});

test('AI SDK testing entry: every function, ScriptedLanguageModel and its calls', async () => {
  const cwd = process.cwd();
  process.chdir(mkdtempSync(join(tmpdir(), 'understudy-fuzz-')));
  try {
    const model = () => aiTesting.scriptedLanguageModel([[aiTesting.assistantMessage('x')]]);
    const valid = {
      scriptedLanguageModel: [[[aiTesting.assistantMessage('x')]], { specificationVersion: 'v3', strictTools: 'openai' }],
      reasoning: ['thinking'],
      assistantMessage: ['hi', {}],
      functionCall: ['tool', { x: 1 }, { callId: 'c' }],
      toolCall: ['tool', { x: 1 }, { toolCallId: 'c' }],
      textStep: ['hi'],
      objectStep: [{ category: 'billing' }],
      modelError: [new Error('e'), { suggested: true }],
      modelResponder: [() => [aiTesting.assistantMessage('x')]],
      modelResponse: [[aiTesting.assistantMessage('x')]],
      modelStream: [[]],
      recordingLanguageModel: [model(), {}],
      assertToolCalled: [model(), 'weather', { city: 'x' }],
      assertToolNotCalled: [model(), 'weather'],
      assertToolCalledTimes: [model(), 'weather', 0],
      assertToolCallOrder: [model(), []],
      assertToolsOffered: [model(), []],
      assertToolsAccepted: [{ t: { inputSchema: schema } }, ['anthropic']],
      scriptedFetch: [[aiTesting.textStep('x')], { deltaSize: 3, allowUnofferedTools: true }],
      fetchResponder: [() => aiTesting.textStep('x')],
      providerServer: [[aiTesting.textStep('x')], { port: 0, host: '127.0.0.1' }],
      withFault: [aiTesting.textStep('x'), { kind: 'malformed' }],
      overloadedError: [{ retryAfterMs: 10 }],
      embeddingStep: [[0.5, 0.5]],
      assertRetried: [aiTesting.scriptedFetch([]), { call: 0 }],
      recordingFetch: [async () => new Response('{}'), { redactKeys: ['x-team'], allowSecrets: [/sk-fake/] }],
      fetchCassette: ['fuzz', () => async () => new Response('{}'), { record: true, match: 'request' }],
    };
    for (const [name, f] of Object.entries(aiTesting)) {
      if (typeof f !== 'function' || isClass(f) || name === 'cassette') continue;
      assert.ok(valid[name], `the fuzz knows the arguments of ${name} (add them)`);
      // The step builders check their arguments (a text that is not a string, a schema given as
      // a tool's input), where the reference's take anything: no differential here.
      const call = name === 'providerServer' ? (args) => f(...args).then((server) => server.close()) : (args) => f(...args);
      await fuzzCall(name, valid[name], call);
    }
    // The fetch itself: hostile resources and inits are a TypeError (as fetch's own) or an answer.
    const fetch = aiTesting.scriptedFetch([aiTesting.textStep('x')]);
    await fuzzCall('scriptedFetch()', ['https://api.openai.com/v1/responses', { method: 'POST', body: '{"input":"hi"}' }], ([resource, init]) => fetch(resource, init));
    await fuzzCall('scriptedFetch().enqueue', [aiTesting.textStep('y')], ([step]) => fetch.enqueue(step));
    await fuzzCall('cassette', ['fuzz', () => model(), { record: false }], (args) => aiTesting.cassette(...args));
    await fuzzCall('ScriptedLanguageModel.fromCassette', [{ format: 'understudy-cassette', version: 1, interface: 'language-model', redaction: { keys: [], patterns: [] }, steps: [] }, {}], ([c, o]) => aiTesting.ScriptedLanguageModel.fromCassette(c, o));
    const options = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
    for (const method of ['doGenerate', 'doStream']) {
      await fuzzCall(`ScriptedLanguageModel.${method}`, [options], async ([o]) => {
        const answer = await model()[method](o);
        if (method === 'doStream') for await (const _ of answer.stream);
        return answer;
      });
      await fuzzCall(`RecordingLanguageModel.${method}`, [options], ([o]) => aiTesting.recordingLanguageModel(model())[method](o));
    }
    await fuzzCall('ScriptedLanguageModel.enqueue', [[aiTesting.assistantMessage('x')]], ([s]) => model().enqueue(s));
  } finally {
    process.chdir(cwd);
  }
  engineStillAnswers();
});

test('realtime testing entry: ScriptedRealtimeTransport, every method', async () => {
  const make = () => new realtime.ScriptedRealtimeTransport();
  const makeRef = () => new refRealtime.ScriptedRealtimeTransport();
  await fuzzCall('new ScriptedRealtimeTransport', [{}], ([o]) => new realtime.ScriptedRealtimeTransport(o), ([o]) => new refRealtime.ScriptedRealtimeTransport(o));
  const proto = Object.getPrototypeOf(make());
  const methods = Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, k).value === 'function');
  assert.ok(methods.length > 15, methods.join());
  // An expectation waits for the next call: make one, so it settles.
  const settled = (transport, method, args) => {
    const result = transport[method](...args);
    if (method !== 'expectCall') return result;
    result.catch(() => {}); // read below; the call that settles it may throw the same error
    try {
      transport.sendEvent({ type: 'x' });
    } catch {}
    return result;
  };
  for (const method of methods) {
    const valid = method === 'failNextCall' ? ['sendEvent', new Error('x')] : method === 'expectCall' ? ['sendEvent'] : method === 'on' || method === 'off' ? ['*', () => {}] : [{ type: 'x' }, {}];
    await fuzzCall(`transport.${method}`, valid, (args) => settled(make(), method, args), (args) => settled(makeRef(), method, args));
  }
  await fuzzCall('transport.status =', ['connected'], ([s]) => { make().status = s; });
  await fuzzCall('transport.muted =', [true], ([m]) => { make().muted = m; });
  engineStillAnswers();
});

test('the checks name the function, the argument, what it expects and what it got', () => {
  assert.throws(() => root.parseStructured(undefined, {}), { name: 'TypeError', message: 'parseStructured: text must be a string, got undefined.' });
  assert.throws(() => root.parsePartial(5, {}), { name: 'TypeError', message: 'parsePartial: text must be a string, got a number (5).' });
  const v = root.compileJsonSchema({});
  assert.throws(() => v.validateJson({}), { name: 'TypeError', message: 'validateJson: text must be a string, got an object.' });
  v.free();
  assert.throws(() => root.standardSchemaToJsonSchema(zodLike, 5), (e) => e instanceof root.UserError && /expects 'input' or 'output', not a number \(5\)/.test(e.message));
  assert.throws(() => root.assertStandardSchemaObjectRoot({ type: 'string' }, 5), (e) => e instanceof root.UserError && /^5 /.test(e.message));
  root.assertStandardSchemaObjectRoot({ type: 'object' }, Symbol('fine when it passes'));
  assert.throws(() => new realtime.ScriptedRealtimeTransport().failNextCall(5, new Error('x')), { name: 'TypeError', message: 'failNextCall: method must be the name of a transport method (a string), got a number (5).' });
  assert.throws(() => testing.ScriptedModel.fromCassette(5), { name: 'TypeError' });
  engineStillAnswers();
});
