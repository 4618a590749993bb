// scriptedLanguageModel against the AI SDK's own MockLanguageModelV3: each scenario is written
// twice, once as a user writes it with the mock (content parts, stream parts, finish reasons
// and usage by hand) and once with the step builders, and the real generateText / streamText
// (ai 7 from the registry) must give identical results.
import assert from 'node:assert/strict';
import test from 'node:test';
import { z } from 'zod';
import { generateText, streamText, Output, stepCountIs, tool, wrapLanguageModel, jsonSchema } from 'ai';
import { MockLanguageModelV3, MockLanguageModelV4, simulateReadableStream } from 'ai/test';
import { APICallError } from '@ai-sdk/provider';
import { repairingMiddleware, StrictSchemaError } from '@understudy/agents';
import {
  scriptedLanguageModel,
  ScriptedLanguageModel,
  assistantMessage,
  functionCall,
  reasoning,
  modelError,
  modelResponder,
  modelStream,
  assertToolCalled,
  assertToolCalledTimes,
  assertToolNotCalled,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
} from '@understudy/agents/ai-sdk/testing';

/** Usage in the AI SDK's form, as a mock writes it, and the same as a scripted response says it. */
const usage = (input, output) => ({ inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
const ZERO = usage(0, 0);
const STOP = { unified: 'stop', raw: 'stop' };
const TOOLS = { unified: 'tool-calls', raw: 'tool_calls' };
/** A scripted response with usage. */
const said = (output, input = 0, out = 0) => ({ output, usage: { inputTokens: input, outputTokens: out } });

/** A MockLanguageModelV3 answering `answers` in order, generated or streamed (one delta per text). */
function mock(answers, Mock = MockLanguageModelV3) {
  let n = 0;
  const next = () => {
    const answer = answers[n++];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return new Mock({
    doGenerate: async () => ({ ...next(), warnings: [] }),
    doStream: async () => {
      const { content, finishReason, usage: u } = next();
      const chunks = [{ type: 'stream-start', warnings: [] }];
      content.forEach((part, i) => {
        if (part.type === 'text' || part.type === 'reasoning') {
          const id = `${part.type}-${i}`;
          chunks.push({ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text }, { type: `${part.type}-end`, id });
        } else if (part.type === 'tool-call') {
          chunks.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName }, { type: 'tool-input-delta', id: part.toolCallId, delta: part.input }, { type: 'tool-input-end', id: part.toolCallId }, part);
        }
      });
      chunks.push({ type: 'finish', finishReason, usage: u });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}

const text = (t) => ({ type: 'text', text: t });
const call = (id, name, input) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) });

function weatherTool(log = []) {
  return tool({
    description: 'Weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      log.push(city);
      if (city === 'Atlantis') throw new Error('no such city');
      return `sunny in ${city}`;
    },
  });
}

/** What two runs must agree on (ids and timestamps the SDK makes up are left out). */
function comparable(result) {
  return {
    text: result.text,
    finishReason: result.finishReason,
    usage: result.usage,
    totalUsage: result.totalUsage,
    toolCalls: result.toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    toolResults: result.toolResults.map(({ toolCallId, toolName, output }) => ({ toolCallId, toolName, output })),
    steps: result.steps.map((s) => ({ content: s.content.map(({ providerMetadata, ...c }) => c), finishReason: s.finishReason, usage: s.usage })),
    messages: result.response.messages,
    reasoningText: result.reasoningText,
  };
}

async function comparableStream(result) {
  const deltas = [];
  for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
  const steps = await result.steps;
  return {
    text: await result.text,
    joined: deltas.join(''),
    finishReason: await result.finishReason,
    usage: await result.totalUsage,
    toolCalls: (await result.toolCalls).map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    toolResults: (await result.toolResults).map(({ toolCallId, toolName, output }) => ({ toolCallId, toolName, output })),
    steps: steps.map((s) => ({ content: s.content.map(({ providerMetadata, ...c }) => c), finishReason: s.finishReason })),
    messages: (await result.response).messages,
  };
}

const loop = [
  { content: [call('c1', 'weather', { city: 'Paris' })], finishReason: TOOLS, usage: usage(10, 5) },
  { content: [call('c2', 'weather', { city: 'Rome' })], finishReason: TOOLS, usage: usage(20, 5) },
  { content: [text('Sunny in both.')], finishReason: STOP, usage: usage(30, 4) },
];
const loopScript = () => [
  said([functionCall('weather', { city: 'Paris' }, { callId: 'c1' })], 10, 5),
  said([functionCall('weather', { city: 'Rome' }, { callId: 'c2' })], 20, 5),
  said([assistantMessage('Sunny in both.')], 30, 4),
];

