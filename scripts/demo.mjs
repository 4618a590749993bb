// A short tour of the schema engine, run by `node scripts/main.mjs` after the build.
import {
  compileJsonSchema,
  prepareStrictJsonSchema,
  StrictSchemaError,
  toStrictJsonSchema,
} from '@understudy/agents';

const lookupOrder = {
  type: 'object',
  properties: {
    orderId: { type: 'string', minLength: 1 },
    includeHistory: { type: 'boolean', description: 'Also return status history' },
  },
  required: ['orderId'],
};

const { schema, normalizeInput } = prepareStrictJsonSchema(lookupOrder);
console.log('strict schema:\n' + JSON.stringify(schema, null, 2));

// What a strict-mode model sends back: the optional field arrives as null.
const fromModel = { orderId: 'A-17', includeHistory: null };
console.log('model arguments:', JSON.stringify(fromModel), '-> normalized:', JSON.stringify(normalizeInput(fromModel)));

const validator = compileJsonSchema(lookupOrder); // `using` where the runtime has it
for (const text of ['{"orderId":"A-17"}', '{"orderId":""}', '{"orderId": "A-17",']) {
  const { valid, issues } = validator.validateJson(text);
  console.log(`validate ${text} ->`, valid ? 'valid' : issues.map((i) => `${i.instancePath || '/'}: ${i.message}`).join('; '));
}
validator.free();

try {
  toStrictJsonSchema({ type: 'object', properties: { when: { oneOf: [{ type: 'string' }, { type: 'number' }] } } });
} catch (error) {
  if (!(error instanceof StrictSchemaError)) throw error;
  console.log(`refused (${error.reason} at ${error.pointer}): ${error.message}`);
}
