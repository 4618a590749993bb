// Repair never invents a value someone acts on: a tool call or final output the reply was cut
// off inside of is left as it came (the SDK raises its usual error), with the real
// @openai/agents Runner and the AI SDK's real generateText / streamText.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, Usage, tool } from '@openai/agents';
import { z } from 'zod';
import { repairText, repairingMiddleware, repairingModel, UserError } from '@understudy/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });

function deletePath(seen) {
  return tool({
    name: 'delete_path',
    description: 'Deletes a file or directory',
    parameters: z.object({ path: z.string(), recursive: z.boolean() }),
    execute: async (args) => {
      seen.push(args);
      return 'deleted';
    },
  });
}

const CUTS = [
  ['inside a string', '{"recursive": true, "path": "/home/user/tm', '/path', 'string'],
  ['inside a literal', '{"path": "/home/user/tmp", "recursive": tr', '/recursive', 'literal'],
  ['inside the open object', '{"path": "/home/user/tmp", "recursive": true', '', 'object'],
];

for (const [where, args, pointer, inside] of CUTS) {
  test(`a tool call cut off ${where} never runs the tool, and the refusal is reported`, async () => {
    const seen = [];
    const repairs = [];
    const refusals = [];
    const script = [[functionCall('delete_path', args, { callId: 'call_1' })], [assistantMessage('I could not delete it.')]];
    const model = repairingModel(new ScriptedModel(script), { onRepair: (r) => repairs.push(r), onRefusal: (r) => refusals.push(r) });
    const result = await runner().run(new Agent({ name: 'a', model, tools: [deletePath(seen)] }), 'clean up');
    assert.deepEqual(seen, [], 'the tool never ran');
    assert.equal(result.finalOutput, 'I could not delete it.');
    assert.deepEqual(repairs, []);
    assert.equal(refusals.length, 1);
    assert.deepEqual(
      { ...refusals[0], message: undefined },
      { kind: 'tool_arguments', toolName: 'delete_path', callId: 'call_1', reason: 'truncated', pointer, inside, message: undefined },
    );
    assert.match(refusals[0].message, /the text ends inside an? \w+ at /);
  });
}

test('a complete but broken tool call runs the tool with the typed value', async () => {
  const seen = [];
  const repairs = [];
  const script = [[functionCall('delete_path', "{path: '/home/user/tmp', recursive: 'true',}", { callId: 'call_2' })], [assistantMessage('Done.')]];
  const model = repairingModel(new ScriptedModel(script), { onRepair: (r) => repairs.push(r) });
  await runner().run(new Agent({ name: 'a', model, tools: [deletePath(seen)] }), 'clean up');
  assert.deepEqual(seen, [{ path: '/home/user/tmp', recursive: true }]);
  assert.equal(repairs.length, 1);
  // One entry per kind of repair, with its count and each pointer once.
  assert.deepEqual(
    repairs[0].fixes.map((f) => [f.kind, f.count, f.pointers]),
    [
      ['unquoted_key', 2, ['']],
      ['single_quotes', 2, ['/path', '/recursive']],
      ['trailing_comma_removed', 1, ['']],
      ['string_to_boolean', 1, ['/recursive']],
    ],
  );
});

test('a response that says it was cut off is never repaired, even where the arguments look complete', async () => {
  const seen = [];
  const refusals = [];
  let turn = 0;
  const inner = {
    async getResponse() {
      turn += 1;
      if (turn === 2) return { output: [assistantMessage('Stopped.')], usage: new Usage() };
      return {
        output: [functionCall('delete_path', "{path: '/home/user/tmp', recursive: true}", { callId: 'call_3' })],
        usage: new Usage(),
        providerData: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      };
    },
    async *getStreamedResponse() {},
  };
  const model = repairingModel(inner, { onRefusal: (r) => refusals.push(r) });
  await runner().run(new Agent({ name: 'a', model, tools: [deletePath(seen)] }), 'clean up');
  assert.deepEqual(seen, []);
  assert.equal(refusals.length, 1);
  assert.equal(refusals[0].reason, 'response_truncated');
  assert.match(refusals[0].message, /the response ended with `max_output_tokens`; a cut-off response is not repaired/);
  // Chat Completions' finish_reason says the same.
  const chat = repairingModel(
    { getResponse: async () => ({ output: [functionCall('delete_path', "{path: '/tmp', recursive: true}", { callId: 'c' })], providerData: { choices: [{ finish_reason: 'length' }] } }), getStreamedResponse: async function* () {} },
    { onRefusal: (r) => refusals.push(r) },
  );
  const request = { input: 'x', modelSettings: {}, tools: [{ type: 'function', name: 'delete_path', parameters: { type: 'object', properties: { path: { type: 'string' }, recursive: { type: 'boolean' } }, required: ['path', 'recursive'], additionalProperties: false }, strict: true }], handoffs: [], tracing: false };
  const response = await chat.getResponse(request);
  assert.equal(response.output[0].arguments, "{path: '/tmp', recursive: true}");
  assert.equal(refusals[1].reason, 'response_truncated');
});

