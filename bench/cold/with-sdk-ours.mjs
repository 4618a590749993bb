// Cold start as a test file has it, ours: @openai/agents (Runner) and our testing entry, one run.
import { Agent, Runner } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';
await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'hi');
