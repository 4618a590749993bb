// scriptedSandboxSession, ours against the reference (@openai/agents@0.20.0's `./testing`):
// every malformed step, every call error, the session's shape, snapshots and manifests.
// Errors must agree in class, `name`, own fields (in order) and message.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Manifest } from '@openai/agents-core/sandbox';
import * as reference from '@openai/agents/testing';
import * as ours from '@understudy/agents/testing';
import { differential, errorShape } from './helpers.mjs';

const same = differential(reference, ours);

/** How a session looks: own keys and their descriptors' flags. */
function shape(session) {
  return Object.keys(session).map((key) => {
    const d = Object.getOwnPropertyDescriptor(session, key);
    return [key, 'value' in d ? typeof d.value : 'getter', d.enumerable, d.writable ?? null, d.configurable];
  });
}

const malformed = {
  null: null,
  string: 'exec',
  number: 1,
  'no method': { result: 1 },
  'unknown method': { method: 'launch', result: 1 },
  'inherited method name': { method: 'hasOwnProperty', result: 1 },
  'numeric method': { method: 3, result: 1 },
  'string matcher': { method: 'exec', match: 'x', result: 1 },
  'null matcher': { method: 'exec', match: null, result: 1 },
  'no outcome': { method: 'exec' },
  'result and error': { method: 'exec', result: 1, error: 2 },
  'result and respond': { method: 'exec', result: 1, respond: () => 1 },
  'all three': { method: 'exec', result: 1, respond: () => 1, error: 2 },
  'respond not a function': { method: 'readFile', respond: 1 },
  'inherited result': Object.create({ result: 1, method: 'exec' }),
};

for (const [label, step] of Object.entries(malformed)) {
  test(`malformed step agrees with the reference: ${label}`, async () => {
    const result = await same((T) => T.scriptedSandboxSession([{ method: 'stop', result: undefined }, step]));
    assert.equal(result.threw.class, 'InvalidScriptedSandboxStepError');
    assert.equal(result.threw.fields.inputIndex, 1);
  });
}

test('undefined match and result: undefined are accepted', async () => {
  await same((T) => shape(T.scriptedSandboxSession([{ method: 'exec', match: undefined, result: undefined }])));
});

test('the session shape: scripted methods, calls, remainingSteps, assertComplete, state', async () => {
  const result = await same((T) => {
    const session = T.scriptedSandboxSession([
      { method: 'supportsPty', result: true },
      { method: 'execCommand', result: 'x' },
      { method: 'supportsPty', result: false },
    ]);
    return {
      shape: shape(session),
      manifest: session.state.manifest instanceof Manifest,
      absent: ['writeStdin', 'start', 'stop'].map((m) => m in session),
      syncReturn: typeof session.supportsPty(),
      asyncReturn: session.execCommand({ cmd: 'a' }) instanceof Promise,
    };
  });
  assert.deepEqual(result.value.absent, [false, false, false]);
});

for (const method of ['registerPreStopHook', 'createEditor', 'setArchiveLimits', 'supportsPty', 'exec', 'readFile', 'applyManifest', 'close']) {
  test(`${method}: sync/async mode and errors as throws or rejections`, async () => {
    await same(async (T) => {
      const session = T.scriptedSandboxSession([{ method, result: 'ok' }]);
      const first = session[method]('arg');
      const firstValue = first instanceof Promise ? { promise: await first } : { direct: first };
      let second;
      try {
        const r = session[method]('again');
        second = r instanceof Promise ? await r.then(() => 'resolved', (e) => ({ rejected: errorShape(e) })) : 'returned';
      } catch (error) {
        second = { thrown: errorShape(error) };
      }
      return { firstValue, second };
    });
  });
}

test('a wrong method, then the end of the script', async () => {
  const result = await same(async (T) => {
    const session = T.scriptedSandboxSession([
      { method: 'readFile', result: 'a' },
      { method: 'execCommand', result: 'b' },
      { method: 'readFile', result: 'c' },
    ]);
    const outcomes = [];
    for (const call of [() => session.execCommand({ cmd: 'secret' }), () => session.execCommand({ cmd: 'b' }), () => session.readFile({ path: 'q' }), () => session.readFile({ path: 'r' })]) {
      outcomes.push(await call().then((v) => ({ ok: v }), (e) => errorShape(e)));
    }
    return { outcomes, remaining: session.remainingSteps, calls: session.calls.map((c) => c.method) };
  });
  const [wrong, ok, , end] = result.value.outcomes;
  assert.equal(wrong.fields.expectedMethod, 'readFile');
  assert.equal(wrong.fields.remainingSteps, 2);
  assert.deepEqual(ok, { ok: 'b' }, 'the mismatched step was consumed');
  assert.equal(end.message.endsWith('received unexpected readFile call #4; no scripted steps remain.'), true);
});

test('a call after the script: no expected method', async () => {
  const result = await same(async (T) => {
    const session = T.scriptedSandboxSession([{ method: 'supportsPty', result: true }]);
    session.supportsPty();
    session.supportsPty();
  });
  assert.equal(result.threw.fields.expectedMethod, undefined);
});

