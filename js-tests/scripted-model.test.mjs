// The agent-workflow recipes of seed 004, written as our own tests: each drives the real
// `Runner` of @openai/agents with `@understudy/agents/testing`'s ScriptedModel.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, retryPolicies, tool } from '@openai/agents';
import { Usage } from '@openai/agents-core';
import { z } from 'zod';
import {
  InvalidScriptedModelStepError,
  ScriptedModel,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
  assistantMessage,
  functionCall,
  modelError,
  modelResponder,
  modelStream,
  modelStreamResponder,
} from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });

function orderAgent(model, execute = async ({ orderId }) => `${orderId}: shipped`, options = {}) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks up an order.',
    parameters: z.object({ orderId: z.string() }),
    execute,
  });
  return new Agent({ name: 'Order assistant', model, tools: [lookupOrder], ...options });
}

test('fixed answer: a shorthand step ends the run', async () => {
  const model = new ScriptedModel([[assistantMessage('Paris is the capital of France.')]]);
  const result = await runner().run(new Agent({ name: 'Geography assistant', model }), 'What is the capital of France?');
  assert.equal(result.finalOutput, 'Paris is the capital of France.');
  assert.equal(model.calls.length, 1);
  assert.equal(result.rawResponses[0].responseId, 'scripted-response-1');
  assert.equal(result.rawResponses[0].usage.requests, 1);
  model.assertComplete();
});

test('tool loop: the real tool pipeline runs between two scripted turns', async () => {
  const executed = [];
  const model = new ScriptedModel([
    [functionCall('lookup_order', { orderId: 'order_123' }, { callId: 'call_1' })],
    [assistantMessage('Order 123 has shipped.')],
  ]);
  const agent = orderAgent(model, async ({ orderId }) => {
    executed.push(orderId);
    return `${orderId}: shipped`;
  });
  const result = await runner().run(agent, 'Where is order 123?');
  assert.equal(result.finalOutput, 'Order 123 has shipped.');
  assert.deepEqual(executed, ['order_123']);
  const lastInput = model.lastCall.request.input;
  const toolResult = lastInput.find((item) => item.type === 'function_call_result');
  assert.equal(toolResult.callId, 'call_1');
  assert.deepEqual(toolResult.output, { type: 'text', text: 'order_123: shipped' });
  model.assertComplete();
});

test('responder: the response is derived from the recorded request (sync and async)', async () => {
  const model = new ScriptedModel([
    modelResponder((call) => {
      assert.equal(call.index, 0);
      assert.equal(call.streamed, false);
      assert.deepEqual(call.request.input, [{ type: 'message', role: 'user', content: 'Summarize this' }]);
      return [functionCall('lookup_order', { orderId: 'A' }, { callId: 'c1' })];
    }),
    modelResponder(async (call) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [assistantMessage(`Handled model call ${call.index}.`)];
    }),
  ]);
  const result = await runner().run(orderAgent(model), 'Summarize this');
  assert.equal(result.finalOutput, 'Handled model call 1.');
  model.assertComplete();
});

test('call inspection: calls, firstCall, lastCall, remainingSteps and the request fields', async () => {
  const model = new ScriptedModel([
    [functionCall('lookup_order', { orderId: 'B' }, { callId: 'c1' })],
    [assistantMessage('done')],
    [assistantMessage('spare')],
  ]);
  const agent = orderAgent(model, undefined, { modelSettings: { temperature: 0.25 } });
  await runner().run(agent, 'Where is B?');
  assert.equal(model.remainingSteps, 1);
  assert.deepEqual(
    model.calls.map((c) => [c.index, c.streamed]),
    [
      [0, false],
      [1, false],
    ],
  );
  assert.equal(model.firstCall.request.modelSettings.temperature, 0.25);
  assert.deepEqual(
    model.firstCall.request.tools.map((t) => t.name),
    ['lookup_order'],
  );
  assert.deepEqual(model.firstCall.request.handoffs, []);
  assert.equal(model.lastCall.index, 1);
  assert.notEqual(model.calls[0], model.calls[0], 'every read is a fresh snapshot');
  assert.throws(() => model.assertComplete(), UnconsumedModelStepsError);
});

test('streaming with automatic events from plain steps', async () => {
  const model = new ScriptedModel([
    [functionCall('lookup_order', { orderId: 'C' }, { callId: 'c1' })],
    [assistantMessage('C has shipped.', { id: 'msg_1' })],
  ]);
  const stream = await runner().run(orderAgent(model), 'Where is C?', { stream: true });
  const raw = [];
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event') raw.push(event.data.type);
  }
  await stream.completed;
  assert.equal(stream.finalOutput, 'C has shipped.');
  assert.deepEqual(raw, ['response_started', 'response_done', 'response_started', 'output_text_delta', 'response_done']);
  assert.equal(model.lastCall.streamed, true);
  model.assertComplete();
});

test('streaming with an exact modelStream and a modelStreamResponder', async () => {
  const final = (text, id) => ({
    type: 'response_done',
    response: {
      id,
      usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      output: [assistantMessage(text, { id: 'm' })],
    },
  });
  const model = new ScriptedModel([
    modelStream([{ type: 'response_started' }, { type: 'output_text_delta', delta: 'Exact' }, final('Exact', 'r1')]),
  ]);
  const stream = await runner().run(new Agent({ name: 'a', model }), 'hi', { stream: true });
  const deltas = [];
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') deltas.push(event.data.delta);
  }
  await stream.completed;
  assert.deepEqual(deltas, ['Exact']);
  assert.equal(stream.finalOutput, 'Exact');

  const derived = new ScriptedModel([modelStreamResponder(async (call) => [{ type: 'response_started' }, final(`call ${call.index}`, 'r2')])]);
  const second = await runner().run(new Agent({ name: 'b', model: derived }), 'hi', { stream: true });
  for await (const _ of second);
  await second.completed;
  assert.equal(second.finalOutput, 'call 0');
  derived.assertComplete();
});

