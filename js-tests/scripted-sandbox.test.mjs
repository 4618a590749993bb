// The sandbox recipes of seed 004 as our own tests: the real SandboxAgent runtime with the
// shell capability runs against `scriptedSandboxSession` (no Docker, no remote sandbox), driven
// by our ScriptedModel.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Runner } from '@openai/agents';
import { Manifest } from '@openai/agents-core/sandbox';
import { SandboxAgent, shell } from '@openai/agents/sandbox';
import {
  InvalidScriptedSandboxStepError,
  SandboxCallMatcherError,
  ScriptedModel,
  UnconsumedSandboxStepsError,
  UnexpectedSandboxCallError,
  assistantMessage,
  functionCall,
  scriptedSandboxSession,
} from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });
const shellAgent = (model) => new SandboxAgent({ name: 'Workspace assistant', model, capabilities: [shell()] });

test('shell workflow: SandboxAgent runs a command against the scripted session', async (t) => {
  const sandbox = scriptedSandboxSession([
    {
      method: 'execCommand',
      match: ({ cmd }) => {
        assert.equal(cmd, 'pwd');
      },
      result: '/workspace\n',
    },
  ]);
  const model = new ScriptedModel([
    [functionCall('exec_command', { cmd: 'pwd' }, { callId: 'call_1' })],
    [assistantMessage('The workspace is /workspace.')],
  ]);
  t.after(() => {
    sandbox.assertComplete();
    model.assertComplete();
  });
  const result = await runner().run(shellAgent(model), 'Which directory are you in?', { sandbox: { session: sandbox } });
  assert.equal(result.finalOutput, 'The workspace is /workspace.');
  assert.deepEqual(
    sandbox.calls.map((call) => call.method),
    ['execCommand'],
  );
  assert.equal(sandbox.calls[0].args[0].cmd, 'pwd');
  const toolResult = model.lastCall.request.input.find((item) => item.type === 'function_call_result');
  assert.deepEqual(toolResult.output, { type: 'text', text: '/workspace\n' });
  assert.ok(sandbox.state.manifest instanceof Manifest, 'state carries the SDK Manifest');
});

test('interactive shell: supportsPty and writeStdin in one global order', async () => {
  const sandbox = scriptedSandboxSession([
    { method: 'supportsPty', result: true },
    { method: 'execCommand', match: (args) => args.tty === true, result: 'Process running with session ID 7\n' },
    {
      method: 'writeStdin',
      respond: (call) => {
        assert.equal(call.index, 2);
        return `echo: ${call.args[0].chars}`;
      },
    },
  ]);
  const model = new ScriptedModel([
    [functionCall('exec_command', { cmd: 'python3', tty: true }, { callId: 'c1' })],
    [functionCall('write_stdin', { session_id: 7, chars: 'print(1)\n' }, { callId: 'c2' })],
    [assistantMessage('done')],
  ]);
  const result = await runner().run(shellAgent(model), 'start python', { sandbox: { session: sandbox } });
  assert.equal(result.finalOutput, 'done');
  assert.deepEqual(
    sandbox.calls.map((c) => c.method),
    ['supportsPty', 'execCommand', 'writeStdin'],
  );
  assert.deepEqual(sandbox.calls[2].args[0], { sessionId: 7, chars: 'print(1)\n', yieldTimeMs: 250, maxOutputTokens: undefined });
  sandbox.assertComplete();
  model.assertComplete();
});

test('only scripted methods are installed, so feature detection keeps working', async () => {
  const sandbox = scriptedSandboxSession([{ method: 'execCommand', result: 'x' }]);
  assert.equal('execCommand' in sandbox, true);
  assert.equal('supportsPty' in sandbox, false);
  assert.equal('writeStdin' in sandbox, false);
  const descriptor = Object.getOwnPropertyDescriptor(sandbox, 'execCommand');
  assert.deepEqual([descriptor.enumerable, descriptor.writable, descriptor.configurable], [true, true, false]);
  // Without a PTY the shell capability offers no write_stdin tool.
  const model = new ScriptedModel([[assistantMessage('ok')]]);
  await runner().run(shellAgent(model), 'hi', { sandbox: { session: sandbox } });
  assert.deepEqual(
    model.firstCall.request.tools.map((tool) => tool.name),
    ['exec_command'],
  );
});

test('a wrong method fails the tool call with UnexpectedSandboxCallError', async () => {
  const sandbox = scriptedSandboxSession([
    { method: 'readFile', result: 'x' },
    { method: 'execCommand', result: 'y' },
  ]);
  const error = await sandbox.execCommand({ cmd: 'ls' }).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.ok(error instanceof UnexpectedSandboxCallError);
  assert.deepEqual(
    [error.callIndex, error.actualMethod, error.expectedMethod, error.remainingSteps],
    [0, 'execCommand', 'readFile', 1],
  );
  assert.equal(error.message, 'Scripted sandbox session received unexpected execCommand call #1; expected readFile.');
  assert.ok(!error.message.includes('ls'), 'arguments never appear in messages');
});

test('a matcher returning false rejects the call; a thrown matcher error propagates', async () => {
  const sandbox = scriptedSandboxSession([
    { method: 'execCommand', match: ({ cmd }) => cmd === 'pwd', result: 'x' },
    {
      method: 'execCommand',
      match: () => {
        throw new RangeError('custom');
      },
      result: 'y',
    },
  ]);
  await assert.rejects(sandbox.execCommand({ cmd: 'rm -rf /' }), (e) => {
    assert.ok(e instanceof SandboxCallMatcherError);
    assert.deepEqual([e.callIndex, e.method, e.message], [0, 'execCommand', 'Scripted sandbox session matcher rejected execCommand call #1.']);
    return true;
  });
  await assert.rejects(sandbox.execCommand({ cmd: 'pwd' }), RangeError);
});