test('matchers: false rejects, undefined/true pass, thrown values propagate, args are fresh snapshots', async () => {
  await same(async (T) => {
    const received = [];
    const session = T.scriptedSandboxSession([
      { method: 'exec', match: () => false, result: 1 },
      {
        method: 'exec',
        match: (...args) => {
          received.push(args.length);
          args[0].mutated = true;
          return undefined;
        },
        result: 2,
      },
      { method: 'exec', match: () => 0, result: 3 },
      {
        method: 'exec',
        match: () => {
          throw 'matcher threw';
        },
        result: 4,
      },
    ]);
    const outcomes = [];
    const arg = { cmd: 'x' };
    for (let i = 0; i < 4; i += 1) outcomes.push(await session.exec(arg, 'second').then((v) => ({ ok: v }), (e) => errorShape(e)));
    return { outcomes, received, arg, recorded: session.calls.map((c) => c.args) };
  });
});

test('responders receive a frozen fresh call; error steps throw the value', async () => {
  await same(async (T) => {
    let seen;
    const session = T.scriptedSandboxSession([
      {
        method: 'readFile',
        respond: (call) => {
          seen = { call, frozen: Object.isFrozen(call) && Object.isFrozen(call.args) };
          return `read ${call.args[0].path} at ${call.index}`;
        },
      },
      { method: 'createEditor', respond: (call) => ({ editor: call.method }) },
      { method: 'stop', error: { code: 'E' } },
    ]);
    const read = await session.readFile({ path: 'a.txt' });
    const editor = session.createEditor();
    const stopped = await session.stop().catch((e) => e);
    return { read, editor, seen, stopped };
  });
});

test('assertComplete lists the pending methods', async () => {
  const result = await same((T) => {
    const session = T.scriptedSandboxSession([
      { method: 'start', result: undefined },
      { method: 'stop', result: undefined },
    ]);
    session.assertComplete();
  });
  assert.deepEqual(result.threw.fields.pendingMethods, ['start', 'stop']);
});

test('applyManifest records a cloned Manifest; other arguments are plain snapshots', async () => {
  for (const T of [reference, ours]) {
    const manifest = new Manifest();
    const session = T.scriptedSandboxSession([{ method: 'applyManifest', result: undefined }]);
    await session.applyManifest(manifest, { extra: [1] });
    const [first, second] = session.calls[0].args;
    assert.ok(first instanceof Manifest);
    assert.notEqual(first, manifest);
    assert.notEqual(session.calls[0].args[0], first, 'each read clones again');
    assert.deepEqual(second, { extra: [1] });
  }
});

test('calls are frozen fresh snapshots in both', async () => {
  await same(async (T) => {
    const session = T.scriptedSandboxSession([{ method: 'exec', result: 1 }]);
    const arg = { nested: { v: 1 } };
    await session.exec(arg);
    arg.nested.v = 2;
    const calls = session.calls;
    let pushError;
    try {
      calls.push(1);
    } catch (e) {
      pushError = e.constructor.name;
    }
    return { calls, pushError, fresh: session.calls !== calls && session.calls[0] !== calls[0] };
  });
});

test('error classes built by user code match', async () => {
  await same((T) => [
    errorShape(new T.InvalidScriptedSandboxStepError({ reason: 'unknown_method', inputIndex: 2, message: 'm', method: 'x' })),
    errorShape(new T.UnexpectedSandboxCallError({ callIndex: 1, actualMethod: 'exec', remainingSteps: 0 })),
    errorShape(new T.UnexpectedSandboxCallError({ callIndex: 1, actualMethod: 'exec', expectedMethod: 'stop', remainingSteps: 3 })),
    errorShape(new T.SandboxCallMatcherError({ index: 4, method: 'readFile', args: [] })),
    errorShape(new T.UnconsumedSandboxStepsError(['a'])),
    errorShape(new T.UnconsumedSandboxStepsError(['a', 'b'])),
  ]);
});

test('the testing entry exports every reference name, plus only the cassette API, the tool assertions and the HTTP double with its steps', () => {
  const extra = Object.keys(ours).filter((k) => !(k in reference));
  assert.deepEqual(Object.keys(reference).filter((k) => !(k in ours)), []);
  assert.deepEqual(extra.sort(), [
    'CASSETTES_ENV',
    'CassetteMismatchError',
    'CassetteMissingError',
    'InvalidCassetteError',
    'OverloadedError',
    'RECORD_ENV',
    'RecordingModel',
    'assertRetried',
    'assertToolCallOrder',
    'assertToolCalled',
    'assertToolCalledTimes',
    'assertToolNotCalled',
    'assertToolsAccepted',
    'assertToolsOffered',
    'cassette',
    'embeddingStep',
    'fetchCassette',
    'fetchResponder',
    'overloadedError',
    'providerServer',
    'recordingFetch',
    'recordingModel',
    'scriptedFetch',
    'withFault',
  ]);
});
