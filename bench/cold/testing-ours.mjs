// Cold start, ours: the testing entry and a first ScriptedModel run.
import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';
await new ScriptedModel([[assistantMessage('hi')]]).getResponse({ input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false });
