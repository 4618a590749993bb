// Tool sets at run time: providerSchemas' `refused: 'omit'` in a real generateText tool loop,
// coerceToolInput's rules both ways and the cases it must refuse, and toolCallRepair as the
// AI SDK's experimental_repairToolCall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { generateText, streamText, stepCountIs, tool, wrapLanguageModel, jsonSchema } from 'ai';
import { coerceToolInput, providerSchemas, toolCallRepair, StrictSchemaError, StructuredParseError, UserError } from '@understudy/agents';
import { scriptedLanguageModel, toolCall, textStep } from '@understudy/agents/ai-sdk/testing';

/** A tool set where Anthropic refuses one tool (recursion) and takes the others. */
function tools(log) {
  const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name', 'children'] };
  return {
    weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => (log.push(`weather ${city}`), `sunny in ${city}`) }),
    tree: tool({ inputSchema: jsonSchema(node), execute: async () => (log.push('tree'), 'ok') }),
    time: tool({ inputSchema: z.object({ zone: z.string() }), execute: async ({ zone }) => (log.push(`time ${zone}`), `noon in ${zone}`) }),
  };
}

for (const streamed of [false, true]) {
  test(`providerSchemas refused: 'omit' leaves the refused tool out of each call, the others work (${streamed ? 'streamText' : 'generateText'})`, async () => {
    const model = scriptedLanguageModel([[toolCall('weather', { city: 'Paris' })], [toolCall('time', { zone: 'CET' })], textStep('done')]);
    const omitted = [];
    const wrapped = wrapLanguageModel({ model, middleware: providerSchemas('anthropic', { refused: 'omit', onRefused: (t) => omitted.push(t) }) });
    const log = [];
    const options = { model: wrapped, prompt: 'go', tools: tools(log), stopWhen: stepCountIs(5) };
    let steps;
    if (streamed) {
      const result = streamText(options);
      await result.consumeStream();
      steps = await result.steps;
    } else {
      steps = (await generateText(options)).steps;
    }
    assert.deepEqual(log, ['weather Paris', 'time CET']);
    assert.equal(model.calls.length, 3);
    for (const call of model.calls) assert.deepEqual(call.options.tools.map((t) => t.name), ['weather', 'time']);
    assert.equal(omitted.length, 3, 'reported once per call');
    assert.deepEqual(
      { ...omitted[0], message: undefined },
      { toolName: 'tree', provider: 'anthropic', reason: 'recursive', pointer: '/properties/children/items', message: undefined },
    );
    assert.match(omitted[0].message, /Anthropic/);
    for (const step of steps) assert.deepEqual(step.providerMetadata.understudy.omittedTools.map((t) => t.toolName), ['tree']);
  });
}

test("providerSchemas: 'throw' stays the default; a tool the call's toolChoice names throws even with 'omit'", async () => {
  const log = [];
  const run = (middleware, extra = {}) => generateText({ model: wrapLanguageModel({ model: scriptedLanguageModel([textStep('x')]), middleware }), prompt: 'go', tools: tools(log), ...extra });
  // The refusal names the tool, in its fields and its message.
  await assert.rejects(run(providerSchemas('anthropic')), (e) => e instanceof StrictSchemaError && e.reason === 'recursive' && e.toolName === 'tree' && /^Tool `tree`: Anthropic cannot take this schema/.test(e.message));
  await assert.rejects(run(providerSchemas('anthropic', { refused: 'omit' }), { toolChoice: { type: 'tool', toolName: 'tree' } }), StrictSchemaError);
  // Nothing refused: no metadata added.
  const clean = await generateText({ model: wrapLanguageModel({ model: scriptedLanguageModel([textStep('x')]), middleware: providerSchemas('gemini', { refused: 'omit' }) }), prompt: 'go', tools: { weather: tools(log).weather } });
  assert.equal(clean.providerMetadata?.understudy, undefined);
  assert.throws(() => providerSchemas('anthropic', { refused: 'skip' }), (e) => e instanceof UserError && /`refused` must be 'throw' or 'omit', got a string/.test(e.message));
  assert.throws(() => providerSchemas('anthropic', { onRefused: 1 }), UserError);
  assert.throws(() => providerSchemas('anthropic', { omit: true }), TypeError);
});

