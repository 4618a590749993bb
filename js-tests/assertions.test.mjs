// assertToolCalled / assertToolNotCalled / assertToolsOffered on ScriptedModel, a
// replayed cassette and recordingModel, each failure an AssertionError with a readable message.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { ScriptedModel, assertToolCalled, assertToolNotCalled, assertToolsOffered, assistantMessage, functionCall, modelStream, recordingModel } from '@understudy/agents/testing';

const runner = () => new Runner({ tracingDisabled: true });
const weather = tool({ name: 'weather', description: 'Forecast', parameters: z.object({ city: z.string(), days: z.number() }), execute: async () => 'sunny' });
const time = tool({ name: 'time', description: 'Clock', parameters: z.object({ zone: z.string() }), execute: async () => 'noon' });
const script = () => [[functionCall('weather', { days: 2, city: 'Tokyo' }, { callId: 'c1' })], [assistantMessage('Sunny.')]];
const agent = (model) => new Agent({ name: 'a', model, tools: [weather, time] });

async function ranScripted() {
  const model = new ScriptedModel(script());
  await runner().run(agent(model), 'weather?');
  return model;
}

test('passing assertions: called with arguments compared as JSON, not called, offered', async () => {
  const model = await ranScripted();
  assertToolCalled(model, 'weather');
  assertToolCalled(model, 'weather', { city: 'Tokyo', days: 2 }); // key order differs from the call
  assertToolCalled(model, 'weather', '{ "days": 2, "city": "Tokyo" }');
  assertToolNotCalled(model, 'time');
  assertToolsOffered(model, ['time', 'weather']);
});

test('failure messages', async () => {
  const model = await ranScripted();
  assert.throws(() => assertToolCalled(model, 'time'), (e) => {
    assert.equal(e.name, 'AssertionError');
    assert.ok(e instanceof assert.AssertionError);
    assert.equal(e.message, 'Expected the model to call tool "time"; it called "weather".');
    return true;
  });
  assert.throws(() => assertToolCalled(model, 'weather', { city: 'Osaka', days: 2 }), (e) => {
    assert.equal(e.message, 'Expected the model to call tool "weather" with {"city":"Osaka","days":2}; its calls of "weather" had:\n  {"city":"Tokyo","days":2}');
    assert.deepEqual(e.actual, { days: 2, city: 'Tokyo' });
    assert.deepEqual(e.expected, { city: 'Osaka', days: 2 });
    return true;
  });
  assert.throws(() => assertToolNotCalled(model, 'weather'), { name: 'AssertionError', message: 'Expected the model not to call tool "weather"; it called it 1 time:\n  {"days":2,"city":"Tokyo"}' });
  assert.throws(() => assertToolsOffered(model, ['weather', 'search']), { name: 'AssertionError', message: 'Expected the model to be offered exactly "search", "weather" over 2 calls; missing "search"; not expected "time".' });
  const idle = new ScriptedModel([]);
  assert.throws(() => assertToolCalled(idle, 'weather'), { message: 'Expected the model to call tool "weather"; it called no tool.' });
});

test('bad arguments are TypeErrors', () => {
  assert.throws(() => assertToolCalled({}, 'x'), { name: 'TypeError', message: /must be a ScriptedModel, a cassette model or a recordingModel/ });
  assert.throws(() => assertToolCalled(null, 'x'), { name: 'TypeError', message: 'assertToolCalled: model must be a model of @understudy/agents, got null.' });
  assert.throws(() => assertToolNotCalled(new ScriptedModel([]), 5), { name: 'TypeError', message: 'assertToolNotCalled: name must be a string, got a number (5).' });
  assert.throws(() => assertToolsOffered(new ScriptedModel([]), 'weather'), { name: 'TypeError', message: /names must be an array of strings/ });
});

test('recordingModel and a replayed cassette log the same way; streamed responses too', async () => {
  const recorder = recordingModel(new ScriptedModel(script()));
  await runner().run(agent(recorder), 'weather?');
  assertToolCalled(recorder, 'weather', { city: 'Tokyo', days: 2 });
  assertToolsOffered(recorder, ['weather', 'time']);
  const replay = ScriptedModel.fromCassette(recorder.toScript());
  await runner().run(agent(replay), 'weather?');
  assertToolCalled(replay, 'weather', { city: 'Tokyo', days: 2 });
  assertToolNotCalled(replay, 'time');

  const call = functionCall('time', { zone: 'UTC' }, { callId: 't1' });
  const streamed = new ScriptedModel([
    modelStream([{ type: 'response_started' }, { type: 'response_done', response: { id: 'r', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [call] } }]),
    [assistantMessage('noon')],
  ]);
  await runner().run(agent(streamed), 'time?', { stream: true }).then((r) => r.completed);
  assertToolCalled(streamed, 'time', { zone: 'UTC' });
});
