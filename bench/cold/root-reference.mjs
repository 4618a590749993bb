// Cold start, the anchor: agents-core's strictToolSchema.mjs and one strict schema.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
const dist = dirname(createRequire(import.meta.url).resolve('@openai/agents-core'));
const { toOpenAIStrictToolSchema } = await import(pathToFileURL(join(dist, 'utils', 'strictToolSchema.mjs')).href);
toOpenAIStrictToolSchema({ type: 'object', properties: { city: { type: 'string' } } });
