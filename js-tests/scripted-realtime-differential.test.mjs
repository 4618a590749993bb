// ScriptedRealtimeTransport, ours against the reference (@openai/agents@0.20.0's
// `./realtime/testing`): each scenario runs on both and must produce the same trace (events,
// statuses, calls) and the same errors (class, `name`, own fields in order, message).
import assert from 'node:assert/strict';
import test from 'node:test';
import * as reference from '@openai/agents/realtime/testing';
import * as ours from '@understudy/agents/realtime/testing';
import { differential, errorShape } from './helpers.mjs';

const same = differential(reference, ours);

const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ err: errorShape(e) }));
const ticks = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

test('every transport method records its data; calls are frozen fresh snapshots', async () => {
  await same(async (T) => {
    const t = new T.ScriptedRealtimeTransport();
    const buffer = new Uint8Array([1, 2]).buffer;
    await t.connect({ apiKey: 'k', model: 'm', url: 'u', callId: 'c', initialSessionConfig: { voice: 'v' } });
    t.sendEvent({ type: 'e', nested: { a: 1 } });
    t.requestResponse();
    t.requestResponse({ x: 1 });
    t.sendMessage('hi', { extra: true }, { triggerResponse: false });
    t.addImage('data:', { triggerResponse: true });
    t.sendAudio(buffer, { commit: true });
    t.updateSessionConfig({ instructions: 'i' });
    t.mute(true);
    t.sendFunctionCallOutput({ callId: 'c1' }, 'out', false);
    t.interrupt();
    t.resetHistory([{ a: 1 }], []);
    t.sendMcpResponse({ id: 'm' }, true, 'ok');
    t.close();
    const calls = t.calls;
    let pushError;
    try {
      calls.push(1);
    } catch (e) {
      pushError = e.constructor.name;
    }
    return {
      calls,
      keys: calls.map((c) => Object.keys(c)),
      frozen: calls.every((c) => Object.isFrozen(c)) && Object.isFrozen(calls),
      fresh: t.calls[1] !== calls[1] && t.calls[1].event !== calls[1].event,
      bufferCopied: t.calls[6].audio !== buffer,
      pushError,
      muted: t.muted,
      status: t.status,
      transportKeys: Object.keys(t),
    };
  });
});

test('listeners: on, once, off (most recent), emit order, exceptions stop the loop', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    const a = (x) => trace.push(['a', x]);
    const b = (x) => trace.push(['b', x]);
    trace.push(['no listeners', t.emit('x', 1)]);
    t.on('x', a).once('x', b).on('x', a);
    trace.push(['emit', t.emit('x', 1)]);
    trace.push(['emit', t.emit('x', 2)]);
    t.off('x', a);
    trace.push(['emit', t.emit('x', 3)]);
    t.off('x', a);
    trace.push(['emit after removing all', t.emit('x', 4)]);
    t.once('y', () => {
      trace.push('y once');
      t.emit('y');
    });
    t.emit('y');
    t.on('z', () => {
      throw new Error('listener failed');
    });
    t.on('z', () => trace.push('never'));
    t.emit('z');
  });
});

test('early calls wait for the next expectation; validation failures reject and are consumed', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.sendEvent({ type: 'one' });
    t.interrupt();
    t.mute(false);
    trace.push(await settle(t.expectCall('sendEvent', (call) => call.event.type === 'one')));
    trace.push(await settle(t.expectCall('close')));
    trace.push(await settle(t.expectCall('mute', () => false)));
    t.assertComplete();
    return t.calls.length;
  });
});

test('a pending expectation takes the next call; a wrong method or a false matcher throws from the call too', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    const first = t.expectCall('sendEvent');
    const second = t.expectCall('mute', (call) => call.muted === true);
    const third = t.expectCall('interrupt', () => {
      throw 'matcher threw';
    });
    try {
      t.sendEvent({ type: 'x' });
    } catch (e) {
      trace.push(['sendEvent threw', errorShape(e)]);
    }
    try {
      t.mute(false);
    } catch (e) {
      trace.push(['mute threw', errorShape(e), t.muted]);
    }
    try {
      t.interrupt();
    } catch (e) {
      trace.push(['interrupt threw', e]);
    }
    trace.push(await settle(first), await settle(second), await settle(third));
    const fourth = t.expectCall('sendEvent');
    try {
      t.requestResponse();
    } catch (e) {
      trace.push(['requestResponse threw', errorShape(e)]);
    }
    trace.push(await settle(fourth));
  });
});

test('injected failures: per-method FIFO, reserved before matching, dropped when validation fails', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.failNextCall('sendEvent', 'first failure');
    t.failNextCall('mute', 'mute failure');
    t.failNextCall('sendEvent', 'second failure');
    for (const call of [() => t.sendEvent({}), () => t.mute(true), () => t.sendEvent({})]) {
      try {
        call();
        trace.push('no throw');
      } catch (e) {
        trace.push(e);
      }
    }
    trace.push(['muted after a failed mute', t.muted]);
    t.failNextCall('interrupt', 'dropped');
    const wrong = t.expectCall('close');
    try {
      t.interrupt();
    } catch (e) {
      trace.push(errorShape(e));
    }
    trace.push(await settle(wrong));
    t.failNextCall('requestResponse', 'left over');
    t.failNextCall('sendAudio', 'left over');
    t.failNextCall('requestResponse', 'left over');
    const late = settle(t.expectCall('connect'));
    try {
      t.assertComplete();
    } catch (e) {
      trace.push(errorShape(e));
    }
    trace.push(await late);
  });
});