test('a matcher rejection inside a SandboxAgent run fails that tool call', async () => {
  const sandbox = scriptedSandboxSession([{ method: 'execCommand', match: ({ cmd }) => cmd === 'pwd', result: '/workspace\n' }]);
  const model = new ScriptedModel([[functionCall('exec_command', { cmd: 'whoami' }, { callId: 'c1' })], [assistantMessage('failed')]]);
  const result = await runner().run(shellAgent(model), 'who', { sandbox: { session: sandbox } });
  assert.equal(result.finalOutput, 'failed');
  const toolResult = model.lastCall.request.input.find((item) => item.type === 'function_call_result');
  assert.match(JSON.stringify(toolResult.output), /An error occurred while running the tool/);
  assert.equal(sandbox.calls.length, 1, 'the rejected call is recorded');
  assert.equal(sandbox.remainingSteps, 0, 'and its step consumed');
});

test('an injected error rejects with the value itself', async () => {
  const failure = new Error('disk full');
  const sandbox = scriptedSandboxSession([
    { method: 'readFile', error: failure },
    { method: 'supportsPty', error: 'sync failure' },
  ]);
  await assert.rejects(sandbox.readFile({ path: 'a' }), (e) => e === failure);
  assert.throws(() => sandbox.supportsPty(), (e) => e === 'sync failure');
});

test('an early exit leaves steps: assertComplete names them', async () => {
  const sandbox = scriptedSandboxSession([
    { method: 'execCommand', result: 'a' },
    { method: 'readFile', result: 'b' },
    { method: 'stop', result: undefined },
  ]);
  await sandbox.execCommand({ cmd: 'ls' });
  assert.equal(sandbox.remainingSteps, 2);
  assert.throws(
    () => sandbox.assertComplete(),
    (e) => {
      assert.ok(e instanceof UnconsumedSandboxStepsError);
      assert.equal(e.remainingSteps, 2);
      assert.deepEqual(e.pendingMethods, ['readFile', 'stop']);
      assert.ok(Object.isFrozen(e.pendingMethods));
      assert.equal(e.message, 'Scripted sandbox session has 2 unconsumed steps: readFile, stop.');
      return true;
    },
  );
});

const malformed = [
  ['not an object', 'x', 'invalid_input', undefined],
  ['unknown method', { method: 'launch', result: 1 }, 'unknown_method', 'launch'],
  ['inherited method name', { method: 'toString', result: 1 }, 'unknown_method', 'toString'],
  ['non-string method', { method: 7, result: 1 }, 'unknown_method', undefined],
  ['matcher not a function', { method: 'exec', match: 'pwd', result: 1 }, 'invalid_matcher', 'exec'],
  ['no outcome', { method: 'exec' }, 'invalid_outcome', 'exec'],
  ['two outcomes', { method: 'exec', result: 1, error: 2 }, 'invalid_outcome', 'exec'],
  ['responder not a function', { method: 'exec', respond: 'x' }, 'invalid_outcome', 'exec'],
  ['inherited result', { __proto__: { result: 1 }, method: 'exec' }, 'invalid_outcome', 'exec'],
];

for (const [label, step, reason, method] of malformed) {
  test(`malformed step (${label}) throws InvalidScriptedSandboxStepError at creation`, () => {
    assert.throws(
      () => scriptedSandboxSession([{ method: 'exec', result: 0 }, step]),
      (e) => {
        assert.ok(e instanceof InvalidScriptedSandboxStepError);
        assert.equal(e.reason, reason);
        assert.equal(e.inputIndex, 1);
        assert.equal(e.method, method);
        assert.match(e.message, /^Scripted sandbox step #2 /);
        return true;
      },
    );
  });
}

test('result: undefined counts as an outcome; results are snapshotted at creation', async () => {
  const listing = { entries: ['a'] };
  const sandbox = scriptedSandboxSession([
    { method: 'stop', result: undefined },
    { method: 'listDir', result: listing },
  ]);
  listing.entries.push('late');
  assert.equal(await sandbox.stop(), undefined);
  assert.deepEqual(await sandbox.listDir({ path: '.' }), { entries: ['a'] });
});

test('calls are frozen detached snapshots; runtime identities are kept', async () => {
  const hook = async () => {};
  const sandbox = scriptedSandboxSession([
    { method: 'registerPreStopHook', result: undefined },
    { method: 'execCommand', result: 'x' },
  ]);
  sandbox.registerPreStopHook(hook);
  const args = { cmd: 'ls', env: { A: '1' } };
  await sandbox.execCommand(args);
  args.env.A = 'changed';
  const calls = sandbox.calls;
  assert.ok(Object.isFrozen(calls) && Object.isFrozen(calls[1]) && Object.isFrozen(calls[1].args));
  assert.equal(calls[0].args[0], hook);
  assert.equal(calls[1].args[0].env.A, '1');
  calls[1].args[0].env.A = 'mutated';
  assert.equal(sandbox.calls[1].args[0].env.A, '1');
  assert.throws(() => calls.push({}), TypeError);
});