const scenarios = [
  {
    name: 'a single answer',
    mock: [{ content: [text('Hello!')], finishReason: STOP, usage: usage(3, 2) }],
    script: () => [said([assistantMessage('Hello!')], 3, 2)],
    options: () => ({ prompt: 'hi' }),
  },
  {
    name: 'Output.object',
    mock: [{ content: [text('{"title":"Fix login","priority":"high"}')], finishReason: STOP, usage: ZERO }],
    script: () => [[assistantMessage('{"title":"Fix login","priority":"high"}')]],
    options: () => ({ prompt: 'ticket', output: Output.object({ schema: z.object({ title: z.string(), priority: z.enum(['low', 'high']) }) }) }),
    extra: async (r) => r.output,
  },
  {
    name: 'a three-step tool loop with stopWhen: stepCountIs(5)',
    mock: loop,
    script: loopScript,
    options: () => ({ prompt: 'weather in Paris and Rome', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5) }),
  },
  {
    name: 'parallel tool calls',
    mock: [
      { content: [call('a', 'weather', { city: 'Oslo' }), call('b', 'weather', { city: 'Lima' })], finishReason: TOOLS, usage: usage(8, 6) },
      { content: [text('Both sunny.')], finishReason: STOP, usage: usage(9, 2) },
    ],
    script: () => [said([functionCall('weather', { city: 'Oslo' }, { callId: 'a' }), functionCall('weather', { city: 'Lima' }, { callId: 'b' })], 8, 6), said([assistantMessage('Both sunny.')], 9, 2)],
    options: () => ({ prompt: 'two cities', tools: { weather: weatherTool() }, stopWhen: stepCountIs(3) }),
  },
  {
    name: 'a tool error',
    mock: [
      { content: [call('x', 'weather', { city: 'Atlantis' })], finishReason: TOOLS, usage: ZERO },
      { content: [text('I could not find it.')], finishReason: STOP, usage: ZERO },
    ],
    script: () => [[functionCall('weather', { city: 'Atlantis' }, { callId: 'x' })], [assistantMessage('I could not find it.')]],
    options: () => ({ prompt: 'atlantis', tools: { weather: weatherTool() }, stopWhen: stepCountIs(3) }),
  },
  {
    name: 'reasoning parts',
    mock: [{ content: [{ type: 'reasoning', text: 'The user greets me.' }, text('Hi!')], finishReason: STOP, usage: ZERO }],
    script: () => [[reasoning('The user greets me.'), assistantMessage('Hi!')]],
    options: () => ({ prompt: 'hi' }),
  },
  {
    name: 'prepareStep (a forced tool, then no tools)',
    mock: loop.slice(1),
    script: () => loopScript().slice(1),
    options: () => ({
      prompt: 'rome',
      tools: { weather: weatherTool() },
      stopWhen: stepCountIs(4),
      prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: { type: 'tool', toolName: 'weather' } } : { activeTools: [] }),
    }),
  },
  {
    name: 'activeTools',
    mock: [{ content: [text('No tool needed.')], finishReason: STOP, usage: ZERO }],
    script: () => [[assistantMessage('No tool needed.')]],
    options: () => ({ prompt: 'hi', tools: { weather: weatherTool(), other: weatherTool() }, activeTools: ['weather'] }),
  },
  {
    name: 'Output.array',
    mock: [{ content: [text('{"elements":[{"city":"Oslo"},{"city":"Lima"}]}')], finishReason: STOP, usage: ZERO }],
    script: () => [[assistantMessage('{"elements":[{"city":"Oslo"},{"city":"Lima"}]}')]],
    options: () => ({ prompt: 'cities', output: Output.array({ element: z.object({ city: z.string() }) }) }),
    extra: async (r) => r.output,
  },
];