test('a final output cut off inside its value is not accepted as the answer', async () => {
  const Ticket = z.object({ title: z.string(), priority: z.enum(['low', 'high']) });
  const refusals = [];
  const cut = 'Here you go:\n```json\n{"title": "Delete the old backups", "priority": "hi';
  const model = repairingModel(new ScriptedModel([[assistantMessage(cut)]]), { onRefusal: (r) => refusals.push(r) });
  await assert.rejects(runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'ticket'), (e) => e.name === 'ModelBehaviorError');
  assert.deepEqual(refusals.map((r) => [r.kind, r.reason, r.pointer, r.inside]), [['output', 'truncated', '/priority', 'string']]);
});

test('completeTruncated opts in, per tool or for all, and is checked at once', async () => {
  const seen = [];
  const search = tool({
    name: 'search',
    description: 'Searches',
    parameters: z.object({ query: z.string() }),
    execute: async (args) => {
      seen.push(['search', args]);
      return 'results';
    },
  });
  const script = () => [
    [functionCall('search', '{"query": "rust wasm bind', { callId: 's1' }), functionCall('delete_path', '{"path": "/home/user/tm', { callId: 'd1' })],
    [assistantMessage('ok')],
  ];
  const repairs = [];
  const model = repairingModel(new ScriptedModel(script()), { completeTruncated: ['search'], onRepair: (r) => repairs.push(r) });
  await runner().run(new Agent({ name: 'a', model, tools: [search, deletePath(seen)] }), 'go');
  assert.deepEqual(seen, [['search', { query: 'rust wasm bind' }]], 'the named read-only tool ran; delete_path did not');
  assert.equal(repairs.length, 1);
  assert.deepEqual(repairs[0].fixes.find((f) => f.kind === 'closed_at_end'), {
    kind: 'closed_at_end',
    count: 1,
    pointers: ['/query'],
    details: ['the reply was cut off inside a string; the value was completed where the text ends'],
  });
  assert.throws(() => repairingModel(new ScriptedModel([]), { completeTruncated: 'yes' }), (e) => e instanceof UserError && /completeTruncated` must be true, false or an array of tool names, got yes\./.test(e.message));
  assert.throws(() => repairingModel(new ScriptedModel([]), { onRefusal: 1 }), { name: 'TypeError', message: /onRefusal must be a function/ });
  assert.throws(() => repairingMiddleware({ completeTruncated: [1] }), UserError);
  assert.throws(() => repairingMiddleware({ onrepair() {} }), { name: 'TypeError', message: /repairingMiddleware: unknown option `onrepair`/ });
});

// --- the AI SDK ------------------------------------------------------------------------------

const BROKEN = 'Sure! Here is the ticket: ```json {title: \'Fix login\', priority: "HIGH", estimate: "3",} ``` Anything else?';
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const stop = { unified: 'stop', raw: 'stop' };
const TicketZ = z.object({ title: z.string(), priority: z.enum(['low', 'medium', 'high']), estimate: z.number() });
const ticketSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, priority: { enum: ['low', 'medium', 'high'] }, estimate: { type: 'number' } },
  required: ['title', 'priority', 'estimate'],
  additionalProperties: false,
};

async function sdk() {
  const ai = await import('ai');
  const aiTest = await import('ai/test');
  return { ...ai, ...aiTest };
}

test('AI SDK: generateText with Output.object reads the broken reply (Zod and jsonSchema)', async () => {
  const { generateText, Output, wrapLanguageModel, jsonSchema, MockLanguageModelV3 } = await sdk();
  const mock = () => new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: BROKEN }], finishReason: stop, usage, warnings: [] }) });
  await assert.rejects(generateText({ model: mock(), output: Output.object({ schema: TicketZ }), prompt: 'ticket' }), (e) => e.name === 'AI_NoObjectGeneratedError');
  for (const schema of [TicketZ, jsonSchema(ticketSchema)]) {
    const repairs = [];
    const model = wrapLanguageModel({ model: mock(), middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }) });
    const { output } = await generateText({ model, output: Output.object({ schema }), prompt: 'ticket' });
    assert.deepEqual(output, { title: 'Fix login', priority: 'high', estimate: 3 });
    assert.equal(repairs.length, 1);
    assert.equal(repairs[0].kind, 'output');
  }
});

test('AI SDK: a clean reply keeps its exact text and reports nothing', async () => {
  const { generateText, Output, wrapLanguageModel, MockLanguageModelV3 } = await sdk();
  const clean = '{"title":"Fix login","priority":"high","estimate":3}';
  const reports = [];
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: clean }], finishReason: stop, usage, warnings: [] }) }),
    middleware: repairingMiddleware({ onRepair: (r) => reports.push(r), onRefusal: (r) => reports.push(r) }),
  });
  const result = await generateText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
  assert.equal(result.text, clean);
  assert.deepEqual(reports, []);
});

