// The HTTP double under the providers' official clients from the registry (openai: Responses
// and Chat Completions, @anthropic-ai/sdk, @google/genai), each given `scriptedFetch` as its
// `fetch` and, separately, a `providerServer`'s URL as its base URL: text, streamed text,
// parallel tool calls, a tool loop, reasoning, a 429 the client's own retry gets past, and a
// schema the provider refuses raised as the client's own error class.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, ApiError } from '@google/genai';
import { scriptedFetch, providerServer, textStep, toolCall, reasoning, modelError, modelResponse, fetchResponder, assistantMessage } from '@understudy/agents/ai-sdk/testing';

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const timeSchema = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'], additionalProperties: false };
const openSchema = { type: 'object', properties: { city: { type: 'string' } } };

/** The script every client runs, in order. */
function script() {
  return [
    textStep('Hello there, how can I help?'),
    textStep('Streaming hello to you.'),
    [toolCall('weather', { city: 'Oslo' }), toolCall('time', { zone: 'CET' })],
    // The tool loop: a call, then an answer made from the tool's result in the request.
    [toolCall('weather', { city: 'Paris' })],
    fetchResponder((call) => {
      const results = call.request.messages.flatMap((m) => m.content).filter((p) => p.type === 'tool-result');
      return [assistantMessage(`It is ${JSON.stringify(results.at(-1)?.output)}.`)];
    }),
    modelResponse({ output: [reasoning('Oslo is north.'), assistantMessage('Cold.')], usage: { inputTokens: 12, outputTokens: 8, outputTokensDetails: { reasoning_tokens: 3 } } }),
    modelError({ status: 429, message: 'Rate limit reached' }, { retryAfterMs: 1 }),
    textStep('After the retry.'),
  ];
}

