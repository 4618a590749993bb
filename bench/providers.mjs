// Provider profiles: toStrictJsonSchema(schema, { provider }) for Anthropic and Gemini against
// the OpenAI path (the reference's strict conversion) on the same schemas, in one process. The
// schemas are the strict-differential corpus entries every provider accepts, plus realistic
// tool schemas from Zod 4, Valibot and ArkType.
import { z } from 'zod';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { toStrictJsonSchema } from '@understudy/agents';
import { corpus } from '../js-tests/corpus/schemas.mjs';
import { compare } from './lib.mjs';

const realistic = [
  z.toJSONSchema(z.object({ query: z.string().min(1), limit: z.int().positive().max(100).optional(), state: z.enum(['open', 'closed']), labels: z.array(z.string()).max(10) })),
  z.toJSONSchema(z.object({ title: z.string(), body: z.string().optional(), assignee: z.string().nullable(), priority: z.enum(['low', 'medium', 'high']), due: z.iso.date().optional() })),
  toJsonSchema(v.object({ id: v.pipe(v.string(), v.uuid()), email: v.pipe(v.string(), v.email()), age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) })),
  type({ sku: 'string', quantity: 'number.integer > 0', 'note?': 'string' }).toJsonSchema(),
];
const candidates = [...corpus.map((c) => c.schema), ...realistic];
const works = (s, provider) => {
  try {
    toStrictJsonSchema(s, { provider });
    return true;
  } catch {
    return false;
  }
};
const schemas = candidates.filter((s) => ['openai', 'anthropic', 'gemini'].every((p) => works(s, p)));
const each = (provider) => () => {
  for (const s of schemas) toStrictJsonSchema(s, { provider });
};

export function run() {
  const r = compare({ openai: each('openai'), anthropic: each('anthropic'), gemini: each('gemini') }, { rounds: 7 });
  return ['anthropic', 'gemini'].map((p) => ({ what: `toStrictJsonSchema, ${schemas.length} schemas per op, ${p} / openai`, ours: r[p], reference: r.openai, ratio: r[p] / r.openai }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ${row.ours.toFixed(0)} ops/s against ${row.reference.toFixed(0)}, ${row.ratio.toFixed(2)}x the OpenAI path's speed`);
}