function toolLoopModel(MockLanguageModelV3, input, finishReason) {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      call += 1;
      if (call === 1) return { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'delete_path', input }], finishReason, usage, warnings: [] };
      return { content: [{ type: 'text', text: 'Done.' }], finishReason: stop, usage, warnings: [] };
    },
  });
}

test('AI SDK: a tool loop runs the tool with the repaired, typed input', async () => {
  const { generateText, stepCountIs, tool: aiTool, wrapLanguageModel, MockLanguageModelV3 } = await sdk();
  const seen = [];
  const tools = { delete_path: aiTool({ description: 'Deletes', inputSchema: z.object({ path: z.string(), recursive: z.boolean() }), execute: async (args) => (seen.push(args), 'deleted') }) };
  const input = "{path: '/home/user/tmp', recursive: 'true',}";
  await generateText({ model: toolLoopModel(MockLanguageModelV3, input, { unified: 'tool-calls', raw: 'tool_calls' }), tools, stopWhen: stepCountIs(3), prompt: 'clean up' });
  assert.deepEqual(seen, [], 'without the middleware the SDK refuses the input');
  const repairs = [];
  const model = wrapLanguageModel({ model: toolLoopModel(MockLanguageModelV3, input, { unified: 'tool-calls', raw: 'tool_calls' }), middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }) });
  const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'clean up' });
  assert.deepEqual(seen, [{ path: '/home/user/tmp', recursive: true }]);
  assert.equal(result.text, 'Done.');
  assert.deepEqual(repairs.map((r) => [r.kind, r.toolName, r.callId]), [['tool_arguments', 'delete_path', 'call_1']]);
});

test('AI SDK: a tool input cut off with finishReason length never runs the tool', async () => {
  const { generateText, stepCountIs, tool: aiTool, wrapLanguageModel, MockLanguageModelV3 } = await sdk();
  const seen = [];
  const tools = { delete_path: aiTool({ description: 'Deletes', inputSchema: z.object({ path: z.string(), recursive: z.boolean() }), execute: async (args) => (seen.push(args), 'deleted') }) };
  for (const input of ['{"recursive": true, "path": "/home/user/tm', "{path: '/home/user/tmp', recursive: true}"]) {
    const refusals = [];
    const model = wrapLanguageModel({ model: toolLoopModel(MockLanguageModelV3, input, { unified: 'length', raw: 'max_tokens' }), middleware: repairingMiddleware({ onRefusal: (r) => refusals.push(r) }) });
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'clean up' });
    assert.deepEqual(seen, [], input);
    assert.deepEqual(refusals.map((r) => [r.reason, r.toolName, r.callId]), [['response_truncated', 'delete_path', 'call_1']]);
  }
});

test('AI SDK: a whole tool call of a step cut by length is withheld, not run (generateText and streamText)', async () => {
  const { generateText, streamText, stepCountIs, tool: aiTool, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  // Anthropic (non-streamed) and Gemini send arguments as objects: a call cut by max_tokens
  // reads as whole JSON; only the finish reason says it may be cut short.
  const input = '{"path": "/home/user/tmp", "recursive": true}';
  const length = { unified: 'length', raw: 'max_tokens' };
  const seen = [];
  const tools = () => ({ delete_path: aiTool({ description: 'Deletes', inputSchema: z.object({ path: z.string(), recursive: z.boolean() }), execute: async (args) => (seen.push(args), 'deleted') }) });
  const streamOf = () =>
    new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'call_1', toolName: 'delete_path', input }, { type: 'finish', finishReason: length, usage }] }) }),
    });
  for (const streamed of [false, true]) {
    const refusals = [];
    const middleware = repairingMiddleware({ onRefusal: (r) => refusals.push(r) });
    const options = { tools: tools(), stopWhen: stepCountIs(3), prompt: 'clean up' };
    let steps;
    if (streamed) {
      const result = streamText({ ...options, model: wrapLanguageModel({ model: streamOf(), middleware }) });
      await result.consumeStream();
      steps = await result.steps;
    } else {
      steps = (await generateText({ ...options, model: wrapLanguageModel({ model: toolLoopModel(MockLanguageModelV3, input, length), middleware }) })).steps;
    }
    assert.deepEqual(seen, [], `streamed: ${streamed}`);
    assert.deepEqual(steps[0].toolCalls, [], 'the call is not passed on');
    assert.deepEqual(
      refusals.map((r) => [r.kind, r.reason, r.toolName, r.callId, r.withheld, r.input]),
      [['tool_arguments', 'response_truncated', 'delete_path', 'call_1', true, input]],
    );
    assert.match(refusals[0].message, /the response ended with `length`; the call may be cut short although its arguments are whole JSON, so it is not passed on/);
    assert.deepEqual(steps[0].providerMetadata.understudy.refusals.map((r) => r.withheld), [true]);
  }
  // completeTruncated naming the tool passes it on: the user's choice (what the SDK then does
  // with a call of a `length` step is its own).
  const model = wrapLanguageModel({ model: toolLoopModel(MockLanguageModelV3, input, length), middleware: repairingMiddleware({ completeTruncated: ['delete_path'] }) });
  const passed = await generateText({ model, tools: tools(), stopWhen: stepCountIs(3), prompt: 'clean up' });
  assert.deepEqual(passed.steps[0].toolCalls.map((c) => c.input), [{ path: '/home/user/tmp', recursive: true }]);
});

