// The realtime and sandbox doubles against the reference's, under the SDK's own runtimes, in
// one process: `sendMessage` x500 through a real RealtimeSession, and a SandboxAgent turn loop
// (100 `execCommand` calls through the shell capability, driven by the reference's model so
// only the session differs). Async, so timed here, not in lib.mjs.
import { Runner } from '@openai/agents';
import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';
import { SandboxAgent, shell } from '@openai/agents/sandbox';
import * as refRealtime from '@openai/agents/realtime/testing';
import * as ref from '@openai/agents/testing';
import * as oursRealtime from '@understudy/agents/realtime/testing';
import * as ours from '@understudy/agents/testing';

/** Mean µs per unit of `fn` (which does `units` units), median of three alternating runs. */
async function pair(what, units, runs, makeOurs, makeRef) {
  const time = async (fn) => {
    await fn();
    const t = performance.now();
    for (let i = 0; i < runs; i++) await fn();
    return ((performance.now() - t) / (runs * units)) * 1000;
  };
  const o = [];
  const f = [];
  for (let r = 0; r < 3; r++) {
    o.push(await time(makeOurs));
    f.push(await time(makeRef));
  }
  const mid = (xs) => xs.sort((a, b) => a - b)[1];
  return { what, ours: 1e6 / mid(o), reference: 1e6 / mid(f), ratio: mid(f) / mid(o) };
}

const realtime = (lib) => async () => {
  const transport = new lib.ScriptedRealtimeTransport();
  const session = new RealtimeSession(new RealtimeAgent({ name: 'a' }), { transport });
  await session.connect({ apiKey: 'k' });
  for (let i = 0; i < 500; i++) session.sendMessage(`message ${i}`);
  session.close();
};

const sandbox = (lib) => async () => {
  const steps = [];
  const script = [];
  for (let i = 0; i < 100; i++) {
    steps.push([ref.functionCall('exec_command', { cmd: `echo ${i}` }, { callId: `c${i}` })]);
    script.push({ method: 'execCommand', result: `${i}\n` });
  }
  steps.push([ref.assistantMessage('done')]);
  const session = lib.scriptedSandboxSession(script);
  const agent = new SandboxAgent({ name: 'a', model: new ref.ScriptedModel(steps), capabilities: [shell()] });
  await new Runner({ tracingDisabled: true }).run(agent, 'go', { maxTurns: 200, sandbox: { session } });
};

export async function run() {
  return [
    await pair('ScriptedRealtimeTransport under RealtimeSession, per sendMessage', 500, 20, realtime(oursRealtime), realtime(refRealtime)),
    await pair('scriptedSandboxSession under SandboxAgent, per turn (100 execCommand turns)', 101, 2, sandbox(ours), sandbox(ref)),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(`${row.what}: ours ${row.ours.toFixed(1)} ops/s, reference ${row.reference.toFixed(1)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
