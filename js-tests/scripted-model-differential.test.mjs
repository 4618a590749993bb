// ScriptedModel, ours against the reference (@openai/agents@0.20.0's `./testing`), on the same
// scenarios: every invalid step envelope, exhaustion and extra calls, incompatible steps, every
// abort checkpoint, responders, normalization, automatic streams, retry advice and snapshots.
// Each scenario runs against both modules; errors must agree in class, `name`, own fields (in
// order) and message, and results must be deeply equal.
import assert from 'node:assert/strict';
import test from 'node:test';
import vm from 'node:vm';
import { Usage } from '@openai/agents-core';
import * as reference from '@openai/agents/testing';
import * as ours from '@understudy/agents/testing';
import { differential, errorShape } from './helpers.mjs';

const same = differential(reference, ours);

function request(overrides = {}) {
  return { input: 'hello', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false, ...overrides };
}

async function drain(iterable) {
  const events = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const complete = (extra = {}) => ({ output: [], usage: new Usage({ requests: 1, inputTokens: 3 }), ...extra });

// --- queue-time envelope validation ------------------------------------------------------------

const invalidInputs = {
  null: null,
  number: 42,
  string: 'reply',
  function: () => [],
  'empty object': {},
  'unknown type': { type: 'reply' },
  'empty type': { type: '' },
  'numeric type': { type: 5 },
  'undefined type': { type: undefined },
  'response without response': { type: 'response' },
  'response not an envelope': { type: 'response', response: {} },
  'response with plain usage': { type: 'response', response: { output: [], usage: { requests: 1 } } },
  'response with non-array output': { type: 'response', response: { output: 'x', usage: new Usage() } },
  'error without error': { type: 'error' },
  'responder without respond': { type: 'responder' },
  'responder with non-function': { type: 'responder', respond: 'x' },
  'stream responder without respond': { type: 'stream_responder' },
  'stream without events': { type: 'stream' },
  'stream with number events': { type: 'stream', events: 5 },
  'stream with plain object events': { type: 'stream', events: {} },
  'output without usage': { output: [] },
  'usage without output': { usage: new Usage() },
  'output of wrong type': { output: {}, usage: new Usage() },
};

for (const [label, input] of Object.entries(invalidInputs)) {
  test(`invalid input agrees with the reference: ${label}`, async () => {
    const viaConstructor = await same((T) => new T.ScriptedModel([[], input]));
    assert.ok(viaConstructor.threw, 'the constructor refuses it');
    assert.equal(viaConstructor.threw.fields.inputIndex, 1);
    const viaEnqueue = await same((T) => {
      const model = new T.ScriptedModel();
      try {
        model.enqueue(input);
      } catch (error) {
        return { error: errorShape(error), remaining: model.remainingSteps };
      }
      return 'queued';
    });
    assert.equal(viaEnqueue.value.remaining, 0);
  });
}

test('one invalid input in enqueue() queues none of the call', async () => {
  const result = await same((T) => {
    const model = new T.ScriptedModel([[T.assistantMessage('kept')]]);
    try {
      model.enqueue([T.assistantMessage('a')], T.modelError(new Error('x')), { type: 'nope' });
    } catch (error) {
      return { error: errorShape(error), remaining: model.remainingSteps };
    }
  });
  assert.equal(result.value.remaining, 1);
  assert.equal(result.value.error.fields.inputIndex, 2);
});

test('valid inputs of every kind are accepted', async () => {
  const result = await same((T) => {
    const model = new T.ScriptedModel([
      [],
      complete(),
      T.modelResponse([]),
      T.modelResponse(complete()),
      T.modelError(undefined),
      T.modelResponder(() => []),
      T.modelStream([]),
      T.modelStream(new Set()),
      T.modelStream({ async *[Symbol.asyncIterator]() {} }),
      T.modelStreamResponder(() => []),
    ]);
    return model.remainingSteps;
  });
  assert.equal(result.value, 10);
});

// --- exhaustion, extra calls, incompatible steps ---------------------------------------------------

test('an extra non-streaming call is recorded and refused', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([[T.assistantMessage('one')]]);
    await model.getResponse(request());
    try {
      await model.getResponse(request({ input: 'second' }));
    } catch (error) {
      return { error: errorShape(error), calls: model.calls.length, last: model.lastCall.request.input };
    }
  });
  assert.equal(result.value.error.class, 'UnexpectedModelCallError');
  assert.deepEqual(result.value.error.fields, { callIndex: 1, streamed: false, name: 'UnexpectedModelCallError' });
  assert.equal(result.value.calls, 2);
});

