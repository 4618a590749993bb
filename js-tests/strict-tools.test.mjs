// ScriptedModel's strictTools option: function tools whose parameters OpenAI strict
// mode would refuse as sent fail the call in a unit test, with StrictSchemaError naming the tool
// and the JSON Pointer; without the option ScriptedModel stays the exact drop-in.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { StrictSchemaError } from '@understudy/agents';
import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });
// A raw JSON schema tool with an optional property. The SDK normalizes strict tools itself, so
// this one is not strict: its parameters are sent as written (as those of MCP and hand-made
// FunctionTool objects are), which the option refuses.
const loose = tool({
  name: 'lookup',
  description: 'Looks up an order',
  strict: false,
  parameters: { type: 'object', properties: { id: { type: 'string' }, verbose: { type: 'boolean' } }, required: ['id'], additionalProperties: false },
  execute: async () => 'ok',
});
const zodTool = tool({ name: 'weather', description: 'Forecast', parameters: z.object({ city: z.string() }), execute: async () => 'sunny' });

test('strictTools: a tool declared strict: false goes as OpenAI\'s standard mode takes it', async () => {
  // OpenAI takes an MCP-style tool sent with `strict: false` as it is (the standard mode).
  const model = new ScriptedModel([[assistantMessage('done')]], { strictTools: true });
  const result = await runner().run(new Agent({ name: 'a', model, tools: [loose] }), 'go');
  assert.equal(result.finalOutput, 'done');
  // An open map too; `propertyNames` is refused even in the standard mode.
  const openMap = tool({ name: 'env', description: 'e', strict: false, parameters: { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['env'], additionalProperties: false }, execute: async () => 'ok' });
  const named = tool({ name: 'named', description: 'n', strict: false, parameters: { type: 'object', properties: { env: { type: 'object', propertyNames: { pattern: '^[A-Z]+$' } } }, required: ['env'], additionalProperties: false }, execute: async () => 'ok' });
  assert.equal((await runner().run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('done')]], { strictTools: true }), tools: [openMap] }), 'go')).finalOutput, 'done');
  await assert.rejects(runner().run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('done')]], { strictTools: true }), tools: [named] }), 'go'), (e) => e instanceof StrictSchemaError && e.pointer === '/properties/env/propertyNames' && /OpenAI standard \(non-strict\) mode refuses it: 'propertyNames' is not permitted/.test(e.message));
});

test('strictTools: a tool name the provider refuses fails the call', async () => {
  // @openai/agents' tool() rewrites such a name itself; an MCP tool or a hand-made request does not.
  const request = (name) => ({ input: 'x', modelSettings: {}, tools: [{ type: 'function', name, parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true }], handoffs: [], outputType: 'text', tracing: false });
  await assert.rejects(new ScriptedModel([[assistantMessage('done')]], { strictTools: true }).getResponse(request('files.read')), (e) => e instanceof StrictSchemaError && e.reason === 'invalid_name' && /^Tool "files\.read": OpenAI refuses its name: string does not match pattern/.test(e.message));
  const gemini = (name) => ({ ...request(name), tools: [{ type: 'function', name, parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict: true }] });
  await assert.rejects(new ScriptedModel([[assistantMessage('done')]], { strictTools: 'gemini' }).getResponse(gemini('1password')), (e) => e instanceof StrictSchemaError && e.reason === 'invalid_name' && /Must start with a letter or an underscore/.test(e.message));
  await new ScriptedModel([[assistantMessage('done')]], { strictTools: 'gemini' }).getResponse(gemini('files.read'));
});

test('strictTools: a definition nothing uses is no reason to refuse, as the rule book reads it', async () => {
  const parameters = { type: 'object', properties: {}, required: [], additionalProperties: false, $defs: { unused: { type: 'object', properties: { a: { type: 'string' } } } } };
  const request = { input: 'x', modelSettings: {}, tools: [{ type: 'function', name: 'ping', parameters, strict: true }], handoffs: [], outputType: 'text', tracing: false };
  await new ScriptedModel([[assistantMessage('done')]], { strictTools: true }).getResponse(request);
});

test('strictTools: in a strict mode named, a tool whose parameters strict mode refuses fails the call with StrictSchemaError', async () => {
  const model = new ScriptedModel([[assistantMessage('done')]], { strictTools: 'openai:strict' });
  await assert.rejects(runner().run(new Agent({ name: 'a', model, tools: [loose] }), 'go'), (e) => {
    assert.ok(e instanceof StrictSchemaError, `${e?.name}: ${e?.message}`);
    assert.equal(e.reason, 'not_strict');
    assert.match(e.message, /^Tool "lookup": OpenAI strict mode refuses its parameters as sent/);
    assert.ok(e.pointer === '/required' || e.pointer.startsWith('/properties/verbose'), e.pointer);
    return true;
  });
  assert.equal(model.calls.length, 1, 'the call is recorded');
  assert.equal(model.remainingSteps, 1, 'no step was taken');
});

test('strictTools: tools the SDK made strict (Zod) pass, and the run goes on', async () => {
  const model = new ScriptedModel([[assistantMessage('done')]], { strictTools: true });
  const result = await runner().run(new Agent({ name: 'a', model, tools: [zodTool] }), 'go');
  assert.equal(result.finalOutput, 'done');
});

test('without the option ScriptedModel does not check tools; bad options are refused', async () => {
  const model = new ScriptedModel([[assistantMessage('done')]]);
  const result = await runner().run(new Agent({ name: 'a', model, tools: [loose] }), 'go');
  assert.equal(result.finalOutput, 'done');
  assert.throws(() => new ScriptedModel([], { strictTools: 'yes' }), { name: 'UserError', message: "strictTools: provider must be one of 'openai', 'anthropic', 'gemini', 'openai:strict', 'openai:standard', 'anthropic:standard', 'anthropic:strict', 'gemini:openapi', 'gemini:json', got yes." });
  assert.throws(() => new ScriptedModel([], { strictTools: 2 }), { name: 'TypeError', message: 'new ScriptedModel: options.strictTools must be a boolean, a provider or an array of providers, got a number (2).' });
  assert.throws(() => new ScriptedModel([], { strict: true }), { name: 'TypeError', message: /unknown option `strict`/ });
});

test('strictTools on cassette replay', async () => {
  const cassette = { format: 'understudy-cassette', version: 1, redaction: { keys: [], patterns: [] }, steps: [] };
  const replay = ScriptedModel.fromCassette(cassette, { strictTools: true });
  await assert.rejects(replay.getResponse({ input: 'x', modelSettings: {}, tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict: true }], handoffs: [], outputType: 'text', tracing: false }), (e) => e instanceof StrictSchemaError && e.pointer === '/additionalProperties');
});