test('@openai/agents: a whole function call of a cut-off response is withheld, not run', async () => {
  const seen = [];
  const refusals = [];
  let turn = 0;
  const inner = {
    async getResponse() {
      turn += 1;
      if (turn > 1) return { output: [assistantMessage('Stopped.')], usage: new Usage() };
      return {
        output: [assistantMessage('Deleting.'), functionCall('delete_path', '{"path": "/home/user/tmp", "recursive": true}', { callId: 'call_9' })],
        usage: new Usage(),
        providerData: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      };
    },
    async *getStreamedResponse() {},
  };
  const model = repairingModel(inner, { onRefusal: (r) => refusals.push(r) });
  const result = await runner().run(new Agent({ name: 'a', model, tools: [deletePath(seen)] }), 'clean up');
  assert.deepEqual(seen, []);
  assert.equal(result.finalOutput, 'Deleting.', 'the cut response ends the run with its text, without the call');
  assert.deepEqual(refusals.map((r) => [r.reason, r.callId, r.withheld, r.input]), [['response_truncated', 'call_9', true, '{"path": "/home/user/tmp", "recursive": true}']]);
});

test('AI SDK: streamText with Output.object: the output is the repaired value, partial outputs never contradict it', async () => {
  const { streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const chunks = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }];
  for (let i = 0; i < BROKEN.length; i += 7) chunks.push({ type: 'text-delta', id: 't1', delta: BROKEN.slice(i, i + 7) });
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish', finishReason: stop, usage });
  const mock = () => new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks }) }) });
  const repairs = [];
  const model = wrapLanguageModel({ model: mock(), middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }) });
  const result = streamText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
  const partials = [];
  for await (const partial of result.partialOutputStream) partials.push(partial);
  const final = { title: 'Fix login', priority: 'high', estimate: 3 };
  assert.deepEqual(await result.output, final);
  assert.ok(partials.length >= 1);
  for (const partial of partials) {
    for (const [key, value] of Object.entries(partial)) assert.deepEqual(value, final[key], `partial ${key} agrees with the final value`);
  }
  assert.equal(repairs.length, 1);
});

test('AI SDK: streamed tool calls are held until the finish reason is known', async () => {
  const { streamText, stepCountIs, tool: aiTool, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const streamOf = (input, finishReason) => {
    let call = 0;
    return new MockLanguageModelV3({
      doStream: async () => {
        call += 1;
        const chunks =
          call === 1
            ? [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'call_1', toolName: 'delete_path', input }, { type: 'finish', finishReason, usage }]
            : [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: stop, usage }];
        return { stream: simulateReadableStream({ chunks }) };
      },
    });
  };
  const seen = [];
  const tools = { delete_path: aiTool({ description: 'Deletes', inputSchema: z.object({ path: z.string(), recursive: z.boolean() }), execute: async (args) => (seen.push(args), 'deleted') }) };
  const broken = "{path: '/home/user/tmp', recursive: 'true',}";
  const run = async (input, finishReason) => {
    const model = wrapLanguageModel({ model: streamOf(input, finishReason), middleware: repairingMiddleware() });
    const result = streamText({ model, tools, stopWhen: stepCountIs(3), prompt: 'clean up' });
    await result.consumeStream();
    return result.text;
  };
  assert.equal(await run(broken, { unified: 'tool-calls', raw: 'tool_calls' }), 'Done.');
  assert.deepEqual(seen, [{ path: '/home/user/tmp', recursive: true }]);
  await run(broken, { unified: 'length', raw: 'length' });
  await run('{"recursive": true, "path": "/home/user/tm', { unified: 'tool-calls', raw: 'tool_calls' });
  assert.equal(seen.length, 1, 'cut-off calls never ran');
});

test('AI SDK: Output.array reads a one-element reply as it reads two (MockLanguageModelV3 and V4)', async () => {
  const { generateText, Output, wrapLanguageModel, MockLanguageModelV3, MockLanguageModelV4 } = await sdk();
  const element = z.object({ x: z.number() });
  for (const Mock of [MockLanguageModelV3, MockLanguageModelV4]) {
    for (const [reply, want] of [
      ['[{"x":1}]', [{ x: 1 }]],
      ['[{"x":1},{"x":2}]', [{ x: 1 }, { x: 2 }]],
      ['Here you go:\n```json\n[{"x": 1,}]\n```', [{ x: 1 }]],
    ]) {
      const repairs = [];
      const model = wrapLanguageModel({
        model: new Mock({ doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: stop, usage, warnings: [] }) }),
        middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }),
      });
      const { output } = await generateText({ model, output: Output.array({ element }), prompt: 'list' });
      assert.deepEqual(output, want, `${Mock.name}: ${reply}`);
      assert.ok(repairs[0]?.fixes.some((f) => f.kind === 'array_to_object'), `${Mock.name}: ${reply}`);
    }
  }
});

