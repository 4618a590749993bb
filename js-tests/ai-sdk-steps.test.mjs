// The AI SDK double refuses a step that is wrong when it is given, naming the fix, in the AI
// SDK's words; it remembers a call past its script; an abort does not wait for a responder; its
// builders in the SDK's words drive generateText and streamText (ai 7 from the registry).
import assert from 'node:assert/strict';
import test from 'node:test';
import { z } from 'zod';
import { generateText, streamText, Output, stepCountIs, tool, wrapLanguageModel } from 'ai';
import {
  scriptedLanguageModel,
  assistantMessage,
  functionCall,
  toolCall,
  textStep,
  objectStep,
  modelResponse,
  modelResponder,
  assertToolCalled,
  InvalidScriptedModelStepError,
  UnexpectedModelCallError,
} from '@understudy/agents/ai-sdk/testing';

const weather = tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });

test('an object given as an answer text is refused at once, naming objectStep; objectStep answers Output.object', async () => {
  assert.throws(() => assistantMessage({ category: 'billing' }), (e) => e instanceof TypeError && /must be a string, got an object/.test(e.message) && /objectStep\(value\)/.test(e.message));
  // Written by hand, the item is refused when queued, with the same hint.
  const byHand = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: { category: 'billing' } }] };
  assert.throws(
    () => scriptedLanguageModel([[byHand]]),
    (e) => e instanceof InvalidScriptedModelStepError && e.reason === 'invalid_response' && e.inputIndex === 0 && /^scriptedLanguageModel input #1: part 0 is a message whose text is an object/.test(e.message) && /objectStep\(value\)/.test(e.message),
  );
  const model = scriptedLanguageModel([objectStep({ category: 'billing' })]);
  const { output } = await generateText({ model, prompt: 'Classify', output: Output.object({ schema: z.object({ category: z.string() }) }) });
  assert.deepEqual(output, { category: 'billing' });
});

test('a schema given as a tool input or as expected arguments is refused, naming what to give', async () => {
  const schema = z.object({ city: z.string() });
  for (const build of [() => functionCall('weather', schema), () => toolCall('weather', schema)]) {
    assert.throws(build, (e) => e instanceof TypeError && /the input is a schema/.test(e.message) && /\{ city: 'Oslo' \}/.test(e.message));
  }
  const model = scriptedLanguageModel([[toolCall('weather', { city: 'Oslo' })], textStep('ok')]);
  await generateText({ model, tools: { weather }, prompt: 'x', stopWhen: stepCountIs(2) });
  assert.throws(() => assertToolCalled(model, 'weather', schema), (e) => e instanceof TypeError && /args is a schema/.test(e.message));
  assertToolCalled(model, 'weather', { city: 'Oslo' });
});

test("usage under the SDK's older names or unknown keys is refused, not counted 0", async () => {
  assert.throws(() => scriptedLanguageModel([modelResponse({ output: [assistantMessage('x')], usage: { promptTokens: 5, completionTokens: 2 } })]), (e) => e instanceof InvalidScriptedModelStepError && /usage\.promptTokens/.test(e.message) && /write inputTokens/.test(e.message));
  assert.throws(() => scriptedLanguageModel([{ output: [assistantMessage('x')], usage: { tokens: 5 } }]), (e) => e instanceof InvalidScriptedModelStepError && /usage\.tokens is not a usage count/.test(e.message));
  const model = scriptedLanguageModel([modelResponse({ output: [assistantMessage('x')], usage: { inputTokens: 5, outputTokens: 2 } })]);
  const { usage } = await generateText({ model, prompt: 'x' });
  assert.equal(usage.inputTokens, 5);
  assert.equal(usage.outputTokens, 2);
});

