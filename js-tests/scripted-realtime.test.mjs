// The Realtime recipes of seed 004 as our own tests: a real RealtimeSession from
// @openai/agents/realtime runs against `@understudy/agents/realtime/testing`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { RealtimeAgent, RealtimeSession, tool } from '@openai/agents/realtime';
import { z } from 'zod';
import {
  IncompleteRealtimeScenarioError,
  RealtimeCallMatcherError,
  ScriptedRealtimeConnectionSupersededError,
  ScriptedRealtimeScenarioCancelledError,
  ScriptedRealtimeTransport,
  UnexpectedRealtimeCallError,
} from '@understudy/agents/realtime/testing';

function gate() {
  let release;
  let fail;
  const promise = new Promise((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  void promise.catch(() => undefined);
  return { promise, release, fail };
}

function createSession(agent = new RealtimeAgent({ name: 'Assistant' })) {
  const transport = new ScriptedRealtimeTransport();
  const session = new RealtimeSession(agent, { transport });
  return { session, transport };
}

test('tool call through a RealtimeAgent: the SDK runs the tool and sends its output', async () => {
  let lookedUp;
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks up an order by ID.',
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => {
      lookedUp = orderId;
      return `Order ${orderId} has shipped.`;
    },
  });
  const { session, transport } = createSession(new RealtimeAgent({ name: 'Order assistant', tools: [lookupOrder] }));
  const returned = gate();
  await transport.runScenario({
    signal: AbortSignal.timeout(5_000),
    scenario: async ({ expectCall, emit }) => {
      try {
        await expectCall('connect');
        await expectCall('sendMessage', (call) => {
          assert.equal(call.message, 'Where is order 123?');
        });
        emit('turn_started', { type: 'response_started', providerData: { response: { id: 'response_1' } } });
        emit('function_call', {
          type: 'function_call',
          name: 'lookup_order',
          callId: 'call_1',
          arguments: JSON.stringify({ orderId: 'order_123' }),
          responseId: 'response_1',
        });
        await expectCall('sendFunctionCallOutput', (call) => {
          assert.equal(call.toolCall.callId, 'call_1');
          assert.equal(call.output, 'Order order_123 has shipped.');
          assert.equal(call.startResponse, true);
        });
        returned.release();
        await expectCall('close');
      } catch (error) {
        returned.fail(error);
        throw error;
      }
    },
    exercise: async () => {
      try {
        await session.connect({ apiKey: 'test' });
        session.sendMessage('Where is order 123?');
        await returned.promise;
      } finally {
        session.close();
      }
    },
  });
  assert.equal(lookedUp, 'order_123');
  transport.assertComplete();
  transport.assertClosed();
});

test('two-turn conversation updates the real session history', async () => {
  const { session, transport } = createSession();
  const item = (id, role, type, text) => ({ itemId: id, type: 'message', role, status: 'completed', content: [{ type, text }] });
  const conversation = [
    item('user_1', 'user', 'input_text', 'Hello'),
    item('assistant_1', 'assistant', 'output_text', 'Hi! How can I help?'),
    item('user_2', 'user', 'input_text', 'What did I just say?'),
    item('assistant_2', 'assistant', 'output_text', 'You said hello.'),
  ];
  const first = gate();
  let second;
  await transport.runScenario({
    signal: AbortSignal.timeout(5_000),
    scenario: async ({ expectCall, emit }) => {
      try {
        await expectCall('connect');
        await expectCall('sendMessage', (call) => call.message === 'Hello');
        emit('item_update', conversation[0]);
        emit('item_update', conversation[1]);
        second = gate();
        first.release();
        await expectCall('sendMessage', (call) => call.message === 'What did I just say?');
        emit('item_update', conversation[2]);
        emit('item_update', conversation[3]);
        second.release();
        await expectCall('close');
      } catch (error) {
        (second ?? first).fail(error);
        throw error;
      }
    },
    exercise: async () => {
      try {
        await session.connect({ apiKey: 'test' });
        session.sendMessage('Hello');
        await first.promise;
        session.sendMessage('What did I just say?');
        await second.promise;
      } finally {
        session.close();
      }
    },
  });
  assert.deepEqual(session.history, conversation);
  transport.assertComplete();
  transport.assertClosed();
});