test('AI SDK: Output.choice reads a bare, quoted or prose choice (MockLanguageModelV3 and V4)', async () => {
  const { generateText, Output, wrapLanguageModel, MockLanguageModelV3, MockLanguageModelV4 } = await sdk();
  for (const Mock of [MockLanguageModelV3, MockLanguageModelV4]) {
    for (const [reply, want] of [
      ['rainy', 'rainy'],
      ['"snowy"', 'snowy'],
      ['The weather will most likely be rainy.', 'rainy'],
    ]) {
      const repairs = [];
      const model = wrapLanguageModel({
        model: new Mock({ doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: stop, usage, warnings: [] }) }),
        middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }),
      });
      const { output } = await generateText({ model, output: Output.choice({ options: ['sunny', 'rainy', 'snowy'] }), prompt: 'weather?' });
      assert.equal(output, want, `${Mock.name}: ${reply}`);
      assert.ok(repairs[0].fixes.some((f) => f.kind === 'value_to_object'), `${Mock.name}: ${reply}`);
    }
  }
});

test('repairText returns the repaired text and leaves validation to the SDK, for every library', async () => {
  const { generateObject, MockLanguageModelV3 } = await sdk();
  const { toStandardJsonSchema } = await import('@valibot/to-json-schema');
  const v = await import('valibot');
  const reply = "{email: 'not-an-address', n: 1,}";
  const schemas = {
    zod: z.object({ email: z.email(), n: z.number().min(5) }),
    valibot: toStandardJsonSchema(v.object({ email: v.pipe(v.string(), v.email()), n: v.pipe(v.number(), v.minValue(5)) })),
  };
  for (const [library, schema] of Object.entries(schemas)) {
    assert.equal(await repairText(schema)({ text: reply, error: new Error('x') }), '{"email":"not-an-address","n":1}', library);
  }
  // The SDK then refuses the value with its own error. (It does not run a Valibot adapter's
  // validate: ai 7 reads only its JSON Schema, so only Zod is asked here.)
  const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: stop, usage, warnings: [] }) });
  await assert.rejects(generateObject({ model, schema: schemas.zod, prompt: 'p', repairText: repairText(schemas.zod) }), (e) => e.name === 'AI_NoObjectGeneratedError');
});

test('AI SDK: the preamble of a tool-calling step is not an output, so it is neither read nor refused (V3 and V4)', async () => {
  const { generateText, Output, stepCountIs, tool: aiTool, wrapLanguageModel, MockLanguageModelV3, MockLanguageModelV4 } = await sdk();
  for (const Mock of [MockLanguageModelV3, MockLanguageModelV4]) {
    let call = 0;
    const mock = new Mock({
      doGenerate: async () => {
        call += 1;
        if (call === 1) return { content: [{ type: 'text', text: 'Let me look that up.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"login"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
        return { content: [{ type: 'text', text: BROKEN }], finishReason: stop, usage, warnings: [] };
      },
    });
    const refusals = [];
    const repairs = [];
    const model = wrapLanguageModel({ model: mock, middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r), onRefusal: (r) => refusals.push(r) }) });
    const tools = { lookup: aiTool({ description: 'Looks up', inputSchema: z.object({ q: z.string() }), execute: async () => 'found' }) };
    const { output } = await generateText({ model, tools, stopWhen: stepCountIs(3), output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
    assert.deepEqual(output, { title: 'Fix login', priority: 'high', estimate: 3 }, Mock.name);
    assert.deepEqual(refusals, [], `${Mock.name}: nothing refused`);
    assert.deepEqual(repairs.map((r) => r.kind), ['output'], Mock.name);
  }
});

test("repairText with generateObject's output 'array' and 'enum': the wrapper schema is the one to give", async () => {
  const { generateObject, MockLanguageModelV3 } = await sdk();
  const Item = z.object({ x: z.number() });
  const reply = (text) => new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: stop, usage, warnings: [] }) });
  const broken = "```json\n{elements: [{x: '1'}, {x: 2},]}\n```";
  const { object } = await generateObject({ model: reply(broken), output: 'array', schema: Item, prompt: 'p', repairText: repairText(z.object({ elements: z.array(Item) })) });
  assert.deepEqual(object, [{ x: 1 }, { x: 2 }]);
  // The element schema alone does not read the wrapper: no repair, the SDK's own error.
  assert.equal(await repairText(Item)({ text: broken, error: new Error('x') }), null);
  const choice = await generateObject({ model: reply("{result: 'RAINY'}"), output: 'enum', enum: ['sunny', 'rainy'], prompt: 'p', repairText: repairText({ type: 'object', properties: { result: { type: 'string', enum: ['sunny', 'rainy'] } }, required: ['result'] }) });
  assert.equal(choice.object, 'rainy');
});

/** A text streamed by a mock in `size`-character deltas, `delay` ms apart. */
function streamedModel(Mock, simulateReadableStream, text, { size = 6, delay = 0 } = {}) {
  const chunks = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }];
  for (let i = 0; i < text.length; i += size) chunks.push({ type: 'text-delta', id: 't1', delta: text.slice(i, i + size) });
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish', finishReason: stop, usage });
  return new Mock({ doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: delay }) }) });
}