test('an extra streaming call throws synchronously from getStreamedResponse', async () => {
  const result = await same((T) => {
    const model = new T.ScriptedModel();
    let iterable;
    try {
      iterable = model.getStreamedResponse(request());
    } catch (error) {
      return { sync: true, error: errorShape(error), calls: model.calls.length };
    }
    return { sync: false, iterable: typeof iterable };
  });
  assert.equal(result.value.sync, true);
  assert.equal(result.value.error.fields.streamed, true);
});

for (const remaining of [1, 2]) {
  test(`assertComplete with ${remaining} unconsumed step(s)`, async () => {
    const result = await same((T) => {
      const model = new T.ScriptedModel(Array.from({ length: remaining }, () => []));
      model.assertComplete();
    });
    assert.equal(result.threw.fields.remainingSteps, remaining);
  });
}

for (const kind of ['stream', 'stream_responder']) {
  test(`a ${kind} step refuses a non-streaming call and is consumed`, async () => {
    const result = await same(async (T) => {
      const step = kind === 'stream' ? T.modelStream([]) : T.modelStreamResponder(() => []);
      const model = new T.ScriptedModel([step, []]);
      try {
        await model.getResponse(request());
      } catch (error) {
        return { error: errorShape(error), remaining: model.remainingSteps, calls: model.calls.length };
      }
    });
    assert.equal(result.value.error.fields.reason, 'incompatible_call');
    assert.equal(result.value.remaining, 1);
  });
}

test('a responder returning a non-response is refused with the call index', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([[], T.modelResponder(() => ({ output: [] }))]);
    await model.getResponse(request());
    return model.getResponse(request());
  });
  assert.equal(result.threw.fields.callIndex, 1);
  assert.equal(result.threw.fields.reason, 'invalid_response');
});

test('a stream responder returning a non-iterable is refused', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([T.modelStreamResponder(async () => 42)]);
    return drain(model.getStreamedResponse(request()));
  });
  assert.equal(result.threw.fields.stepType, 'stream_responder');
});

// --- aborts ----------------------------------------------------------------------------------------

test('an already aborted request records and consumes nothing', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([[]]);
    const controller = new AbortController();
    controller.abort();
    const outcomes = [];
    try {
      await model.getResponse(request({ signal: controller.signal }));
    } catch (error) {
      outcomes.push(errorShape(error));
    }
    try {
      model.getStreamedResponse(request({ signal: controller.signal }));
    } catch (error) {
      outcomes.push({ sync: true, ...errorShape(error) });
    }
    return { outcomes, calls: model.calls.length, remaining: model.remainingSteps };
  });
  assert.equal(result.value.outcomes[0].name, 'AbortError');
  assert.equal(result.value.outcomes[1].sync, true);
  assert.equal(result.value.remaining, 1);
});

test('an abort while a responder runs is reported with the call index', async () => {
  const result = await same(async (T) => {
    const controller = new AbortController();
    const model = new T.ScriptedModel([
      T.modelResponder(async () => {
        controller.abort();
        return [];
      }),
    ]);
    return model.getResponse(request({ signal: controller.signal }));
  });
  assert.deepEqual(result.threw.fields, { callIndex: 0, name: 'AbortError' });
  assert.equal(result.threw.class, 'ScriptedModelRequestAbortedError');
});

