// Cold start, ours: import the root entry and make one strict schema (a fresh node each run).
import { toStrictJsonSchema } from '@understudy/agents';
toStrictJsonSchema({ type: 'object', properties: { city: { type: 'string' } } });