test('AI SDK: streamText with Output.object through the middleware renders progressively: a clean prefix passes as it arrives (V3 and V4)', async () => {
  const { streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3, MockLanguageModelV4 } = await sdk();
  const clean = '{"title": "Fix the login page", "priority": "high", "estimate": 3}';
  for (const Mock of [MockLanguageModelV3, MockLanguageModelV4]) {
    const timings = {};
    for (const wrapped of [false, true]) {
      const inner = streamedModel(Mock, simulateReadableStream, clean, { delay: 20 });
      const model = wrapped ? wrapLanguageModel({ model: inner, middleware: repairingMiddleware() }) : inner;
      const started = performance.now();
      const result = streamText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
      const partials = [];
      for await (const partial of result.partialOutputStream) partials.push([performance.now() - started, partial]);
      assert.deepEqual(await result.output, { title: 'Fix the login page', priority: 'high', estimate: 3 });
      assert.equal(await result.text, clean, 'a clean text is sent as it came');
      timings[wrapped] = { first: partials[0][0], count: partials.length, total: performance.now() - started };
    }
    // As many partials as without the middleware, the first long before the end (12 deltas of 20 ms).
    assert.ok(timings.true.count >= timings.false.count - 2, JSON.stringify(timings));
    assert.ok(timings.true.first < timings.true.total / 2, JSON.stringify(timings));
  }
});

test('AI SDK: a streamed reply that needs a repair midway sends its clean prefix, then continues it into the repaired value; partials never contradict it (V3 and V4)', async () => {
  const { streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3, MockLanguageModelV4 } = await sdk();
  const replies = [
    // Quotes, a coerced number and a trailing comma after a clean start.
    ['{"title": "Fix login", "priority": \'high\', "estimate": "3",}', { title: 'Fix login', priority: 'high', estimate: 3 }, 'continued'],
    // Cased enum inside a clean-looking string: the string is not sent until it reads as itself.
    ['{"title": "Fix login", "priority": "HIGH", "estimate": 3}', { title: 'Fix login', priority: 'high', estimate: 3 }, 'continued'],
    // Fenced: the block's JSON streams without the fence; the fence's removal is the repair.
    ['```json\n{"title": "Fix login", "priority": "high", "estimate": 3}\n```', { title: 'Fix login', priority: 'high', estimate: 3 }, 'continued'],
    // Prose before a fence: held (a later block may replace it), the repaired text replaces it whole.
    ['Here:\n```json\n{"title": "Fix login", "priority": "high", "estimate": 3}\n```', { title: 'Fix login', priority: 'high', estimate: 3 }, 'whole'],
  ];
  for (const Mock of [MockLanguageModelV3, MockLanguageModelV4]) {
    for (const [reply, final, how] of replies) {
      const repairs = [];
      const refusals = [];
      const model = wrapLanguageModel({ model: streamedModel(Mock, simulateReadableStream, reply), middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r), onRefusal: (r) => refusals.push(r) }) });
      const result = streamText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
      const partials = [];
      for await (const partial of result.partialOutputStream) partials.push(partial);
      assert.deepEqual(await result.output, final, reply);
      assert.deepEqual(JSON.parse(await result.text), final);
      if (how === 'continued') assert.ok((await result.text).startsWith('{"title": "Fix login",'), await result.text);
      else assert.equal(partials.length, 1, `${reply}: one partial, the final value`);
      for (const partial of partials) {
        for (const [key, value] of Object.entries(partial)) {
          if (typeof value === 'string' && typeof final[key] === 'string') assert.ok(final[key].startsWith(value), `${reply}: partial ${key}=${value}`);
          else assert.deepEqual(value, final[key], `${reply}: partial ${key} agrees with the final value`);
        }
      }
      assert.equal(repairs.length, 1, reply);
      assert.deepEqual(refusals, []);
    }
  }
});