test('an abort raised by a rawUsage getter during normalization', async () => {
  const result = await same(async (T) => {
    const controller = new AbortController();
    const response = complete();
    Object.defineProperty(response, 'rawUsage', {
      enumerable: true,
      get() {
        controller.abort();
        return { total: 1 };
      },
    });
    const model = new T.ScriptedModel([response]);
    return model.getResponse(request({ signal: controller.signal, modelSettings: { preserveRawUsage: true } }));
  });
  assert.deepEqual(result.threw.fields, { callIndex: 0, name: 'AbortError' });
});

test('a stream aborted between events stops with the call index', async () => {
  const result = await same(async (T) => {
    const controller = new AbortController();
    const model = new T.ScriptedModel([[T.assistantMessage('a'), T.assistantMessage('b')]]);
    const seen = [];
    try {
      for await (const event of model.getStreamedResponse(request({ signal: controller.signal }))) {
        seen.push(event.type);
        if (event.type === 'output_text_delta') controller.abort();
      }
    } catch (error) {
      return { seen, error: errorShape(error) };
    }
  });
  assert.deepEqual(result.value.seen, ['response_started', 'output_text_delta']);
});

test('an abort before a streamed error or responder step is dispatched', async () => {
  const result = await same(async (T) => {
    const controller = new AbortController();
    let called = false;
    const model = new T.ScriptedModel([
      T.modelResponder(() => {
        called = true;
        return [];
      }),
    ]);
    const iterable = model.getStreamedResponse(request({ signal: controller.signal }));
    controller.abort();
    try {
      await drain(iterable);
    } catch (error) {
      return { called, error: errorShape(error), calls: model.calls.length };
    }
  });
  assert.equal(result.value.called, false);
});

test('an abort after the last raw stream event', async () => {
  const result = await same(async (T) => {
    const controller = new AbortController();
    const model = new T.ScriptedModel([
      T.modelStream(
        (function* () {
          yield { type: 'response_started' };
          controller.abort();
        })(),
      ),
    ]);
    const seen = [];
    try {
      for await (const event of model.getStreamedResponse(request({ signal: controller.signal }))) seen.push(event);
    } catch (error) {
      return { seen, error: errorShape(error) };
    }
  });
  assert.equal(result.value.seen.length, 1);
});

// --- responses and normalization -------------------------------------------------------------------

test('shorthand responses get usage and a deterministic id', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([[T.assistantMessage('a')], [T.functionCall('f', { x: 1 }, { callId: 'c' })]]);
    return [await model.getResponse(request()), await model.getResponse(request())];
  });
  assert.equal(result.value[1].responseId, 'scripted-response-2');
});

test('complete responses keep their fields; explicit Usage({requests:0}) survives', async () => {
  await same(async (T) => {
    const model = new T.ScriptedModel([
      complete({ responseId: 'r1', requestId: 'q1', providerData: { a: [1] } }),
      { output: [], usage: new Usage({ requests: 0 }) },
    ]);
    const first = await model.getResponse(request());
    const second = await model.getResponse(request());
    return { first, second, usageIsUsage: second.usage instanceof Usage };
  });
});

test('rawUsage is read once only when preserveRawUsage is true, and detached', async () => {
  const result = await same(async (T) => {
    let reads = 0;
    const raw = { input_tokens: 3, nested: { list: [1, 2] }, dropped: undefined };
    const make = () => {
      const response = complete();
      Object.defineProperty(response, 'rawUsage', {
        enumerable: true,
        get() {
          reads += 1;
          return raw;
        },
      });
      return response;
    };
    const model = new T.ScriptedModel([make(), make()]);
    const kept = await model.getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    const readsAfterKept = reads;
    const ignored = await model.getResponse(request({ modelSettings: {} }));
    return { kept, readsAfterKept, ignored, reads, detached: kept.rawUsage !== raw, hasRaw: 'rawUsage' in ignored };
  });
  assert.equal(result.value.readsAfterKept, 1);
  assert.equal(result.value.reads, 1);
  assert.equal(result.value.hasRaw, false);
});

