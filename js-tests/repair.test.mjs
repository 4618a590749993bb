// The repair wiring with the real @openai/agents Runner: repairingModel around a
// scripted model whose replies are broken the way non-OpenAI models break them, partialOutput on
// a streamed run, compileStructuredParser, and repairText under the AI SDK's generateObject.
import { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import {
  compileStructuredParser,
  parsePartial,
  parseStructured,
  partialOutput,
  repairingModel,
  repairText,
  StructuredParseError,
  UserError,
  engineLiveHandles,
} from '@understudy/agents';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });
const BROKEN = 'Sure! Here is the ticket:\n```json\n{title: \'Fix login\', priority: "HIGH", estimate: "3",}\n```\nLet me know if you need anything else.';
const Ticket = z.object({ title: z.string(), priority: z.enum(['low', 'medium', 'high']), estimate: z.number() });
const ticketJson = {
  type: 'object',
  properties: { title: { type: 'string' }, priority: { enum: ['low', 'medium', 'high'] }, estimate: { type: 'number' } },
  required: ['title', 'priority', 'estimate'],
  additionalProperties: false,
};

test('outputType as a Zod schema: the broken reply fails without repairingModel and is the typed value with it', async () => {
  const plain = new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage(BROKEN)]]), outputType: Ticket });
  await assert.rejects(runner().run(plain, 'file a ticket'), (e) => e.name === 'ModelBehaviorError');

  const reports = [];
  const model = repairingModel(new ScriptedModel([[assistantMessage(BROKEN)]]), { onRepair: (r) => reports.push(r) });
  const result = await runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'file a ticket');
  assert.deepEqual(result.finalOutput, { title: 'Fix login', priority: 'high', estimate: 3 });
  assert.equal(reports.length, 1);
  assert.equal(reports[0].kind, 'output');
  const kinds = reports[0].fixes.map((f) => f.kind);
  for (const kind of ['fence_stripped', 'single_quotes', 'trailing_comma_removed', 'enum_case', 'string_to_number']) assert.ok(kinds.includes(kind), `${kind} in ${kinds}`);
});

test('outputType as a raw JSON schema', async () => {
  const outputType = { type: 'json_schema', name: 'ticket', strict: true, schema: ticketJson };
  const plain = new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage(BROKEN)]]), outputType });
  await assert.rejects(runner().run(plain, 'go'));
  const reports = [];
  const model = repairingModel(new ScriptedModel([[assistantMessage(BROKEN)]]), { onRepair: (r) => reports.push(r) });
  const result = await runner().run(new Agent({ name: 'a', model, outputType }), 'go');
  assert.deepEqual(result.finalOutput, { title: 'Fix login', priority: 'high', estimate: 3 });
  assert.equal(reports.length, 1);
});

test('tool-call arguments are repaired against the tool parameters, and the tool runs with the value', async () => {
  const seen = [];
  const weather = tool({
    name: 'weather',
    description: 'Forecast',
    parameters: z.object({ city: z.string(), days: z.number().int() }),
    execute: async (args) => {
      seen.push(args);
      return 'sunny';
    },
  });
  const script = () => [[functionCall('weather', "{city: 'Tokyo', days: '2',}", { callId: 'c1' })], [assistantMessage('Sunny in Tokyo.')]];
  // Without the wrapper the SDK refuses the arguments (the tool reports an error to the model).
  await runner().run(new Agent({ name: 'a', model: new ScriptedModel(script()), tools: [weather] }), 'weather?');
  assert.deepEqual(seen, []);

  const reports = [];
  const inner = new ScriptedModel(script());
  const result = await runner().run(new Agent({ name: 'a', model: repairingModel(inner, { onRepair: (r) => reports.push(r) }), tools: [weather] }), 'weather?');
  assert.equal(result.finalOutput, 'Sunny in Tokyo.');
  assert.deepEqual(seen, [{ city: 'Tokyo', days: 2 }]);
  assert.equal(reports.length, 1);
  assert.equal(reports[0].kind, 'tool_arguments');
  assert.equal(reports[0].toolName, 'weather');
  assert.equal(reports[0].callId, 'c1');
  assert.ok(reports[0].fixes.some((f) => f.kind === 'string_to_number' && f.pointers.includes('/days')));
});

test('a clean reply is passed through untouched and reports nothing', async () => {
  const reports = [];
  const response = { output: [assistantMessage('{"title":"Fix login","priority":"high","estimate":3}')], usage: undefined };
  const inner = { getResponse: async () => response, getStreamedResponse: async function* () {} };
  const model = repairingModel(inner, { onRepair: (r) => reports.push(r) });
  const request = { input: 'x', modelSettings: {}, tools: [], handoffs: [], outputType: { type: 'json_schema', name: 't', strict: true, schema: ticketJson }, tracing: false };
  assert.equal(await model.getResponse(request), response);
  const result = await runner().run(new Agent({ name: 'a', model: repairingModel(new ScriptedModel([[assistantMessage('{"title":"A","priority":"low","estimate":1}')]]), { onRepair: (r) => reports.push(r) }), outputType: Ticket }), 'go');
  assert.deepEqual(result.finalOutput, { title: 'A', priority: 'low', estimate: 1 });
  assert.deepEqual(reports, []);
});