test('AI SDK: a streamed Draft then Final never shows a partial the final value contradicts', async () => {
  const { streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const reply = 'Draft: ```json\n{"title": "Draft"}\n``` Final: ```json\n{"title": "Final", "priority": "low", "estimate": 1}\n```';
  const model = wrapLanguageModel({ model: streamedModel(MockLanguageModelV3, simulateReadableStream, reply), middleware: repairingMiddleware() });
  const result = streamText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
  const partials = [];
  for await (const partial of result.partialOutputStream) partials.push(partial);
  assert.deepEqual(partials, [{ title: 'Final', priority: 'low', estimate: 1 }]);
});

test('AI SDK: a reply that opens with a fence streams its block as it arrives, and ends as generateText reads it', async () => {
  const { streamText, generateText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const reply = '```json\n{"title": "Fix the login page", "priority": "high", "estimate": 3}\n```';
  const generated = await generateText({
    model: wrapLanguageModel({ model: new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: stop, usage, warnings: [] }) }), middleware: repairingMiddleware() }),
    output: Output.object({ schema: TicketZ }),
    prompt: 'ticket',
  });
  for (const size of [1, 3, 10]) {
    const result = streamText({ model: wrapLanguageModel({ model: streamedModel(MockLanguageModelV3, simulateReadableStream, reply, { size }), middleware: repairingMiddleware() }), output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
    const partials = [];
    for await (const partial of result.partialOutputStream) partials.push(partial);
    assert.deepEqual(await result.output, generated.output, `${size}-character deltas`);
    assert.ok(partials.length > 3, `partials appear as the block arrives (${partials.length} in ${size}-character deltas)`);
    assert.ok(partials.some((p) => p.title !== undefined && p.title !== generated.output.title), 'the title shows while it is written');
    for (const partial of partials) for (const [key, value] of Object.entries(partial)) if (key !== 'title') assert.deepEqual(value, generated.output[key]);
    assert.equal(await result.text, JSON.stringify(generated.output).replace(/,/g, ', ').replace(/":/g, '": '), 'the fence is never sent');
  }
});

test('AI SDK: a streamed fenced draft that a later block replaces fails visibly, never a silently different value', async () => {
  const { streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const reply = '```json\n{"title": "Draft", "priority": "low", "estimate": 1}\n```\nOn second thought:\n```json\n{"title": "Final", "priority": "high", "estimate": 2}\n```';
  const refusals = [];
  const model = wrapLanguageModel({ model: streamedModel(MockLanguageModelV3, simulateReadableStream, reply), middleware: repairingMiddleware({ onRefusal: (r) => refusals.push(r) }) });
  const result = streamText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
  const partials = [];
  for await (const partial of result.partialOutputStream) partials.push(partial);
  await assert.rejects(result.output, (e) => e.name === 'AI_NoObjectGeneratedError');
  assert.deepEqual(refusals.map((r) => r.reason), ['streamed']);
  assert.ok(partials.every((p) => p.title === undefined || 'Draft'.startsWith(p.title)), 'only the draft was shown');
});

test('AI SDK: a refused output\'s reason travels in the step\'s providerMetadata.understudy.refusals, generated and streamed', async () => {
  const { generateText, streamText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const unreadable = '{"title": "Fix login", "priority": "urgent", "estimate": 3}';
  const generated = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: unreadable }], finishReason: stop, usage, warnings: [] }) });
  const streamed = streamedModel(MockLanguageModelV3, simulateReadableStream, unreadable);
  for (const [name, inner] of [['generateText', generated], ['streamText', streamed]]) {
    const refusals = [];
    const steps = [];
    const model = wrapLanguageModel({ model: inner, middleware: repairingMiddleware({ onRefusal: (r) => refusals.push(r) }) });
    const options = { model, output: Output.object({ schema: TicketZ }), prompt: 'ticket', onStepFinish: (step) => steps.push(step) };
    if (name === 'generateText') {
      await assert.rejects(generateText(options), (e) => e.name === 'AI_NoObjectGeneratedError');
    } else {
      const result = streamText(options);
      await assert.rejects(result.output, (e) => e.name === 'AI_NoObjectGeneratedError');
    }
    assert.equal(refusals.length, 1, name);
    assert.equal(refusals[0].reason, 'unreadable');
    assert.equal(steps.length, 1, name);
    assert.deepEqual(steps[0].providerMetadata?.understudy?.refusals, JSON.parse(JSON.stringify(refusals)), name);
    assert.match(steps[0].providerMetadata.understudy.refusals[0].message, /priority|urgent/);
  }
});

test('AI SDK: trailing commas in streamed JSON are repaired as generateText repairs them, for 1-, 3- and 10-character deltas', async () => {
  const { streamText, generateText, Output, wrapLanguageModel, simulateReadableStream, MockLanguageModelV3 } = await sdk();
  const Plan = z.object({ tags: z.array(z.string()), estimate: z.number() });
  for (const text of ['{"tags": ["auth", "web",], "estimate": 3,}', '{"tags": ["auth",\n  "web", ], "estimate": 3 ,\n}']) {
    const generated = await generateText({
      model: wrapLanguageModel({ model: new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: stop, usage, warnings: [] }) }), middleware: repairingMiddleware() }),
      output: Output.object({ schema: Plan }),
      prompt: 'plan',
    });
    assert.deepEqual(generated.output, { tags: ['auth', 'web'], estimate: 3 });
    for (const size of [1, 3, 10]) {
      const model = wrapLanguageModel({ model: streamedModel(MockLanguageModelV3, simulateReadableStream, text, { size }), middleware: repairingMiddleware() });
      const result = streamText({ model, output: Output.object({ schema: Plan }), prompt: 'plan' });
      let sent = '';
      for await (const delta of result.textStream) sent += delta;
      assert.deepEqual(await result.output, generated.output, `${JSON.stringify(text)} in ${size}-character deltas`);
      assert.deepEqual(JSON.parse(sent), generated.output, 'the streamed text is the repaired value');
    }
  }
});