for (const [label, raw] of Object.entries({
  'a class instance': new Map(),
  'a cycle': (() => {
    const o = { a: 1 };
    o.self = o;
    return o;
  })(),
  'a non-finite number': { n: Infinity },
  'a function member': { f() {} },
  'an array': [1, 2],
})) {
  test(`a rawUsage that is ${label} is omitted`, async () => {
    const result = await same(async (T) => {
      const model = new T.ScriptedModel([complete({ rawUsage: raw })]);
      const response = await model.getResponse(request({ modelSettings: { preserveRawUsage: true } }));
      return { keys: Object.keys(response), rawUsage: response.rawUsage };
    });
    assert.equal(result.value.rawUsage, undefined);
  });
}

test('a throwing rawUsage getter is swallowed', async () => {
  await same(async (T) => {
    const response = complete();
    Object.defineProperty(response, 'rawUsage', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const model = new T.ScriptedModel([response]);
    const normalized = await model.getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    return Object.keys(normalized);
  });
});

test('the recorded preserveRawUsage is the call-time value', async () => {
  const result = await same(async (T) => {
    const settings = { preserveRawUsage: true };
    const model = new T.ScriptedModel([
      T.modelResponder(async () => {
        settings.preserveRawUsage = false;
        return complete({ rawUsage: { tokens: 2 } });
      }),
    ]);
    return model.getResponse(request({ modelSettings: settings }));
  });
  assert.deepEqual(result.value.rawUsage, { tokens: 2 });
});

// --- streams ---------------------------------------------------------------------------------------

test('automatic stream events for plain steps', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([
      [
        T.assistantMessage('Hello', { id: 'm1' }),
        T.functionCall('f', '{}', { callId: 'c1' }),
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          id: 'm2',
          content: [
            { type: 'output_text', text: 'a', providerData: { p: 1 } },
            { type: 'refusal', refusal: 'no' },
            { type: 'output_text', text: 'b' },
          ],
        },
      ],
      complete({ usage: new Usage({ requests: 1, inputTokens: 2, outputTokens: 3, inputTokensDetails: { cached_tokens: 1 } }) }),
    ]);
    return [await drain(model.getStreamedResponse(request())), await drain(model.getStreamedResponse(request()))];
  });
  const [first, second] = result.value;
  assert.deepEqual(
    first.map((e) => e.type),
    ['response_started', 'output_text_delta', 'output_text_delta', 'output_text_delta', 'response_done'],
  );
  assert.equal(second.at(-1).response.id, 'scripted-response-2');
});

test('automatic stream events are independent snapshots', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([
      [{ type: 'message', role: 'assistant', status: 'completed', id: 'm', content: [{ type: 'output_text', text: 't', providerData: { k: 'v' } }] }],
    ]);
    const events = [];
    for await (const event of model.getStreamedResponse(request())) {
      if (event.providerData) event.providerData.k = 'changed';
      events.push(event);
    }
    return events.at(-1).response.output[0].content[0].providerData;
  });
  assert.deepEqual(result.value, { k: 'v' });
});

test('raw streams yield events unchanged; arrays are snapshotted at queue time', async () => {
  await same(async (T) => {
    const events = [{ type: 'response_started' }, { type: 'output_text_delta', delta: 'x' }];
    const iterator = new Set([{ type: 'response_started' }]);
    const model = new T.ScriptedModel([T.modelStream(events), T.modelStream(iterator), T.modelStreamResponder(async (call) => [{ type: 'model', event: call.index }])]);
    events[1].delta = 'mutated';
    events.push({ type: 'late' });
    return [
      await drain(model.getStreamedResponse(request())),
      await drain(model.getStreamedResponse(request())),
      await drain(model.getStreamedResponse(request())),
    ];
  });
});