test("the SDK's content parts, stream parts and a forgotten inner array are refused when given, each naming the fix", () => {
  const refused = (steps, pattern) =>
    assert.throws(
      () => scriptedLanguageModel(steps),
      (e) => e instanceof InvalidScriptedModelStepError && pattern.test(e.message),
    );
  refused([[{ type: 'text', text: 'hi' }]], /part 0 is an AI SDK content part .*textStep/);
  refused([[{ type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: '{}' }]], /AI SDK content part .*toolCall\(name, input\)/);
  refused([[{ type: 'text-delta', id: 't', delta: 'h' }]], /stream part .*modelStream/);
  refused([assistantMessage('hi')], /unknown type "message"\. It is a part of an answer, not a step: .*\[\[assistantMessage\('hi'\)\]\]/);
  refused([{ type: 'text', text: 'hi' }], /unknown type "text"\. It is an AI SDK content part/);
  refused(['hello'], /is invalid \(invalid input\)\. A step is an array of an answer's parts/);
  // The model is made only from valid steps: enqueue refuses as the constructor does.
  const model = scriptedLanguageModel();
  assert.throws(() => model.enqueue([{ type: 'text', text: 'x' }]), InvalidScriptedModelStepError);
  assert.equal(model.remainingSteps, 0);
});

test('a tool call without an id gets one per call and place, the same generated and streamed', async () => {
  const generated = scriptedLanguageModel([[functionCall('weather', { city: 'Oslo' }), toolCall('weather', { city: 'Rome' })], textStep('ok')]);
  const result = await generateText({ model: generated, tools: { weather }, prompt: 'x', stopWhen: stepCountIs(2) });
  assert.deepEqual(result.steps[0].toolCalls.map((c) => c.toolCallId), ['call-1-0', 'call-1-1']);
  const streamed = scriptedLanguageModel([[functionCall('weather', { city: 'Oslo' }), toolCall('weather', { city: 'Rome' })], textStep('ok')]);
  const run = streamText({ model: streamed, tools: { weather }, prompt: 'x', stopWhen: stepCountIs(2) });
  assert.equal(await run.text, 'ok');
  assert.deepEqual((await run.steps)[0].toolCalls.map((c) => c.toolCallId), ['call-1-0', 'call-1-1']);
  assert.throws(() => functionCall('weather', { city: 'x' }, 'c1'), /options must be an object, got a string/);
});

test('a specificationVersion of another case is echoed in the message', () => {
  assert.throws(() => scriptedLanguageModel([], { specificationVersion: 'V4' }), (e) => e instanceof TypeError && e.message.includes('got "V4"'));
});

test('a streamText call past the end of the script is remembered: assertComplete() names it', async () => {
  const model = scriptedLanguageModel([[toolCall('weather', { city: 'Oslo' })]]);
  const errors = [];
  const run = streamText({ model, tools: { weather }, prompt: 'x', stopWhen: stepCountIs(3), onError: ({ error }) => errors.push(error) });
  await run.consumeStream();
  assert.ok(errors.some((e) => e instanceof UnexpectedModelCallError), 'the SDK saw the failed call');
  assert.throws(() => model.assertComplete(), (e) => e instanceof UnexpectedModelCallError && e.callIndex === 1 && e.streamed === true && /unexpected streaming call #2/.test(e.message));
});

test('an abort rejects a call whose responder is still pending', async () => {
  let settle;
  const pending = new Promise((resolve) => (settle = resolve));
  const model = scriptedLanguageModel([modelResponder(() => pending.then(() => textStep('late')))]);
  const controller = new AbortController();
  const call = model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], abortSignal: controller.signal });
  setTimeout(() => controller.abort(), 5);
  // The responder never settles before the call does: only the abort can end it.
  await assert.rejects(call, (e) => e.name === 'AbortError');
  settle();
  const streamed = scriptedLanguageModel([modelResponder(() => new Promise(() => {}))]);
  const again = new AbortController();
  const streamCall = streamed.doStream({ prompt: [], abortSignal: again.signal });
  again.abort();
  await assert.rejects(streamCall, (e) => e.name === 'AbortError');
});

test('the tool assertions given a wrapLanguageModel(...) result say to pass the model that was wrapped', () => {
  const model = scriptedLanguageModel([textStep('x')]);
  const wrapped = wrapLanguageModel({ model, middleware: { specificationVersion: 'v3' } });
  assert.throws(() => assertToolCalled(wrapped, 'weather'), (e) => e instanceof TypeError && /pass the scriptedLanguageModel, cassette or recordingLanguageModel itself, not a wrapLanguageModel/.test(e.message) && !/ScriptedModel\b/.test(e.message));
});