test('interrupt request: the application interrupts active audio', async () => {
  const { session, transport } = createSession();
  const ready = gate();
  let sawAudio = false;
  session.once('audio_start', () => {
    sawAudio = true;
  });
  await transport.runScenario({
    signal: AbortSignal.timeout(5_000),
    scenario: async ({ expectCall, emit }) => {
      try {
        await expectCall('connect');
        await expectCall('sendMessage');
        emit('turn_started', { type: 'response_started', providerData: { response: { id: 'response_1' } } });
        emit('audio', { type: 'audio', responseId: 'response_1', data: new Uint8Array([1, 2, 3]).buffer });
        assert.equal(sawAudio, true, 'emit() is synchronous');
        ready.release();
        await expectCall('interrupt');
        await expectCall('close');
      } catch (error) {
        ready.fail(error);
        throw error;
      }
    },
    exercise: async () => {
      try {
        await session.connect({ apiKey: 'test' });
        session.sendMessage('Tell me a long story');
        await ready.promise;
        session.interrupt();
      } finally {
        session.close();
      }
    },
  });
  transport.assertComplete();
  transport.assertClosed();
});

test('interruption notification reaches the application', async () => {
  const { session, transport } = createSession();
  let observed = false;
  session.once('audio_interrupted', () => {
    observed = true;
  });
  const connectCall = transport.expectCall('connect');
  await session.connect({ apiKey: 'test' });
  const recorded = await connectCall;
  assert.equal(recorded.options.apiKeyProvided, true);
  transport.emit('audio_interrupted');
  assert.equal(observed, true);
  const closeCall = transport.expectCall('close');
  session.close();
  await closeCall;
  transport.assertComplete();
  transport.assertClosed();
});

test('failure injection: the failed connect is still recorded and matched', async () => {
  const { session, transport } = createSession();
  const failure = new Error('connection failed');
  transport.failNextCall('connect', failure);
  const connectCall = transport.expectCall('connect');
  await assert.rejects(session.connect({ apiKey: 'test' }), failure);
  assert.equal((await connectCall).method, 'connect');
  assert.equal(transport.status, 'disconnected');
  transport.assertComplete();
  transport.assertClosed();
});

test('an unused injected failure fails assertComplete', () => {
  const transport = new ScriptedRealtimeTransport();
  transport.failNextCall('sendEvent', new Error('a'));
  transport.failNextCall('sendEvent', new Error('b'));
  assert.throws(
    () => transport.assertComplete(),
    (e) => {
      assert.ok(e instanceof IncompleteRealtimeScenarioError);
      assert.deepEqual(e.pendingFailures, [{ method: 'sendEvent', count: 2 }]);
      assert.equal(e.message, 'ScriptedRealtimeTransport scenario is incomplete: 0 unconsumed calls, 0 pending expectations, and 2 pending failures.');
      return true;
    },
  );
});

test('remote disconnect: status, connection_change and the transport error reach the session', async () => {
  const { session, transport } = createSession();
  const errors = [];
  session.on('error', (event) => errors.push(event.error));
  const changes = [];
  transport.on('connection_change', (status) => changes.push(status));
  const connectCall = transport.expectCall('connect');
  await session.connect({ apiKey: 'test' });
  await connectCall;
  const remote = new Error('remote closed');
  transport.disconnect(remote);
  assert.equal(transport.status, 'disconnected');
  assert.deepEqual(changes, ['connecting', 'connected', 'disconnected']);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].error ?? errors[0], remote);
  transport.assertClosed();
  transport.assertComplete();
});