test('two streams created back-to-back take steps in creation order', async () => {
  const result = await same(async (T) => {
    const model = new T.ScriptedModel([[T.assistantMessage('first')], [T.assistantMessage('second')]]);
    const a = model.getStreamedResponse(request());
    const b = model.getStreamedResponse(request());
    const fromB = await drain(b);
    const fromA = await drain(a);
    return [fromA[1].delta, fromB[1].delta];
  });
  assert.deepEqual(result.value, ['first', 'second']);
});

// --- errors and retry advice -----------------------------------------------------------------------

test('error steps throw the scripted value itself', async () => {
  const scripted = new Error('rate limited');
  for (const T of [reference, ours]) {
    const model = new T.ScriptedModel([T.modelError(scripted), T.modelError('a string')]);
    await assert.rejects(model.getResponse(request()), (e) => e === scripted);
    await assert.rejects(drain(model.getStreamedResponse(request())), (e) => e === 'a string');
  }
});

test('retry advice: fixed, callback, none, per-step for reused errors, exact request first', async () => {
  const result = await same(async (T) => {
    const error = new Error('reused');
    const other = new Error('other');
    const fixed = { suggested: true, replaySafety: 'safe' };
    const model = new T.ScriptedModel([
      T.modelError(error, fixed),
      T.modelError(error, ({ attempt }) => ({ suggested: attempt === 1 })),
      T.modelError(other),
    ]);
    fixed.suggested = false; // static advice is a queue-time snapshot
    const r1 = request({ input: 'one' });
    const r2 = request({ input: 'two' });
    const r3 = request();
    for (const r of [r1, r2, r3]) await model.getResponse(r).catch(() => {});
    const second = await model.getRetryAdvice({ error, request: r2, stream: false, attempt: 1 });
    const first = await model.getRetryAdvice({ error, request: request(), stream: false, attempt: 1 });
    const again = await model.getRetryAdvice({ error, request: r1, stream: false, attempt: 1 });
    const none = await model.getRetryAdvice({ error: other, request: r3, stream: false, attempt: 1 });
    const unknown = await model.getRetryAdvice({ error: new Error('never scripted'), request: r3, stream: false, attempt: 1 });
    return { second, first, again, none, unknown };
  });
  assert.deepEqual(result.value.second, { suggested: true });
  assert.deepEqual(result.value.first, { suggested: true, replaySafety: 'safe' });
});

test('retry advice matches the streaming mode and shared request inputs', async () => {
  await same(async (T) => {
    const error = new Error('e');
    const model = new T.ScriptedModel([T.modelError(error, { suggested: false }), T.modelError(error, { suggested: true })]);
    const shared = request();
    await model.getResponse(shared).catch(() => {});
    await drain(model.getStreamedResponse({ ...shared })).catch(() => {});
    const streamed = await model.getRetryAdvice({ error, request: { ...shared }, stream: true, attempt: 1 });
    const plain = await model.getRetryAdvice({ error, request: { ...shared }, stream: false, attempt: 1 });
    const gone = await model.getRetryAdvice({ error, request: shared, stream: false, attempt: 1 });
    return { streamed, plain, gone };
  });
});

// --- recording and snapshots -----------------------------------------------------------------------

test('recorded calls are frozen, fresh and detached', async () => {
  const result = await same(async (T) => {
    const input = [{ type: 'message', role: 'user', content: 'hi' }];
    const settings = { temperature: 0.1 };
    const model = new T.ScriptedModel([[]]);
    await model.getResponse(request({ input, modelSettings: settings }));
    input.push({ late: true });
    settings.temperature = 1;
    const calls = model.calls;
    let popError;
    try {
      calls.pop();
    } catch (error) {
      popError = error.constructor.name;
    }
    calls[0].request.input.push({ mutated: true });
    return {
      popError,
      frozen: [Object.isFrozen(calls), Object.isFrozen(calls[0]), Object.isFrozen(calls[0].request)],
      fresh: model.calls[0] !== calls[0],
      input: model.firstCall.request.input,
      temperature: model.lastCall.request.modelSettings.temperature,
    };
  });
  assert.equal(result.value.popError, 'TypeError');
  assert.deepEqual(result.value.input, [{ type: 'message', role: 'user', content: 'hi' }]);
});