test('a call to a tool the call did not offer fails the call, naming the offered tools; allowUnofferedTools lets it through', async () => {
  const search = tool({ description: 'Search', inputSchema: z.object({ q: z.string() }), execute: async () => 'found' });
  const typo = scriptedLanguageModel([[toolCall('wether', { city: 'Oslo' })]]);
  await assert.rejects(
    generateText({ model: typo, tools: { weather, search }, prompt: 'x' }),
    (e) => e instanceof InvalidScriptedModelStepError && e.callIndex === 0 && e.reason === 'invalid_response' && /call #1: part 0 calls tool `wether`, which this call did not offer \(offered: `weather`, `search`\)/.test(e.message),
  );
  // A tool activeTools left out is not offered either, streamed as generated.
  const excluded = scriptedLanguageModel([[toolCall('weather', { city: 'Oslo' })]]);
  const errors = [];
  await streamText({ model: excluded, tools: { weather, search }, activeTools: ['search'], prompt: 'x', onError: ({ error }) => errors.push(error) }).consumeStream();
  assert.ok(errors.some((e) => e instanceof InvalidScriptedModelStepError && /offered: `search`\)/.test(e.message)), String(errors));
  const allowed = scriptedLanguageModel([[toolCall('wether', { city: 'Oslo' })]], { allowUnofferedTools: true });
  const result = await generateText({ model: allowed, tools: { weather }, prompt: 'x' });
  assert.equal(result.steps[0].content.find((p) => p.type === 'tool-error')?.toolName, 'wether');
  assert.throws(() => scriptedLanguageModel([], { allowUnofferedTools: 'yes' }), /allowUnofferedTools must be a boolean, got a string/);
});

test("the AI SDK entry's cassette errors speak of language models: no cassette at all, a streamed call replayed by generateText", async () => {
  const { ScriptedLanguageModel, recordingLanguageModel, InvalidCassetteError } = await import('@understudy/agents/ai-sdk/testing');
  assert.throws(
    () => ScriptedLanguageModel.fromCassette({}),
    (e) => e instanceof InvalidCassetteError && e.pointer === '/format' && !/@openai\/agents|ScriptedModel\b/.test(e.message),
  );
  const recording = recordingLanguageModel(scriptedLanguageModel([textStep('streamed')]));
  assert.equal(await streamText({ model: recording, prompt: 'x' }).text, 'streamed');
  const replayed = ScriptedLanguageModel.fromCassette(recording.toScript());
  await assert.rejects(
    generateText({ model: replayed, prompt: 'x', maxRetries: 0 }),
    (e) => e instanceof InvalidScriptedModelStepError && /call #1 is a generateText call .*replay with streamText, or record the cassette again with generateText/.test(e.message) && !/raw stream step/.test(e.message),
  );
});

test("strictTools says in the SDK user's words which property strict mode refuses and how to fix it", async () => {
  const { StrictSchemaError } = await import('@understudy/agents');
  const search = tool({ description: 'Search', inputSchema: z.object({ q: z.string(), limit: z.number().optional() }), execute: async () => 'found' });
  const openai = scriptedLanguageModel([textStep('x')], { strictTools: true });
  await assert.rejects(generateText({ model: openai, tools: { search }, prompt: 'x', maxRetries: 0 }), (e) => {
    assert.ok(e instanceof StrictSchemaError, String(e));
    assert.match(e.message, /property `limit` \(at `\/properties\/limit`\) is optional, and strict mode needs every property required/);
    assert.match(e.message, /`\.nullable\(\)`/);
    assert.match(e.message, /`providerSchemas\('openai'\)` in an AI SDK app/);
    return true;
  });
  const gemini = scriptedLanguageModel([textStep('x')], { strictTools: 'gemini' });
  const unions = tool({ description: 'u', inputSchema: z.object({ v: z.union([z.string(), z.number()]) }), execute: async () => 'ok' });
  await assert.rejects(generateText({ model: gemini, tools: { unions }, prompt: 'x', maxRetries: 0 }), (e) => e instanceof StrictSchemaError && /providerSchemas\('gemini'\) in an AI SDK app/.test(e.message));
});