test('scenario cancellation by signal rejects pending expectations with the same error', async () => {
  const transport = new ScriptedRealtimeTransport();
  const controller = new AbortController();
  let expectation;
  const run = transport.runScenario({
    signal: controller.signal,
    scenario: async ({ expectCall }) => {
      expectation = expectCall('connect');
      await expectation;
    },
    exercise: () => new Promise(() => {}),
  });
  await Promise.resolve();
  await Promise.resolve();
  controller.abort();
  const error = await run.then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.ok(error instanceof ScriptedRealtimeScenarioCancelledError);
  assert.equal(error.name, 'AbortError');
  assert.deepEqual(error.pendingExpectations, [{ order: 1, method: 'connect' }]);
  assert.equal(error.message, 'ScriptedRealtimeTransport scenario was cancelled with pending expectations: #1 connect.');
  assert.equal(await expectation.catch((e) => e), error);
  transport.assertComplete();
});

test('an already aborted signal calls neither side', async () => {
  const transport = new ScriptedRealtimeTransport();
  let called = false;
  await assert.rejects(
    transport.runScenario({
      signal: AbortSignal.abort(),
      scenario: () => {
        called = true;
      },
      exercise: () => {
        called = true;
      },
    }),
    ScriptedRealtimeScenarioCancelledError,
  );
  assert.equal(called, false);
});

test('an incomplete scenario: the exercise finished while expectations wait', async () => {
  const transport = new ScriptedRealtimeTransport();
  let pending;
  await assert.rejects(
    transport.runScenario({
      scenario: async ({ expectCall }) => {
        pending = expectCall('close');
        await pending;
      },
      exercise: async () => 'done',
    }),
    (e) => {
      assert.ok(e instanceof IncompleteRealtimeScenarioError);
      assert.deepEqual(e.pendingExpectations, [{ order: 1, method: 'close' }]);
      return true;
    },
  );
  assert.ok((await pending.catch((e) => e)) instanceof IncompleteRealtimeScenarioError);
});

test('a superseded connection: close() from a connecting listener', async () => {
  const transport = new ScriptedRealtimeTransport();
  transport.once('connection_change', (status) => {
    assert.equal(status, 'connecting');
    transport.close();
  });
  const error = await transport.connect({ apiKey: 'secret' }).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.ok(error instanceof ScriptedRealtimeConnectionSupersededError);
  assert.equal(error.operation, 'connect');
  assert.equal(transport.status, 'disconnected');
  assert.deepEqual(
    transport.calls.map((c) => c.method),
    ['connect', 'close'],
  );
});

test('a matcher rejection and a wrong method fail the run with typed errors', async () => {
  const { session, transport } = createSession();
  await assert.rejects(
    transport.runScenario({
      scenario: async ({ expectCall }) => {
        await expectCall('connect', (call) => call.options.model === 'never-this-model');
      },
      exercise: () => session.connect({ apiKey: 'test' }),
    }),
    (e) => {
      assert.ok(e instanceof RealtimeCallMatcherError);
      assert.deepEqual([e.callIndex, e.actualMethod], [0, 'connect']);
      return true;
    },
  );
  const other = new ScriptedRealtimeTransport();
  other.sendEvent({ type: 'x' });
  await assert.rejects(other.expectCall('close'), (e) => {
    assert.ok(e instanceof UnexpectedRealtimeCallError);
    assert.deepEqual([e.callIndex, e.expectedMethod, e.actualMethod], [0, 'close', 'sendEvent']);
    return true;
  });
});

test('no API key appears anywhere in calls', async () => {
  const { session, transport } = createSession();
  const key = 'sk-live-very-secret-key';
  const connectCall = transport.expectCall('connect');
  await session.connect({ apiKey: key });
  await connectCall;
  session.sendMessage('hi');
  transport.expectCall('sendMessage');
  session.close();
  await transport.expectCall('close');
  const serialized = JSON.stringify(transport.calls);
  assert.ok(!serialized.includes(key));
  assert.equal(transport.calls[0].options.apiKeyProvided, true);
  assert.equal('apiKey' in transport.calls[0].options, false);
});