test('what cannot be read is left as it was, so the SDK raises its usual error', async () => {
  const reports = [];
  const model = repairingModel(new ScriptedModel([[assistantMessage('I cannot help with that.')]]), { onRepair: (r) => reports.push(r) });
  await assert.rejects(runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'go'), (e) => e.name === 'ModelBehaviorError');
  assert.deepEqual(reports, []);
});

test('allowFixes limits the repairs; unknown kinds and bad arguments are refused at once', async () => {
  const reports = [];
  const model = repairingModel(new ScriptedModel([[assistantMessage(BROKEN)]]), { allowFixes: ['fence_stripped'], onRepair: (r) => reports.push(r) });
  await assert.rejects(runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'go'));
  assert.deepEqual(reports, []);
  assert.throws(() => repairingModel(new ScriptedModel([]), { allowFixes: ['guess'] }), UserError);
  assert.throws(() => repairingModel({}), { name: 'TypeError', message: /repairingModel: model must be a Model/ });
  assert.throws(() => repairingModel(new ScriptedModel([]), { onRepair: 1 }), { name: 'TypeError', message: /onRepair must be a function, got a number \(1\)/ });
  assert.throws(() => repairingModel(new ScriptedModel([]), { onrepair: () => {} }), { name: 'TypeError', message: /unknown option `onrepair`/ });
});

test('streamed run: deltas pass through, response_done is repaired, partialOutput grows to the final value', async () => {
  const reports = [];
  // The reply streams in 8-character deltas, then response_done carries the whole message.
  const events = [{ type: 'response_started' }];
  for (let i = 0; i < BROKEN.length; i += 8) events.push({ type: 'output_text_delta', delta: BROKEN.slice(i, i + 8) });
  events.push({ type: 'response_done', response: { id: 'r1', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [assistantMessage(BROKEN, { id: 'm1' })] } });
  const inner = new ScriptedModel([modelStream(events)]);
  const model = repairingModel(inner, { onRepair: (r) => reports.push(r) });
  const result = await runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'go', { stream: true });
  const partials = partialOutput(result, ticketJson, { atomic: ['/priority'] });
  const mine = [];
  const reading = (async () => {
    for await (const event of result) mine.push(event);
  })();
  const seen = [];
  for await (const p of partials) seen.push(p);
  await reading;
  await result.completed;
  assert.deepEqual(result.finalOutput, { title: 'Fix login', priority: 'high', estimate: 3 });
  assert.ok(mine.some((e) => e.type === 'raw_model_stream_event'), 'the user still reads the events');
  assert.equal(reports.length, 1);
  const last = seen[seen.length - 1];
  assert.equal(last.complete, true);
  assert.deepEqual(last.value, parseStructured(BROKEN, ticketJson).value);
  assert.ok(seen.slice(0, -1).every((p) => p.complete === false));
  assert.ok(seen.length >= 4, `several growing values (${seen.length})`);
  assert.equal(seen.find((p) => p.value?.priority !== undefined && p.value.priority !== 'high'), undefined, 'the atomic priority is never shown cut');
  // The deltas reached the user unchanged: the streamed text is the broken reply as sent.
  const deltas = mine.filter((e) => e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta').map((e) => e.data.delta);
  assert.equal(deltas.join(''), BROKEN);
});

test('after partialOutput, toTextStream gives the text as the result\'s own does: a web stream, or a Node Readable with compatibleWithNodeStreams', async () => {
  const events = [{ type: 'response_started' }];
  for (let i = 0; i < BROKEN.length; i += 8) events.push({ type: 'output_text_delta', delta: BROKEN.slice(i, i + 8) });
  events.push({ type: 'response_done', response: { id: 'r1', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [assistantMessage(BROKEN, { id: 'm1' })] } });
  const streamed = async (watch) => {
    const model = repairingModel(new ScriptedModel([modelStream(events)]));
    const result = await runner().run(new Agent({ name: 'a', model, outputType: Ticket }), 'go', { stream: true });
    const partials = watch ? partialOutput(result, ticketJson) : undefined;
    const draining = partials && (async () => { for await (const _ of partials); })();
    return { result, draining };
  };
  const read = async (stream) => {
    let text = '';
    for await (const chunk of stream) text += chunk;
    return text;
  };
  for (const watch of [false, true]) {
    const web = await streamed(watch);
    const webText = web.result.toTextStream();
    assert.ok(webText instanceof ReadableStream, `web stream (partialOutput: ${watch})`);
    assert.equal(await read(webText), BROKEN);
    await web.draining;
    await web.result.completed;
    const node = await streamed(watch);
    const nodeText = node.result.toTextStream({ compatibleWithNodeStreams: true });
    assert.ok(nodeText instanceof Readable, `Node Readable (partialOutput: ${watch})`);
    assert.equal(await read(nodeText), BROKEN);
    await node.draining;
    await node.result.completed;
  }
});