test('matchers re-entering the transport: reserved failures belong to the outer call', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.failNextCall('sendEvent', 'outer failure');
    t.failNextCall('sendEvent', 'inner failure');
    const outer = t.expectCall('sendEvent', () => {
      try {
        t.sendEvent({ inner: true });
      } catch (e) {
        trace.push(['inner threw', e]);
      }
      return true;
    });
    try {
      t.sendEvent({ outer: true });
    } catch (e) {
      trace.push(['outer threw', e]);
    }
    trace.push(await settle(outer));
    trace.push(await settle(t.expectCall('sendEvent')));
    return t.calls;
  });
});

test('connect lifecycle: notifications, listener failures, injected failure', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.on('connection_change', (s) => trace.push([s, t.status]));
    await t.connect({ apiKey: 'k' });
    trace.push(['after connect', t.status]);
    t.close();
    t.close();
    trace.push(['after close', t.status, t.calls.length]);
    t.failNextCall('connect', 'refused');
    trace.push(await settle(t.connect({})));
    trace.push(['after failed connect', t.status]);
    const failing = new T.ScriptedRealtimeTransport();
    failing.on('connection_change', (s) => {
      trace.push(['failing listener', s, failing.status]);
      if (s === 'connected') throw new Error('observer failed');
      if (s === 'disconnected') throw new Error('ignored');
    });
    trace.push(await settle(failing.connect({})));
    trace.push(['observer failure ends disconnected', failing.status]);
  });
});

test('close during connect (from a matcher) supersedes it', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.on('connection_change', (s) => trace.push(s));
    t.expectCall('connect', () => {
      t.close();
    });
    trace.push(await settle(t.connect({})));
    trace.push(['status', t.status, t.calls.map((c) => c.method)]);
    t.expectCall('close');
    t.assertComplete();
  });
});

test('a reconnect started inside a close matcher survives', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    await t.connect({});
    trace.push(await settle(t.expectCall('connect')));
    let reconnect;
    t.expectCall('close', () => {
      reconnect = t.connect({});
    });
    t.close();
    trace.push(['status after close', t.status]);
    trace.push(await settle(reconnect));
    trace.push(['final', t.status]);
  });
});

test('close failures: established connections stay connected, others end disconnected', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.on('connection_change', (s) => trace.push(s));
    await t.connect({});
    t.failNextCall('close', 'close refused');
    try {
      t.close();
    } catch (e) {
      trace.push(['threw', e, t.status]);
    }
    const provisional = new T.ScriptedRealtimeTransport();
    provisional.on('connection_change', (s) => {
      trace.push(['provisional', s]);
      if (s === 'connected') {
        provisional.failNextCall('close', 'close in connected listener');
        try {
          provisional.close();
        } catch (e) {
          trace.push(['close threw', e, provisional.status]);
        }
      }
    });
    trace.push(await settle(provisional.connect({})));
    trace.push(['provisional final', provisional.status]);
    const listenerError = new T.ScriptedRealtimeTransport();
    await listenerError.connect({});
    listenerError.on('connection_change', () => {
      throw new Error('disconnected listener failed');
    });
    try {
      listenerError.close();
    } catch (e) {
      trace.push(['listener error propagates', errorShape(e), listenerError.status]);
    }
  });
});

test('disconnect: notifications, error event, first listener failure thrown (even undefined)', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    t.on('connection_change', (s) => trace.push(s));
    t.on('error', (e) => trace.push(['error event', e]));
    t.disconnect();
    t.disconnect('already disconnected, error only');
    await t.connect({});
    t.disconnect(new Error('remote'));
    trace.push(t.status);
    const u = new T.ScriptedRealtimeTransport();
    await u.connect({});
    u.on('connection_change', () => {
      throw undefined;
    });
    u.on('error', () => {
      throw 'second';
    });
    try {
      u.disconnect('boom');
      trace.push('no throw');
    } catch (e) {
      trace.push(['thrown', e === undefined ? 'undefined' : e]);
    }
    const pending = new T.ScriptedRealtimeTransport();
    const connecting = pending.connect({});
    pending.disconnect();
    trace.push(await settle(connecting));
    trace.push(t.calls.length);
  });
});

test('assertClosed and assertComplete errors', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    await t.connect({});
    try {
      t.assertClosed();
    } catch (e) {
      trace.push(errorShape(e));
    }
    t.sendEvent({});
    t.interrupt();
    const settled = [settle(t.expectCall('connect')), settle(t.expectCall('sendEvent'))];
    t.failNextCall('mute', 1);
    t.failNextCall('sendAudio', 2);
    settled.push(settle(t.expectCall('mute')), settle(t.expectCall('close')));
    try {
      t.assertComplete();
    } catch (e) {
      trace.push(errorShape(e));
    }
    t.mute(false);
    t.close();
    trace.push(await Promise.all(settled));
    try {
      t.assertComplete();
    } catch (e) {
      trace.push(errorShape(e));
    }
  });
});