for (const scenario of scenarios) {
  test(`generateText, ${scenario.name}: scriptedLanguageModel gives what MockLanguageModelV3 gives`, async () => {
    const theirs = await generateText({ model: mock(scenario.mock), ...scenario.options() });
    const model = scriptedLanguageModel(scenario.script());
    const ours = await generateText({ model, ...scenario.options() });
    assert.deepEqual(comparable(ours), comparable(theirs));
    if (scenario.extra) assert.deepEqual(await scenario.extra(ours), await scenario.extra(theirs));
    model.assertComplete();
  });
  test(`streamText, ${scenario.name}: the same script streams what MockLanguageModelV3 streams`, async () => {
    const theirs = await comparableStream(streamText({ model: mock(scenario.mock), ...scenario.options() }));
    const model = scriptedLanguageModel(scenario.script());
    const ours = await comparableStream(streamText({ model, ...scenario.options() }));
    assert.deepEqual(ours, theirs);
    model.assertComplete();
  });
}

test('V4: the same scripts drive ai 7 with specificationVersion v4, as MockLanguageModelV4 does', async () => {
  const theirs = await generateText({ model: mock(loop, MockLanguageModelV4), prompt: 'weather', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5) });
  const model = scriptedLanguageModel(loopScript(), { specificationVersion: 'v4' });
  assert.equal(model.specificationVersion, 'v4');
  const ours = await generateText({ model, prompt: 'weather', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5) });
  assert.deepEqual(comparable(ours), comparable(theirs));
  const streamed = scriptedLanguageModel(loopScript(), { specificationVersion: 'v4' });
  const s = await comparableStream(streamText({ model: streamed, prompt: 'weather', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5) }));
  assert.equal(s.text, 'Sunny in both.');
});

test('usage totals and onStepFinish order match the mock', async () => {
  const order = (log) => ({ onStepFinish: (step) => log.push(['step', step.finishReason, step.usage.inputTokens]), onFinish: (r) => log.push(['finish', r.totalUsage.inputTokens]) });
  const theirs = [];
  const ours = [];
  const a = await generateText({ model: mock(loop), prompt: 'w', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5), ...order(theirs) });
  const b = await generateText({ model: scriptedLanguageModel(loopScript()), prompt: 'w', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5), ...order(ours) });
  assert.deepEqual(ours, theirs);
  assert.deepEqual(b.totalUsage, a.totalUsage);
  assert.equal(b.totalUsage.inputTokens, 60);
});

test('a retryable 429 then success: the SDK\'s own retries run, waiting what the advice says', async () => {
  const rateLimited = Object.assign(new Error('Too Many Requests'), { status: 429 });
  const model = scriptedLanguageModel([modelError(rateLimited, { suggested: true, retryAfterMs: 5 }), [assistantMessage('Finally.')]]);
  const result = await generateText({ model, prompt: 'hi', maxRetries: 2 });
  assert.equal(result.text, 'Finally.');
  assert.equal(model.calls.length, 2);
  // Not retryable: the SDK gives up at once with the APICallError, the scripted error its cause.
  const bad = Object.assign(new Error('Bad Request'), { status: 400 });
  const once = scriptedLanguageModel([modelError(bad), [assistantMessage('never')]]);
  await assert.rejects(generateText({ model: once, prompt: 'hi', maxRetries: 2 }), (e) => e.name === 'AI_APICallError' && e.statusCode === 400 && e.isRetryable === false && e.cause === bad);
  assert.equal(once.calls.length, 1);
  assert.equal(once.remainingSteps, 1);
  // Advice given as a function is asked, with the error, the call's options and the mode.
  const asked = [];
  const decided = scriptedLanguageModel([
    ...[1, 2].map(() =>
      modelError(bad, (request) => {
        asked.push([request.error === bad, Array.isArray(request.request.prompt), request.stream, request.attempt]);
        return { suggested: true, retryAfterMs: 1 };
      }),
    ),
    [assistantMessage('Retried.')],
  ]);
  assert.equal((await generateText({ model: decided, prompt: 'hi', maxRetries: 2 })).text, 'Retried.');
  assert.deepEqual(asked, [[true, true, false, 1], [true, true, false, 2]]);
});