test('partialOutput over text deltas: values only grow, atomic fields appear whole', async () => {
  const reply = '{"title": "Fix the login page", "priority": "high", "estimate": 3}';
  async function* deltas() {
    for (let i = 0; i < reply.length; i += 4) yield reply.slice(i, i + 4);
  }
  const seen = [];
  for await (const p of partialOutput(deltas(), ticketJson, { atomic: ['/priority'] })) seen.push(p);
  assert.ok(seen.length > 3);
  for (const p of seen) {
    if (p.value?.priority !== undefined) assert.equal(p.value.priority, 'high', 'the atomic field is never shown cut');
  }
  for (let i = 1; i < seen.length; i++) {
    const before = seen[i - 1].value;
    for (const [k, v] of Object.entries(before)) {
      if (typeof v === 'string') assert.ok(String(seen[i].value[k]).startsWith(v), `${k} only grows`);
      else assert.deepEqual(seen[i].value[k], v);
    }
  }
  assert.deepEqual(seen[seen.length - 1], { value: { title: 'Fix the login page', priority: 'high', estimate: 3 }, complete: true, fixes: [] });
  assert.throws(() => partialOutput(42, ticketJson), { name: 'TypeError', message: /partialOutput: source must be a StreamedRunResult or an async iterable of text deltas, got a number \(42\)/ });
  assert.throws(() => partialOutput(deltas(), ticketJson, 'x'), { name: 'TypeError', message: /partialOutput: options must be an object/ });
  assert.throws(() => partialOutput(deltas(), ticketJson, { atomics: ['/priority'] }), { name: 'TypeError', message: 'partialOutput: unknown option `atomics`; the option is `atomic`.' });
});

test('compileStructuredParser: parse and partial bound to one schema, disposable, same answers as the free functions', () => {
  const before = engineLiveHandles();
  const parser = compileStructuredParser(ticketJson);
  assert.deepEqual(parser.parse(BROKEN), parseStructured(BROKEN, ticketJson));
  assert.deepEqual(parser.parse('{"title":"a","priority":"low","estimate":1}'), { value: { title: 'a', priority: 'low', estimate: 1 }, fixes: [] });
  assert.deepEqual(parser.partial('{"title": "Fi'), parsePartial('{"title": "Fi', ticketJson));
  assert.deepEqual(parser.partial('{"title": "Fi', { atomic: ['/title'] }).value, {});
  assert.throws(() => parser.parse('no json here'), StructuredParseError);
  assert.throws(() => parser.parse(BROKEN, { allowFixes: ['nope'] }), UserError);
  assert.throws(() => parser.partial('{', { atomic: ['title'] }), { name: 'UserError', message: /not a JSON Pointer/ });
  assert.throws(() => parser.partial('{', { atomic: 'title' }), { name: 'UserError', message: /must be an array/ });
  assert.throws(() => parser.parse(5), { name: 'TypeError', message: 'StructuredParser.parse: text must be a string, got a number (5).' });
  assert.equal(engineLiveHandles(), before + 1);
  parser[Symbol.dispose]();
  assert.equal(engineLiveHandles(), before);
  assert.throws(() => parser.parse('{}'), { name: 'UserError', message: 'This parser was freed.' });
  // A Standard Schema: its validate runs on the result.
  const zodParser = compileStructuredParser(Ticket);
  assert.deepEqual(zodParser.parse(BROKEN).value, { title: 'Fix login', priority: 'high', estimate: 3 });
  zodParser.free();
});

test('repairText under the AI SDK generateObject with its mock model', async () => {
  const { generateObject } = await import('ai');
  const { MockLanguageModelV3 } = await import('ai/test');
  const model = () =>
    new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: BROKEN }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } },
        warnings: [],
      }),
    });
  await assert.rejects(generateObject({ model: model(), schema: Ticket, prompt: 'ticket' }));
  // `repairText` is the option's name in current `ai` 7; `experimental_repairText` before it.
  for (const option of ['repairText', 'experimental_repairText']) {
    const { object } = await generateObject({ model: model(), schema: Ticket, prompt: 'ticket', [option]: repairText(Ticket) });
    assert.deepEqual(object, { title: 'Fix login', priority: 'high', estimate: 3 }, option);
  }
  assert.equal(await repairText(ticketJson)({ text: 'nothing to read', error: new Error('x') }), null);
});