/** Each client, against `transport` (`{ fetch }` or `{ url }`): the scenario's answers in one object. */
const clients = {
  async 'openai responses'(t) {
    const client = new OpenAI({ apiKey: 'sk-test', ...(t.fetch ? { fetch: t.fetch } : { baseURL: `${t.url}/v1` }) });
    const tools = [
      { type: 'function', name: 'weather', parameters: weatherSchema },
      { type: 'function', name: 'time', parameters: timeSchema },
    ];
    const text = (await client.responses.create({ model: 'gpt-5', input: 'hi' })).output_text;
    let streamed = '';
    for await (const e of await client.responses.create({ model: 'gpt-5', input: 'hi', stream: true })) if (e.type === 'response.output_text.delta') streamed += e.delta;
    const parallel = (await client.responses.create({ model: 'gpt-5', input: 'weather and time', tools })).output.map((o) => [o.name, JSON.parse(o.arguments)]);
    const first = await client.responses.create({ model: 'gpt-5', input: 'weather in Paris', tools });
    const fc = first.output[0];
    const loop = (await client.responses.create({ model: 'gpt-5', tools, input: [{ role: 'user', content: 'weather in Paris' }, { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments }, { type: 'function_call_output', call_id: fc.call_id, output: 'sunny' }] })).output_text;
    const r = await client.responses.create({ model: 'gpt-5', input: 'think' });
    const thinking = [r.output[0].summary[0].text, r.output_text, r.usage.output_tokens_details.reasoning_tokens];
    const retried = (await client.responses.create({ model: 'gpt-5', input: 'again' })).output_text;
    const refused = await client.responses.create({ model: 'gpt-5', input: 'x', tools: [{ type: 'function', name: 'loose', parameters: openSchema }] }).catch((e) => e);
    return { text, streamed, parallel, loop, thinking, retried, refused: [refused instanceof OpenAI.BadRequestError, refused.status, refused.message] };
  },
  async 'openai chat'(t) {
    const client = new OpenAI({ apiKey: 'sk-test', ...(t.fetch ? { fetch: t.fetch } : { baseURL: `${t.url}/v1` }) });
    const tools = [
      { type: 'function', function: { name: 'weather', parameters: weatherSchema, strict: true } },
      { type: 'function', function: { name: 'time', parameters: timeSchema } },
    ];
    const user = [{ role: 'user', content: 'hi' }];
    const text = (await client.chat.completions.create({ model: 'gpt-4.1', messages: user })).choices[0].message.content;
    let streamed = '';
    for await (const c of await client.chat.completions.create({ model: 'gpt-4.1', messages: user, stream: true, stream_options: { include_usage: true } })) streamed += c.choices[0]?.delta?.content ?? '';
    const parallel = (await client.chat.completions.create({ model: 'gpt-4.1', messages: user, tools })).choices[0].message.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]);
    const first = (await client.chat.completions.create({ model: 'gpt-4.1', messages: user, tools })).choices[0].message;
    const loop = (await client.chat.completions.create({ model: 'gpt-4.1', tools, messages: [...user, first, { role: 'tool', tool_call_id: first.tool_calls[0].id, content: 'sunny' }] })).choices[0].message.content;
    const r = await client.chat.completions.create({ model: 'gpt-4.1', messages: user });
    const thinking = [r.choices[0].message.reasoning_content, r.choices[0].message.content, r.usage.completion_tokens_details.reasoning_tokens];
    const retried = (await client.chat.completions.create({ model: 'gpt-4.1', messages: user })).choices[0].message.content;
    const refused = await client.chat.completions.create({ model: 'gpt-4.1', messages: user, tools: [{ type: 'function', function: { name: 'loose', parameters: openSchema, strict: true } }] }).catch((e) => e);
    return { text, streamed, parallel, loop, thinking, retried, refused: [refused instanceof OpenAI.BadRequestError, refused.status, refused.message] };
  },
  async anthropic(t) {
    const client = new Anthropic({ apiKey: 'sk-ant-test', ...(t.fetch ? { fetch: t.fetch } : { baseURL: t.url }) });
    const tools = [
      { name: 'weather', input_schema: weatherSchema },
      { name: 'time', input_schema: timeSchema },
    ];
    const base = { model: 'claude-sonnet-4-5', max_tokens: 100 };
    const user = [{ role: 'user', content: 'hi' }];
    const text = (await client.messages.create({ ...base, messages: user })).content[0].text;
    let streamed = '';
    const stream = client.messages.stream({ ...base, messages: user });
    stream.on('text', (d) => (streamed += d));
    await stream.finalMessage();
    const parallel = (await client.messages.create({ ...base, messages: user, tools })).content.map((b) => [b.name, b.input]);
    const first = await client.messages.create({ ...base, messages: user, tools });
    const use = first.content[0];
    const loop = (await client.messages.create({ ...base, tools, messages: [...user, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] }] })).content[0].text;
    const r = await client.messages.stream({ ...base, messages: user, thinking: { type: 'enabled', budget_tokens: 1024 } }).finalMessage();
    const thinking = [r.content[0].thinking, r.content[1].text, r.usage.output_tokens];
    const retried = (await client.messages.create({ ...base, messages: user })).content[0].text;
    const strict = { name: 'bounded', strict: true, input_schema: { type: 'object', properties: { days: { type: 'integer', minimum: 1 } }, required: ['days'], additionalProperties: false } };
    const refused = await client.messages.create({ ...base, messages: user, tools: [strict] }).catch((e) => e);
    return { text, streamed, parallel, loop, thinking, retried, refused: [refused instanceof Anthropic.BadRequestError, refused.status, refused.message] };
  },
  async gemini(t) {
    const client = new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { ...(t.fetch ? { fetch: t.fetch } : { baseUrl: t.url }), retryOptions: { attempts: 3, initialDelay: 0.001, maxDelay: 0.01 } } });
    const model = 'gemini-2.5-flash';
    const config = { tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }, { name: 'time', parametersJsonSchema: timeSchema }] }] };
    const text = (await client.models.generateContent({ model, contents: 'hi' })).text;
    let streamed = '';
    for await (const c of await client.models.generateContentStream({ model, contents: 'hi' })) streamed += c.text ?? '';
    const parallel = (await client.models.generateContent({ model, contents: 'hi', config })).functionCalls.map((c) => [c.name, c.args]);
    const first = await client.models.generateContent({ model, contents: 'hi', config });
    const call = first.functionCalls[0];
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }, first.candidates[0].content, { role: 'user', parts: [{ functionResponse: { name: call.name, response: { result: 'sunny' } } }] }];
    const loop = (await client.models.generateContent({ model, contents, config })).text;
    const r = await client.models.generateContent({ model, contents: 'hi', config: { thinkingConfig: { includeThoughts: true } } });
    const parts = r.candidates[0].content.parts;
    const thinking = [parts[0].thought && parts[0].text, r.text, r.usageMetadata.thoughtsTokenCount];
    const retried = (await client.models.generateContent({ model, contents: 'hi' })).text;
    const refused = await client.models.generateContent({ model, contents: 'hi', config: { tools: [{ functionDeclarations: [{ name: 'count', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', exclusiveMinimum: 0 } } } }] }] } }).catch((e) => e);
    return { text, streamed, parallel, loop, thinking, retried, refused: [refused instanceof ApiError, refused.status, refused.message] };
  },
};

/** What each client must read; the loop's answer quotes the tool result as the client sent it. */
function expected(name, got) {
  const loopResult = { 'openai responses': '"sunny"', 'openai chat': '"sunny"', anthropic: '"sunny"', gemini: '{"result":"sunny"}' }[name];
  const thinking = name === 'anthropic' ? ['Oslo is north.', 'Cold.', 8] : ['Oslo is north.', 'Cold.', 3];
  return {
    text: 'Hello there, how can I help?',
    streamed: 'Streaming hello to you.',
    parallel: [
      ['weather', { city: 'Oslo' }],
      ['time', { zone: 'CET' }],
    ],
    loop: `It is ${loopResult}.`,
    thinking,
    retried: 'After the retry.',
    refused: [true, 400, got.refused[2]],
  };
}

for (const [name, run] of Object.entries(clients)) {
  for (const transport of ['fetch', 'server']) {
    test(`${name} through ${transport === 'fetch' ? 'scriptedFetch as its fetch' : 'providerServer as its base URL'}`, async () => {
      const double = transport === 'fetch' ? scriptedFetch(script(), { deltaSize: 5 }) : await providerServer(script(), { deltaSize: 5 });
      try {
        const got = await run(transport === 'fetch' ? { fetch: double } : { url: double.url });
        assert.deepEqual(got, expected(name, got));
        // The refusal names the tool, the place and the reason.
        const message = got.refused[2];
        assert.match(message, name === 'gemini' ? /count.*exclusiveMinimum/s : name === 'anthropic' ? /bounded.*minimum.*\/properties\/days/s : /loose.*additionalProperties/s);
        // Every step was used; the 429 is a step the client retried past; the refused request took none (one call more than steps).
        double.assertComplete();
        const calls = double.calls;
        assert.equal(calls.length, script().length + 1);
        assert.ok(Object.isFrozen(calls[0]));
        assert.equal(calls.filter((c) => c.streamed).length, name === 'anthropic' ? 2 : 1);
        const loopCall = calls[4];
        assert.ok(loopCall.request.messages.some((m) => m.role === 'tool'), 'the tool result reads as a tool message');
      } finally {
        if (transport === 'server') await double.close();
      }
    });
  }
}

test('a call past the script is the provider 500 the client raises with the double\'s message, and assertComplete reports it', async () => {
  const fetch = scriptedFetch([textStep('only one')]);
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 2 });
  assert.equal((await client.responses.create({ model: 'm', input: 'a' })).output_text, 'only one');
  const e = await client.responses.create({ model: 'm', input: 'b' }).catch((x) => x);
  assert.ok(e instanceof OpenAI.InternalServerError, e.constructor.name);
  assert.match(e.message, /scriptedFetch received unexpected non-streaming call #2; no scripted steps remain/);
  assert.equal(fetch.calls.length, 2, 'x-should-retry: false, so the client did not retry');
  assert.throws(() => fetch.assertComplete(), (x) => x.name === 'UnexpectedModelCallError');
});

test('an unknown endpoint is a 404 naming the supported ones; a step in no wire form is refused when queued', async () => {
  const fetch = scriptedFetch([]);
  const r = await fetch('https://api.openai.com/v1/embeddings', { method: 'POST', body: '{}' });
  assert.equal(r.status, 404);
  const { error } = await r.json();
  assert.match(error.message, /POST https:\/\/api\.openai\.com\/v1\/embeddings.*chat\/completions.*:generateContent/);
  const { modelStream } = await import('@understudy/agents/ai-sdk/testing');
  assert.throws(() => scriptedFetch([modelStream([])]), (e) => e.name === 'InvalidScriptedModelStepError' && /scriptedFetch input #1: a modelStream step/.test(e.message));
  assert.throws(() => scriptedFetch([], { deltaSize: 0 }), TypeError);
  assert.throws(() => scriptedFetch([], { delta: 3 }), TypeError);
});
