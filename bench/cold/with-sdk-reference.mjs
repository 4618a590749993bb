// Cold start as a test file has it, the anchor: @openai/agents and @openai/agents/testing, one run.
import { Agent, Runner } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'hi');