test('a cassette names the model it recorded, and a replay reports it (steps[i].model, response.modelId)', async () => {
  const { ScriptedLanguageModel, recordingLanguageModel, InvalidCassetteError } = await import('@understudy/agents/ai-sdk/testing');
  const live = scriptedLanguageModel([textStep('a'), textStep('b')], { provider: 'google.generative-ai', modelId: 'gemini-2.5-flash', specificationVersion: 'v4' });
  const recording = recordingLanguageModel(live);
  const first = await generateText({ model: recording, prompt: 'x' });
  await streamText({ model: recording, prompt: 'y' }).consumeStream();
  const doc = recording.toScript();
  assert.deepEqual(doc.model, { provider: 'google.generative-ai', modelId: 'gemini-2.5-flash', specificationVersion: 'v4' });
  const replayed = ScriptedLanguageModel.fromCassette(doc);
  assert.equal(replayed.specificationVersion, 'v4');
  const again = await generateText({ model: replayed, prompt: 'x' });
  assert.deepEqual(again.steps[0].model, first.steps[0].model);
  assert.deepEqual(again.steps[0].model, { provider: 'google.generative-ai', modelId: 'gemini-2.5-flash' });
  assert.equal(again.response.modelId, 'gemini-2.5-flash');
  // The options say otherwise where a test wants another model.
  assert.equal(ScriptedLanguageModel.fromCassette(doc, { modelId: 'other', specificationVersion: 'v3' }).modelId, 'other');
  // Checked on load, at its pointer.
  assert.throws(() => ScriptedLanguageModel.fromCassette({ ...doc, model: { ...doc.model, modelId: 7 } }), (e) => e instanceof InvalidCassetteError && e.pointer === '/model/modelId');
});

test("a scripted error is the SDK's own APICallError class; a network failure is retried as the SDK retries one", async () => {
  const { APICallError } = await import('@ai-sdk/provider');
  const { modelError } = await import('@understudy/agents/ai-sdk/testing');
  const limited = scriptedLanguageModel([modelError(Object.assign(new Error('Rate limit'), { status: 429 }))]);
  await assert.rejects(generateText({ model: limited, prompt: 'x', maxRetries: 0 }), (e) => e instanceof APICallError && e.statusCode === 429 && e.isRetryable === true && e.message === 'Rate limit');
  const offline = scriptedLanguageModel([modelError(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })), textStep('back')]);
  const { text } = await generateText({ model: offline, prompt: 'x' });
  assert.equal(text, 'back');
  assert.equal(offline.calls.length, 2, 'the network failure was retried');
  const refused = scriptedLanguageModel([modelError(new TypeError('bad input'))]);
  await assert.rejects(generateText({ model: refused, prompt: 'x' }), (e) => APICallError.isInstance(e) && e.isRetryable === false);
  assert.equal(refused.calls.length, 1, 'another error is not retried');
});

test('stream control: the delta size of text and tool input, and a delay before each part', async () => {
  const text = 'abcdefghij';
  const model = scriptedLanguageModel([[assistantMessage(text)], [toolCall('weather', { city: 'Oslo' })]], { deltaSize: 3, chunkDelayInMs: 2 });
  const deltas = [];
  for await (const part of streamText({ model, prompt: 'x' }).fullStream) if (part.type === 'text-delta') deltas.push(part.text);
  assert.deepEqual(deltas, ['abc', 'def', 'ghi', 'j']);
  const inputs = [];
  const started = performance.now();
  for await (const part of streamText({ model, tools: { weather }, prompt: 'x' }).fullStream) if (part.type === 'tool-input-delta') inputs.push(part.delta);
  assert.deepEqual(inputs, ['{"c', 'ity', '":"', 'Osl', 'o"}']);
  // Each part waited at least its delay (a lower bound: a loaded machine only adds to it).
  assert.ok(performance.now() - started >= 2 * inputs.length, 'the parts were delayed');
  assert.throws(() => scriptedLanguageModel([], { deltaSize: 0 }), /deltaSize must be a positive integer, got a number \(0\)/);
  assert.throws(() => scriptedLanguageModel([], { chunkDelayInMs: -1 }), /chunkDelayInMs must be a non-negative number/);
});