test('snapshots keep identities, cycles, shared references, buffers and views', async () => {
  const signal = new AbortController().signal;
  const policy = () => true;
  class Tool {}
  const instance = new Tool();
  const buffer = new ArrayBuffer(8);
  const crossRealm = vm.runInNewContext('({ a: { b: 1 } })');
  const nullProto = Object.create(null);
  nullProto.z = 1;
  Object.defineProperty(nullProto, '__proto__', { value: 'own', enumerable: true, configurable: true, writable: true });
  const sym = Symbol('s');
  for (const T of [reference, ours]) {
    const shared = { s: 1 };
    const cyclic = { shared };
    cyclic.self = cyclic;
    const model = new T.ScriptedModel([[]]);
    await model.getResponse(
      request({
        signal,
        modelSettings: { retry: { policy } },
        tools: [instance],
        input: [cyclic, shared, new Uint8Array(buffer, 2, 4), new DataView(buffer, 1, 3), crossRealm, nullProto, { [sym]: 'symbol key' }],
      }),
    );
    const r = model.firstCall.request;
    assert.equal(r.signal, signal);
    assert.equal(r.modelSettings.retry.policy, policy);
    assert.equal(r.tools[0], instance);
    const [c, s, view, dataView, realm, np, withSymbol] = r.input;
    assert.notEqual(c, cyclic);
    assert.equal(c.self, c, 'cycle preserved');
    assert.equal(c.shared, s, 'shared reference preserved');
    assert.notEqual(view.buffer, buffer);
    assert.equal(view.buffer, dataView.buffer, 'views keep sharing the copied buffer');
    assert.deepEqual([view.byteOffset, view.length, dataView.byteOffset, dataView.byteLength], [2, 4, 1, 3]);
    assert.notEqual(realm, crossRealm, 'plain objects of another realm are copied');
    assert.equal(Object.getPrototypeOf(np), null);
    assert.equal(Object.getOwnPropertyDescriptor(np, '__proto__').value, 'own');
    assert.equal(withSymbol[sym], 'symbol key');
  }
});

test('object literals: own __proto__ and constructor keys, hidden keys and symbols are copied as the reference copies them', async () => {
  const sym = Symbol('s');
  const hiddenSym = Symbol('hidden');
  await same(async (T) => {
    const literal = JSON.parse('{"__proto__":{"x":1},"constructor":"c","toString":5,"a":[1,{"b":2}]}');
    const hidden = { shown: 1 };
    Object.defineProperty(hidden, 'hidden', { value: 2, enumerable: false });
    const symbols = { plain: 1, [sym]: 'kept' };
    Object.defineProperty(symbols, hiddenSym, { value: 'dropped', enumerable: false });
    const getter = { get computed() { return 'read once'; } };
    const model = new T.ScriptedModel([[]]);
    await model.getResponse(request({ input: [literal, hidden, symbols, getter] }));
    const [l, h, s, g] = model.firstCall.request.input;
    return {
      literal: [Object.getPrototypeOf(l) === Object.prototype, Object.keys(l), Object.getOwnPropertyDescriptor(l, '__proto__')?.value, l.constructor, l.toString, l.a],
      hidden: [Object.getOwnPropertyNames(h), h.hidden],
      symbols: [Object.getOwnPropertySymbols(s).map(String), s[sym], s[hiddenSym]],
      getter: Object.getOwnPropertyDescriptor(g, 'computed'),
    };
  });
});