test("AI SDK: a reply the provider also gives as structuredOutputText (OpenAI Responses' final answer) is repaired there too", async () => {
  const { generateText, Output, wrapLanguageModel, MockLanguageModelV3 } = await sdk();
  const text = "```json\n{'title': 'Fix login', 'priority': 'HIGH', 'estimate': '3',}\n```";
  const final = { title: 'Fix login', priority: 'high', estimate: 3 };
  const answer = (structured) => new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text }], structuredOutputText: structured, finishReason: stop, usage, warnings: [] }) });
  const repairs = [];
  const model = wrapLanguageModel({ model: answer(text), middleware: repairingMiddleware({ onRepair: (r) => repairs.push(r) }) });
  const { output } = await generateText({ model, output: Output.object({ schema: TicketZ }), prompt: 'ticket' });
  assert.deepEqual(output, final);
  assert.equal(repairs.length, 1, 'one text, one repair reported');
  // A structured text of its own (not the content's) is repaired on its own.
  const apart = wrapLanguageModel({ model: answer("{'title': 'Fix login', 'priority': 'high', 'estimate': 3}"), middleware: repairingMiddleware() });
  assert.deepEqual((await generateText({ model: apart, output: Output.object({ schema: TicketZ }), prompt: 'ticket' })).output, final);
});

test('partialOutput flags a value from a new candidate (restarted), and the values after the last flag never contradict the final value', async () => {
  const { partialOutput } = await import('@understudy/agents');
  const schema = { type: 'object', properties: { title: { type: 'string' }, estimate: { type: 'number' } } };
  const text = 'Draft:\n```json\n{"title":"Draft","estimate":1}\n```\nFinal:\n```json\n{"title":"Fix login","estimate":3}\n```';
  for (const size of [1, 3, 10]) {
    async function* deltas() {
      for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
    }
    const seen = [];
    for await (const out of partialOutput(deltas(), schema)) seen.push(out);
    const final = seen.at(-1);
    assert.deepEqual(final.value, { title: 'Fix login', estimate: 3 });
    assert.equal(final.complete, true);
    const lastFlag = seen.findLastIndex((o) => o.restarted);
    assert.ok(lastFlag > 0, `a restart is flagged (${size}-character deltas)`);
    assert.ok(seen.slice(0, lastFlag).some((o) => o.value.title?.startsWith('Dra')), 'the draft was shown before');
    for (const out of seen.slice(lastFlag)) {
      for (const [key, value] of Object.entries(out.value)) {
        if (typeof value === 'string' && !out.complete) assert.ok(final.value[key].startsWith(value), `${key}: ${value}`);
        else assert.deepEqual(value, final.value[key], key);
      }
    }
    assert.equal(seen.filter((o) => o.restarted).length, 1, 'one restart');
  }
  // A reply with one candidate is never flagged.
  async function* one() {
    yield '{"title": "Fi';
    yield 'x login", "estimate": 3}';
  }
  for await (const out of partialOutput(one(), schema)) assert.equal(out.restarted, undefined);
});

test('every reply of the repair corpus, streamed in 1-, 3- and 10-character deltas, ends as generated, or the step says why not', async () => {
  const { replies } = await import('./corpus/replies.mjs');
  const parts = (text, size) => {
    const out = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }];
    for (let i = 0; i < text.length; i += size) out.push({ type: 'text-delta', id: 't', delta: text.slice(i, i + size) });
    out.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: stop, usage });
    return out;
  };
  const pull = (chunks) => {
    let i = 0;
    return new ReadableStream({ pull: (c) => (i < chunks.length ? c.enqueue(chunks[i++]) : c.close()) });
  };
  let checked = 0;
  let streamedRefusals = 0;
  for (const { text, schema } of replies()) {
    const params = { prompt: [], responseFormat: { type: 'json', schema } };
    const generated = await repairingMiddleware().wrapGenerate({ params, doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: stop, usage, warnings: [] }) });
    const want = generated.content[0].text;
    for (const size of [1, 3, 10]) {
      const result = await repairingMiddleware().wrapStream({ params, doStream: async () => ({ stream: pull(parts(text, size)) }) });
      let got = '';
      let finish;
      const reader = result.stream.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        if (r.value.type === 'text-delta') got += r.value.delta;
        if (r.value.type === 'finish') finish = r.value;
      }
      const refusals = finish.providerMetadata?.understudy?.refusals ?? [];
      if (refusals.some((r) => r.reason === 'streamed')) {
        streamedRefusals++;
        continue;
      }
      let same;
      try {
        same = JSON.stringify(JSON.parse(got)) === JSON.stringify(JSON.parse(want));
      } catch {
        same = got === want;
      }
      assert.ok(same, `${JSON.stringify(text)} in ${size}-character deltas: streamed ${JSON.stringify(got)}, generated ${JSON.stringify(want)}`);
      checked++;
    }
  }
  assert.ok(checked > 500, `${checked} streams compared`);
  assert.ok(streamedRefusals < checked / 20, `${streamedRefusals} streams refused as streamed`);
});