test('a retryable 429 then success, and abort, end as they do with MockLanguageModelV3', async () => {
  const limited = () => new APICallError({ message: 'Too Many Requests', url: 'https://api.example', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after-ms': '5' } });
  const theirs = await generateText({ model: mock([limited(), { content: [text('Finally.')], finishReason: STOP, usage: ZERO }]), prompt: 'hi', maxRetries: 2 });
  const ours = await generateText({ model: scriptedLanguageModel([modelError(Object.assign(new Error('Too Many Requests'), { status: 429 }), { retryAfterMs: 5 }), [assistantMessage('Finally.')]]), prompt: 'hi', maxRetries: 2 });
  assert.deepEqual(comparable(ours), comparable(theirs));
  // Retries exhausted: the SDK's RetryError around the same APICallError fields either way.
  const fail = async (model) => generateText({ model, prompt: 'hi', maxRetries: 1 }).then(() => undefined, (e) => ({ name: e.name, reason: e.reason, errors: e.errors.map((x) => [x.name, x.statusCode, x.isRetryable]) }));
  const a = await fail(mock([limited(), limited()]));
  const b = await fail(scriptedLanguageModel([modelError(Object.assign(new Error('Too Many Requests'), { status: 429 }), { retryAfterMs: 5 }), modelError(Object.assign(new Error('Too Many Requests'), { status: 429 }), { retryAfterMs: 5 })]));
  assert.deepEqual(b, a);
  // Aborted before the call: both reject with an AbortError the SDK passes on.
  const controller = new AbortController();
  controller.abort();
  const abortedMock = new MockLanguageModelV3({ doGenerate: async ({ abortSignal }) => { abortSignal?.throwIfAborted(); return { content: [text('x')], finishReason: STOP, usage: ZERO, warnings: [] }; } });
  const names = async (model) => generateText({ model, prompt: 'hi', abortSignal: controller.signal }).then(() => 'resolved', (e) => e.name);
  assert.equal(await names(scriptedLanguageModel([[assistantMessage('x')]])), await names(abortedMock));
});

test('abort: an aborted signal rejects generateText and ends streamText with an AbortError, in both modes', async () => {
  const controller = new AbortController();
  controller.abort();
  const model = scriptedLanguageModel([[assistantMessage('never')]]);
  await assert.rejects(generateText({ model, prompt: 'hi', abortSignal: controller.signal }), (e) => e.name === 'AbortError');
  // Aborted mid-stream: the rest of the parts never come.
  const midway = new AbortController();
  const streamed = scriptedLanguageModel([[assistantMessage('a long answer that streams in several pieces')]]);
  const result = streamText({ model: streamed, prompt: 'hi', abortSignal: midway.signal });
  const seen = [];
  for await (const part of result.fullStream) {
    seen.push(part.type);
    if (part.type === 'text-delta') midway.abort();
  }
  assert.ok(seen.includes('abort') || seen.includes('error'), seen.join(','));
  assert.ok(seen.filter((t) => t === 'text-delta').length < 4, seen.join(','));
});

test('calls are frozen snapshots of each call\'s options; assertComplete and the tool assertions take the model', async () => {
  const model = scriptedLanguageModel(loopScript());
  await generateText({ model, prompt: 'weather', tools: { weather: weatherTool() }, stopWhen: stepCountIs(5), headers: { 'x-test': '1' }, providerOptions: { openai: { store: false } } });
  assert.equal(model.calls.length, 3);
  const first = model.calls[0];
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.options));
  assert.equal(first.streamed, false);
  assert.deepEqual(first.options.tools.map((t) => t.name), ['weather']);
  assert.equal(first.options.headers['x-test'], '1');
  assert.deepEqual(first.options.providerOptions, { openai: { store: false } });
  assert.equal(first.options.prompt.at(-1).role, 'user');
  assert.equal(model.calls[2].options.prompt.filter((m) => m.role === 'tool').length, 2);
  assertToolCalled(model, 'weather', { city: 'Rome' });
  assertToolCalledTimes(model, 'weather', 2);
  assertToolNotCalled(model, 'search');
  assert.throws(() => assertToolCalledTimes(model, 'weather', 1), { name: 'AssertionError', message: /2 times/ });
  model.assertComplete();
  const short = scriptedLanguageModel([[assistantMessage('a')], [assistantMessage('b')]]);
  await generateText({ model: short, prompt: 'x' });
  assert.throws(() => short.assertComplete(), UnconsumedModelStepsError);
  await generateText({ model: short, prompt: 'x' });
  await assert.rejects(generateText({ model: short, prompt: 'x', maxRetries: 0 }), (e) => e instanceof UnexpectedModelCallError || e.cause instanceof UnexpectedModelCallError || /after the script ran out|UnexpectedModelCall/.test(String(e)));
});

