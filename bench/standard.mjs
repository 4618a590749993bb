// validateStandardSchema vs the reference's (@openai/agents-core 0.20.0's standardSchema
// module) on valid and invalid values, for Zod 4, Valibot (with @valibot/to-json-schema) and
// ArkType, in one process.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { validateStandardSchema } from '@understudy/agents';
import * as reference from '../js-tests/reference.mjs';
import { compare, fmt } from './lib.mjs';

const schemas = {
  'Zod 4': z.object({ city: z.string().min(1), days: z.number().int().min(1), units: z.enum(['c', 'f']).optional() }),
  Valibot: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.pipe(v.number(), v.integer(), v.minValue(1)), units: v.optional(v.picklist(['c', 'f'])) })),
  ArkType: type({ city: 'string > 0', days: 'number.integer >= 1', 'units?': "'c' | 'f'" }),
};
const values = { valid: { city: 'Tokyo', days: 2, units: 'c' }, invalid: { city: '', days: 0.5, units: 'k' } };

const attempt = (fn) => () => {
  try {
    fn();
  } catch {}
};

export function run() {
  const rows = [];
  for (const [name, schema] of Object.entries(schemas)) {
    for (const [kind, value] of Object.entries(values)) {
      const r = compare({
        ours: attempt(() => validateStandardSchema(schema, value)),
        reference: attempt(() => reference.standard.validateStandardSchema(schema, value)),
      });
      rows.push({ what: `validateStandardSchema, ${name}, ${kind} value, vs the reference`, ours: r.ours, reference: r.reference, ratio: r.ours / r.reference });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ours ${fmt(row.ours)} ops/s, reference ${fmt(row.reference)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