test('coerceToolInput: each rule, both ways', () => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      ratio: { type: 'number' },
      label: { type: 'string' },
      on: { type: 'boolean' },
      word: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      one: { type: 'integer' },
      level: { enum: ['low', 'high'] },
      note: { type: 'string' },
    },
    required: ['count', 'ratio', 'label', 'on', 'word', 'tags', 'one', 'level'],
  };
  const { value, fixes } = coerceToolInput(schema, { count: '10', ratio: '0.5', label: 42, on: 'true', word: false, tags: 'a', one: [7], level: 'HIGH', note: null });
  assert.deepEqual(value, { count: 10, ratio: 0.5, label: '42', on: true, word: 'false', tags: ['a'], one: 7, level: 'high' });
  assert.deepEqual(fixes.map((f) => [f.kind, f.pointer]).sort(), [
    ['array_to_single', '/one'],
    ['boolean_to_string', '/word'],
    ['enum_case', '/level'],
    ['null_dropped', '/note'],
    ['number_to_string', '/label'],
    ['single_to_array', '/tags'],
    ['string_to_boolean', '/on'],
    ['string_to_number', '/count'],
    ['string_to_number', '/ratio'],
  ]);
  // Already fitting: as given, no fixes. A Zod schema works as its JSON Schema.
  assert.deepEqual(coerceToolInput(z.object({ n: z.number() }), { n: 1 }), { value: { n: 1 }, fixes: [] });
});

test('coerceToolInput refuses what it cannot read without guessing, with the pointer', () => {
  // One candidate (the value itself): its pointer is where it stopped fitting.
  const refuses = (schema, value, reason, pointer) =>
    assert.throws(() => coerceToolInput(schema, value), (e) => e instanceof StructuredParseError && e.reason === reason && e.candidates.length === 1 && e.candidates[0].pointer === pointer && e.pointer === pointer, JSON.stringify(value));
  refuses({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, { n: 'ten' }, 'type_mismatch', '/n');
  refuses({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, { n: '1.5' }, 'type_mismatch', '/n');
  refuses({ enum: ['foo', 'FOO'] }, 'Foo', 'ambiguous', '');
  refuses({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, {}, 'missing_required', '/n');
  // No invented values, no dropped keys.
  refuses({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }, { a: 'x', b: 1 }, 'fix_not_allowed', '/b');
});

test('toolCallRepair repairs a call against its schema, never completes a cut-off one', async () => {
  const repair = toolCallRepair();
  const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] };
  const call = (input) => ({ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input });
  const options = (input, error = { name: 'AI_InvalidToolInputError' }) => ({ toolCall: call(input), inputSchema: async () => schema, error, tools: {}, messages: [], system: undefined });
  assert.deepEqual(await repair(options("```json\n{city: 'Paris', days: '3',}\n```")), call('{"city":"Paris","days":3}'));
  assert.equal(await repair(options('{"city": "Paris", "days": 3')), null, 'a cut-off call stays refused');
  assert.equal(await repair(options('{"city": "Paris", "days": "soon"}')), null);
  assert.equal(await repair(options('{}', { name: 'AI_NoSuchToolError' })), null);
  await assert.rejects(repair(undefined), TypeError);

  // Through the SDK: a broken call is repaired and the tool runs with the repaired input.
  const ran = [];
  const model = scriptedLanguageModel([[toolCall('weather', "{city: 'Paris', days: '2',}")], textStep('done')]);
  const result = await generateText({
    model,
    prompt: 'go',
    tools: { weather: tool({ inputSchema: z.object({ city: z.string(), days: z.number().int() }), execute: async (input) => (ran.push(input), 'sunny') }) },
    stopWhen: stepCountIs(3),
    experimental_repairToolCall: repair,
  });
  assert.deepEqual(ran, [{ city: 'Paris', days: 2 }]);
  assert.equal(result.text, 'done');
});