test('modelResponder derives a step from the call; modelStream passes the SDK\'s own parts', async () => {
  const model = scriptedLanguageModel([modelResponder((call) => [assistantMessage(`You said: ${call.options.prompt.at(-1).content[0].text}`)])]);
  assert.equal((await generateText({ model, prompt: 'ping' })).text, 'You said: ping');
  const raw = scriptedLanguageModel([
    modelStream([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'raw ' },
      { type: 'text-delta', id: 't', delta: 'parts' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: STOP, usage: usage(1, 2) },
    ]),
  ]);
  const result = streamText({ model: raw, prompt: 'x' });
  assert.equal(await result.text, 'raw parts');
  assert.equal((await result.totalUsage).outputTokens, 2);
});

test('strictTools checks each call\'s tool schemas with the provider profiles', async () => {
  const loose = tool({ description: 'd', inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string', minLength: 3 } } }), execute: async () => 'ok' });
  // Anthropic's standard tools take `minLength`; its strict mode does not.
  assert.equal((await generateText({ model: scriptedLanguageModel([[assistantMessage('x')]], { strictTools: 'anthropic' }), prompt: 'x', tools: { search: loose } })).text, 'x');
  const model = scriptedLanguageModel([[assistantMessage('x')]], { strictTools: 'anthropic:strict' });
  await assert.rejects(generateText({ model, prompt: 'x', tools: { search: loose }, maxRetries: 0 }), (e) => e instanceof StrictSchemaError || e.cause instanceof StrictSchemaError);
  assert.equal(model.calls.length, 1);
  assert.equal(model.remainingSteps, 1, 'no step was taken');
  const fine = scriptedLanguageModel([[assistantMessage('x')]], { strictTools: ['openai', 'anthropic'] });
  const ok = tool({ description: 'd', inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false }), execute: async () => 'ok' });
  assert.equal((await generateText({ model: fine, prompt: 'x', tools: { search: ok } })).text, 'x');
  assert.throws(() => scriptedLanguageModel([], { strictTools: 'bedrock' }), { name: 'UserError' });
  assert.throws(() => scriptedLanguageModel([], { specificationVersion: 'v2' }), TypeError);
  assert.throws(() => scriptedLanguageModel([], { modelid: 'x' }), { name: 'TypeError', message: /unknown option `modelid`/ });
});

test('its errors name scriptedLanguageModel, with the classes and fields of ScriptedModel', async () => {
  assert.throws(() => scriptedLanguageModel([{ type: 'response' }]), { name: 'InvalidScriptedModelStepError', reason: 'missing_response', inputIndex: 0, message: 'scriptedLanguageModel input #1 is invalid (missing response).' });
  assert.throws(() => scriptedLanguageModel([{ output: 'x' }]), { reason: 'invalid_response', message: 'scriptedLanguageModel input #1 is not an answer: a complete response is `{ output: [parts], usage? }` (modelResponse), or give the parts as an array.' });
  const model = scriptedLanguageModel([[assistantMessage('a')], modelResponder(() => 'not a response')]);
  await model.doGenerate({ prompt: [] });
  await assert.rejects(model.doGenerate({ prompt: [] }), { name: 'InvalidScriptedModelStepError', reason: 'invalid_response', callIndex: 1, message: 'scriptedLanguageModel responder returned an invalid response for call #2.' });
  await assert.rejects(model.doStream({ prompt: [] }), (e) => e instanceof UnexpectedModelCallError && e.message === 'scriptedLanguageModel received unexpected streaming call #3; no scripted steps remain.');
  const left = scriptedLanguageModel([[assistantMessage('a')]]);
  assert.throws(() => left.assertComplete(), (e) => e instanceof UnconsumedModelStepsError && e.message === 'scriptedLanguageModel has 1 unconsumed scripted step.');
  // ScriptedModel keeps the reference's words.
  const { ScriptedModel } = await import('@understudy/agents/testing');
  assert.throws(() => new ScriptedModel([{ type: 'response' }]), { message: 'ScriptedModel input #1 is invalid (missing response).' });
});

test('through wrapLanguageModel and repairingMiddleware: a broken scripted reply is repaired', async () => {
  const model = wrapLanguageModel({ model: scriptedLanguageModel([[assistantMessage("Sure! {title: 'Fix login', priority: 'HIGH'}")]]), middleware: repairingMiddleware() });
  const { output } = await generateText({ model, prompt: 'ticket', output: Output.object({ schema: z.object({ title: z.string(), priority: z.enum(['low', 'high']) }) }) });
  assert.deepEqual(output, { title: 'Fix login', priority: 'high' });
  assert.ok(new ScriptedLanguageModel() instanceof ScriptedLanguageModel);
});