test('the tool assertions read an AI SDK result too, and per call which tools were offered', async () => {
  const { assertToolCalledTimes, assertToolsOffered, assertToolNotCalled } = await import('@understudy/agents/ai-sdk/testing');
  const search = tool({ description: 'Search', inputSchema: z.object({ q: z.string() }), execute: async () => 'found' });
  const model = scriptedLanguageModel([[toolCall('weather', { city: 'Oslo' }), toolCall('weather', { city: 'Rome' })], [toolCall('search', { q: 'x' })], textStep('done')]);
  const result = await generateText({
    model,
    tools: { weather, search },
    prompt: 'x',
    stopWhen: stepCountIs(4),
    prepareStep: ({ stepNumber }) => (stepNumber === 1 ? { activeTools: ['search'] } : undefined),
  });
  // The result's steps, as a run against a cassette or a real model is checked.
  assertToolCalled(result, 'weather', { city: 'Rome' });
  assertToolCalledTimes(result, 'weather', 2);
  assertToolNotCalled(result, 'lookup');
  assert.throws(() => assertToolCalled(result, 'weather', { city: 'Paris' }), (e) => e.name === 'AssertionError' && /"city":"Oslo"/.test(e.message));
  const streamed = streamText({ model: scriptedLanguageModel([[toolCall('weather', { city: 'Oslo' })], textStep('ok')]), tools: { weather }, prompt: 'x', stopWhen: stepCountIs(2) });
  assert.throws(() => assertToolCalled(streamed, 'weather'), /pass \{ steps: await result\.steps \}/);
  await streamed.consumeStream();
  assertToolCalled({ steps: await streamed.steps }, 'weather', { city: 'Oslo' });
  // Per call: what activeTools left for that step.
  assertToolsOffered(model, ['weather', 'search']);
  assertToolsOffered(model, ['weather', 'search'], { call: 0 });
  assertToolsOffered(model, ['search'], { call: 1 });
  assert.throws(() => assertToolsOffered(model, ['weather'], { call: 1 }), (e) => e.name === 'AssertionError' && /in call #2; missing "weather"; not expected "search"/.test(e.message));
  assert.throws(() => assertToolsOffered(model, [], { call: 9 }), (e) => e.name === 'AssertionError' && /received 3 calls/.test(e.message));
  assert.throws(() => assertToolsOffered(result, ['weather']), /does not say which tools were offered/);
});

test('the order of tool calls, and arguments matched in part', async () => {
  const { assertToolCallOrder } = await import('@understudy/agents/ai-sdk/testing');
  const search = tool({ description: 'Search', inputSchema: z.object({ q: z.string(), limit: z.number() }), execute: async () => 'found' });
  const model = scriptedLanguageModel([[toolCall('search', { q: 'oslo', limit: 3 })], [toolCall('weather', { city: 'Oslo' })], textStep('done')]);
  const result = await generateText({ model, tools: { weather, search }, prompt: 'x', stopWhen: stepCountIs(4) });
  assertToolCallOrder(model, ['search', 'weather']);
  assertToolCallOrder(result, ['search', 'weather']);
  assert.throws(() => assertToolCallOrder(model, ['weather', 'search']), (e) => e.name === 'AssertionError' && /in that order; it called "search", "weather"/.test(e.message));
  assertToolCalled(model, 'search', { q: 'oslo' }, { partial: true });
  assert.throws(() => assertToolCalled(model, 'search', { q: 'oslo' }), (e) => e.name === 'AssertionError');
  assert.throws(() => assertToolCalled(model, 'search', { q: 'rome' }, { partial: true }), (e) => e.name === 'AssertionError' && /arguments holding \{"q":"rome"\}/.test(e.message));
});

test("the builders' options are checked: an unknown key is refused, naming the known ones", () => {
  assert.throws(() => toolCall('weather', { city: 'x' }, { id: 'c1' }), /toolCall: unknown option `id`; the option is `toolCallId`/);
  assert.throws(() => functionCall('weather', { city: 'x' }, { callid: 'c1' }), /functionCall: unknown option `callid`/);
  assert.throws(() => assistantMessage('hi', { phase: 'final_answer', role: 'user' }), /assistantMessage: unknown option `role`/);
  assert.equal(assistantMessage('hi', null).content[0].text, 'hi');
  assert.equal(toolCall('weather', { city: 'x' }, { toolCallId: 'c1' }).callId, 'c1');
});