test('runScenario: success returns the exercise value', async () => {
  await same(async (T) => {
    const t = new T.ScriptedRealtimeTransport();
    return t.runScenario({
      scenario: async ({ expectCall, emit }) => {
        await expectCall('connect');
        emit('audio_done');
        await expectCall('close');
      },
      exercise: async () => {
        await t.connect({});
        t.close();
        return 'value';
      },
    });
  });
});

test('runScenario: the scenario or exercise rejection is the error, unchanged; pending expectations get it', async () => {
  for (const side of ['scenario', 'exercise']) {
    await same(async (T, trace) => {
      const t = new T.ScriptedRealtimeTransport();
      let late;
      const failure = { side };
      const result = await settle(
        t.runScenario({
          scenario: async ({ expectCall }) => {
            late = expectCall('close');
            if (side === 'scenario') throw failure;
            await late;
          },
          exercise: async () => {
            if (side === 'exercise') throw failure;
            await new Promise(() => {});
          },
        }),
      );
      trace.push(result, await settle(late));
      t.assertComplete();
    });
  }
});

test('runScenario: synchronous throws become rejections', async () => {
  await same(async (T) => {
    const t = new T.ScriptedRealtimeTransport();
    return t.runScenario({
      scenario: () => {
        throw new TypeError('sync scenario');
      },
      exercise: () => new Promise(() => {}),
    });
  });
});

test('runScenario: expectation failures end the run (wrong method, false matcher, thrown value)', async () => {
  for (const kind of ['method', 'false', 'throw']) {
    await same(async (T, trace) => {
      const t = new T.ScriptedRealtimeTransport();
      const outcome = await settle(
        t.runScenario({
          scenario: async ({ expectCall }) => {
            await expectCall(kind === 'method' ? 'close' : 'sendEvent', () => {
              if (kind === 'throw') throw { thrown: true };
              return false;
            });
          },
          exercise: async () => {
            try {
              t.sendEvent({ type: 'x' });
            } catch (e) {
              trace.push(['call threw', e instanceof Error ? e.name : e]);
            }
            await new Promise(() => {});
          },
        }),
      );
      trace.push(outcome);
    });
  }
});

test('runScenario: exercise done with expectations pending → incomplete; late expectations too', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    trace.push(
      await settle(
        t.runScenario({
          scenario: async ({ expectCall }) => {
            await expectCall('connect');
            await expectCall('close');
          },
          exercise: async () => {
            await t.connect({});
          },
        }),
      ),
    );
    const u = new T.ScriptedRealtimeTransport();
    const gateOpen = Promise.resolve();
    let lateResult;
    trace.push(
      await settle(
        u.runScenario({
          scenario: async ({ expectCall }) => {
            await gateOpen;
            await ticks(10);
            lateResult = settle(expectCall('close'));
          },
          exercise: async () => 'quick',
        }),
      ),
    );
    if (lateResult) trace.push(await lateResult);
  });
});

test('runScenario: abort while waiting cancels with the pending expectations', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    const controller = new AbortController();
    let expectation;
    const runPromise = settle(
      t.runScenario({
        signal: controller.signal,
        scenario: async ({ expectCall }) => {
          expectation = expectCall('connect');
          await expectation;
        },
        exercise: () => new Promise(() => {}),
      }),
    );
    await ticks();
    controller.abort();
    trace.push(await runPromise);
    const expectationOutcome = await settle(expectation);
    trace.push(expectationOutcome);
    trace.push(await settle(t.runScenario({ signal: AbortSignal.abort(), scenario() {}, exercise() {} })));
  });
});

test('runScenario: expectCall after the run ended rejects with the terminal error', async () => {
  await same(async (T, trace) => {
    const t = new T.ScriptedRealtimeTransport();
    let context;
    trace.push(
      await settle(
        t.runScenario({
          scenario: async (c) => {
            context = c;
            throw new Error('scenario failed');
          },
          exercise: () => new Promise(() => {}),
        }),
      ),
    );
    trace.push(await settle(context.expectCall('connect')));
  });
});

test('error classes built by user code match', async () => {
  await same((T) => [
    errorShape(new T.UnexpectedRealtimeCallError('close', { index: 2, method: 'mute' })),
    errorShape(new T.RealtimeCallMatcherError({ index: 0, method: 'connect' })),
    errorShape(new T.IncompleteRealtimeScenarioError([{ index: 0, method: 'a' }], [], [{ method: 'mute', count: 2 }])),
    errorShape(new T.IncompleteRealtimeScenarioError([], [{ order: 3, method: 'close' }], [])),
    errorShape(new T.ScriptedRealtimeScenarioCancelledError([])),
    errorShape(new T.RealtimeTransportNotClosedError('connecting')),
    errorShape(new T.ScriptedRealtimeConnectionSupersededError()),
  ]);
});

test('the realtime testing entry exports the reference names', () => {
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(reference).sort());
});