test('a growing history is recorded call by call: changed, added, dropped and reordered keys, shared and cyclic items', async () => {
  await same(async (T) => {
    const model = new T.ScriptedModel([[], [], [], [], []]);
    const first = { type: 'message', role: 'user', content: 'one' };
    const second = { type: 'message', role: 'user', content: 'two' };
    const twin = { type: 'message', role: 'user', content: 'two' };
    const signal = new AbortController().signal;
    const history = [first, second, twin];
    await model.getResponse(request({ input: history, signal }));
    // The caller changes an item it sent before, and sends one item twice where two equal ones were.
    first.content = 'one, edited';
    await model.getResponse(request({ input: [first, second, second], signal }));
    // Two equal items again, where one was sent twice; a key added, one dropped, an order changed.
    const added = { ...second, extra: true };
    const { role, ...dropped } = first;
    const reordered = { content: 'two', role: 'user', type: 'message' };
    await model.getResponse(request({ input: [dropped, second, twin, added, reordered], signal }));
    // A cycle through an item, then the same history without it.
    const cyclic = { type: 'message', role: 'user', content: 'loop' };
    cyclic.self = cyclic;
    await model.getResponse(request({ input: [dropped, second, twin, cyclic], signal }));
    await model.getResponse(request({ input: [dropped, second, twin], signal }));
    return model.calls.map(({ request: r }) => ({
      input: r.input.map((item) => (item.self === undefined ? [Object.keys(item), item] : ['cycle kept', item.self === item])),
      shared: r.input.map((item) => r.input.indexOf(item)),
      signal: r.signal === signal,
      frozen: Object.isFrozen(r),
    }));
  });
});

test('a record taken over from the one before stays as it was when the caller changes the history again', async () => {
  await same(async (T) => {
    const model = new T.ScriptedModel([[], [], []]);
    const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] };
    await model.getResponse(request({ input: [item] }));
    await model.getResponse(request({ input: [item] }));
    item.content[0].text = 'b';
    await model.getResponse(request({ input: [item] }));
    const calls = model.calls;
    calls[0].request.input[0].content[0].text = 'changed by a reader';
    return [calls.map((c) => c.request.input[0].content[0].text), model.calls.map((c) => c.request.input[0].content[0].text)];
  });
});

test('records of random growing histories equal those of the reference: edits, shared items, cycles and kept objects, 300 seeds', async () => {
  class Kept {}
  // Each record as a tree in which an object is written once and then named by its number, so
  // the comparison sees which copies are one object, within a record and across records.
  const canonical = (calls, kept) => {
    const ids = new Map();
    const walk = (v) => {
      if (typeof v !== 'object' || v === null) return v;
      if (v instanceof Kept) return `kept ${kept.indexOf(v)}`;
      if (ids.has(v)) return { ref: ids.get(v) };
      ids.set(v, ids.size);
      const id = ids.get(v);
      if (Array.isArray(v)) return { id, items: v.map(walk) };
      return { id, keys: Object.keys(v), values: Object.keys(v).map((k) => walk(v[k])) };
    };
    // A fresh numbering per record: records are separate snapshots.
    return calls.map((c) => {
      ids.clear();
      return walk(c.request.input);
    });
  };
  for (let seed = 1; seed <= 300; seed++) {
    const results = [];
    for (const T of [reference, ours]) {
      let state = seed;
      const rand = () => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return state / 2 ** 32;
      };
      const kept = [new Kept(), new Kept()];
      const leaf = () => [() => 'text', () => Math.floor(rand() * 5), () => null, () => rand() < 0.5, () => kept[rand() < 0.5 ? 0 : 1]][Math.floor(rand() * 5)]();
      const item = (depth) => {
        const o = { type: 'message', content: leaf() };
        if (depth < 2 && rand() < 0.5) o.nested = rand() < 0.5 ? [item(depth + 1), leaf()] : item(depth + 1);
        return o;
      };
      const pool = Array.from({ length: 4 }, () => item(0));
      const history = [];
      const model = new T.ScriptedModel(Array.from({ length: 6 }, () => []));
      for (let call = 0; call < 6; call++) {
        const target = pool[Math.floor(rand() * pool.length)];
        // A copy equal in content but not in identity (a runner rebuilding its items), three
        // levels deep (below, the same objects: items may point at each other in circles).
        const clone = (v, d = 0) => (typeof v !== 'object' || v === null || v instanceof Kept || d > 2 ? v : Array.isArray(v) ? v.map((x) => clone(x, d + 1)) : Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'self').map(([k, x]) => [k, clone(x, d + 1)])));
        const at = () => Math.floor(rand() * history.length);
        switch (Math.floor(rand() * 10)) {
          case 0: target.content = leaf(); break;
          case 1: target.extra = leaf(); break;
          case 2: delete target.content; break;
          case 3: { const { type, ...rest } = target; for (const k of Object.keys(target)) delete target[k]; Object.assign(target, rest, { type }); break; }
          case 4: target.self = rand() < 0.5 ? target : undefined; break;
          case 5: if (target.nested !== undefined) target.nested = pool[Math.floor(rand() * pool.length)]; break;
          case 6: if (Array.isArray(target.nested)) target.nested[1] = leaf(); break;
          case 7: if (history.length > 0) history[at()] = clone(history[at()]); break;
          case 8: if (history.length > 1) history[at()] = history[at()]; break;
          default: pool.push(item(0));
        }
        history.push(pool[Math.floor(rand() * pool.length)]);
        await model.getResponse(request({ input: rand() < 0.2 ? [...history] : history }));
      }
      results.push(canonical(model.calls, kept));
    }
    assert.deepEqual(results[1], results[0], `seed ${seed}`);
  }
});

