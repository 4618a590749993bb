// Cold start, the anchor: @openai/agents/testing and a first ScriptedModel run.
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
await new ScriptedModel([[assistantMessage('hi')]]).getResponse({ input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false });