test('a raw stream step in a non-streaming run fails with incompatible_call', async () => {
  const model = new ScriptedModel([modelStream([])]);
  await assert.rejects(runner().run(new Agent({ name: 'a', model }), 'hi'), (error) => {
    assert.ok(error instanceof InvalidScriptedModelStepError);
    assert.equal(error.reason, 'incompatible_call');
    assert.equal(error.callIndex, 0);
    assert.equal(error.stepType, 'stream');
    return true;
  });
});

test('modelError without advice fails the run with the scripted error itself', async () => {
  const failure = new Error('provider unavailable');
  const model = new ScriptedModel([modelError(failure)]);
  await assert.rejects(runner().run(new Agent({ name: 'a', model }), 'hi'), (error) => error === failure || error.cause === failure);
  model.assertComplete();
});

for (const [label, advice] of [
  ['fixed advice', { suggested: true, replaySafety: 'safe' }],
  ['callback advice', ({ attempt }) => ({ suggested: attempt === 1 })],
  ['async callback advice', async ({ attempt }) => ({ suggested: attempt === 1, replaySafety: 'safe' })],
]) {
  test(`modelError with ${label}: the Runner retries and the retry consumes the next step`, async () => {
    const model = new ScriptedModel([modelError(new Error('rate limited'), advice), [assistantMessage('Recovered.')]]);
    const agent = new Agent({
      name: 'a',
      model,
      modelSettings: {
        retry: { maxRetries: 1, policy: retryPolicies.providerSuggested(), backoff: { initialDelayMs: 0, maxDelayMs: 0, jitter: false } },
      },
    });
    const result = await runner().run(agent, 'hi');
    assert.equal(result.finalOutput, 'Recovered.');
    assert.equal(model.calls.length, 2);
    model.assertComplete();
  });
}

test('modelError with advice that declines: no retry', async () => {
  const failure = new Error('bad request');
  const model = new ScriptedModel([modelError(failure, { suggested: false }), [assistantMessage('never')]]);
  const agent = new Agent({
    name: 'a',
    model,
    modelSettings: { retry: { maxRetries: 3, policy: retryPolicies.providerSuggested(), backoff: { initialDelayMs: 0 } } },
  });
  await assert.rejects(runner().run(agent, 'hi'));
  assert.equal(model.calls.length, 1);
  assert.equal(model.remainingSteps, 1);
});

test('workflow drift: an early exit is reported by assertComplete in teardown', async (t) => {
  const model = new ScriptedModel([
    [functionCall('lookup_order', { orderId: 'order_123' }, { callId: 'call_1' })],
    [assistantMessage('Order 123 has shipped.')],
  ]);
  let teardown;
  t.after(() => {
    assert.ok(teardown instanceof UnconsumedModelStepsError);
    assert.equal(teardown.remainingSteps, 1);
  });
  // The application now stops after the tool (it returns the tool output as the final answer).
  const agent = orderAgent(model);
  agent.toolUseBehavior = 'stop_on_first_tool';
  const result = await runner().run(agent, 'Where is order 123?');
  assert.equal(result.finalOutput, 'order_123: shipped');
  try {
    model.assertComplete();
  } catch (error) {
    teardown = error;
  }
});

test('workflow drift: an extra model turn fails at the extra call', async () => {
  const model = new ScriptedModel([[functionCall('lookup_order', { orderId: 'X' }, { callId: 'c1' })]]);
  await assert.rejects(runner().run(orderAgent(model), 'Where is X?'), (error) => {
    assert.ok(error instanceof UnexpectedModelCallError);
    assert.equal(error.callIndex, 1);
    assert.equal(error.streamed, false);
    assert.equal(error.message, 'ScriptedModel received unexpected non-streaming call #2; no scripted steps remain.');
    return true;
  });
  assert.equal(model.calls.length, 2, 'the unexpected call is recorded too');
});

test('a complete response with usage flows into the run usage', async () => {
  const model = new ScriptedModel([
    { output: [assistantMessage('ok')], usage: new Usage({ requests: 1, inputTokens: 7, outputTokens: 3 }), responseId: 'resp_1' },
  ]);
  const result = await runner().run(new Agent({ name: 'a', model }), 'hi');
  assert.equal(result.finalOutput, 'ok');
  assert.equal(result.state.usage.inputTokens, 7);
  assert.equal(result.lastResponseId, 'resp_1');
});

test('cancellation is cooperative: a responder observing the signal ends the run', async () => {
  const controller = new AbortController();
  const model = new ScriptedModel([
    modelResponder(
      (call) =>
        new Promise((resolve) => {
          call.request.signal?.addEventListener('abort', () => resolve([assistantMessage('late')]));
          setTimeout(() => controller.abort(), 1);
        }),
    ),
  ]);
  await assert.rejects(runner().run(new Agent({ name: 'a', model }), 'hi', { signal: controller.signal }));
  assert.equal(model.calls.length, 1);
});