test('responders get a fresh snapshot whose changes do not reach the log', async () => {
  await same(async (T) => {
    const model = new T.ScriptedModel([
      T.modelResponder((call) => {
        call.request.input.push('responder change');
        return [T.assistantMessage(String(call.index))];
      }),
    ]);
    const response = await model.getResponse(request({ input: ['original'] }));
    return { response, input: model.firstCall.request.input, isFrozen: Object.isFrozen(model.firstCall) };
  });
});

test('queued responses are snapshots: later caller mutations are invisible', async () => {
  await same(async (T) => {
    const output = [T.assistantMessage('original')];
    const usage = new Usage({ requests: 1, inputTokens: 5, requestUsageEntries: [{ inputTokens: 5, endpoint: 'responses.create' }] });
    const model = new T.ScriptedModel([output, { output, usage, providerData: { a: 1 } }]);
    output[0].content[0].text = 'mutated';
    output.push(T.assistantMessage('late'));
    usage.inputTokens = 99;
    return [await model.getResponse(request()), await model.getResponse(request())];
  });
});

test('step factories and item helpers build the same objects', async () => {
  await same((T) => [
    T.assistantMessage('t'),
    T.assistantMessage('t', { id: 'i', phase: 'final_answer', providerData: { x: 1 } }),
    T.functionCall('n', { a: 1 }, { callId: 'c' }),
    T.functionCall('n', '{"raw":true}', { callId: 'c', id: 'i', namespace: 'ns', providerData: { y: 2 } }),
    T.modelResponse([]),
    T.modelError('e'),
    T.modelStream([]),
  ]);
  assert.deepEqual(Object.keys(ours.assistantMessage('t')), ['type', 'role', 'status', 'content']);
});

test('error classes built by user code match', async () => {
  await same((T) => [
    errorShape(new T.UnexpectedModelCallError({ index: 4, streamed: true })),
    errorShape(new T.UnconsumedModelStepsError(1)),
    errorShape(new T.InvalidScriptedModelStepError({ reason: 'invalid_input', message: 'm', inputIndex: 0 })),
    errorShape(new T.ScriptedModelRequestAbortedError()),
    errorShape(new T.ScriptedModelRequestAbortedError(3)),
  ]);
});

test('the testing entry exports the reference names and no realtime transport', () => {
  for (const name of Object.keys(reference)) assert.ok(name in ours, `${name} is missing`);
  assert.equal('ScriptedRealtimeTransport' in ours, false);
  assert.equal(typeof ours.ScriptedModel.fromCassette, 'function');
});
