// What repairingMiddleware adds to an AI SDK call, next to the SDK's own parse of the same
// text (safeParseJSON with the schema, as generateText does for a tool input or an
// Output.object text), in one process. Inputs: a request with four tools and an output schema;
// a tool call and a JSON output, each clean and broken (prose, fence, single quotes, a trailing
// comma, a string for a number).
import { jsonSchema, safeParseJSON } from '@ai-sdk/provider-utils';
import { repairingMiddleware } from '@understudy/agents';

const object = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const tools = [
  { type: 'function', name: 'search_issues', inputSchema: object({ query: { type: 'string' }, state: { enum: ['open', 'closed', 'all'] }, labels: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer', minimum: 1, maximum: 100 } }) },
  { type: 'function', name: 'create_issue', inputSchema: object({ title: { type: 'string' }, body: { type: 'string' }, assignees: { type: 'array', items: { type: 'string' } }, priority: { enum: ['low', 'medium', 'high'] } }) },
  { type: 'function', name: 'delete_path', inputSchema: object({ path: { type: 'string' }, recursive: { type: 'boolean' } }) },
  { type: 'function', name: 'get_weather', inputSchema: object({ city: { type: 'string' }, days: { type: 'integer' }, units: { anyOf: [{ const: 'metric' }, { const: 'imperial' }] } }) },
];
const ticket = object({ title: { type: 'string' }, priority: { enum: ['low', 'medium', 'high'] }, estimate: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } });
const params = { tools, responseFormat: { type: 'json', schema: ticket } };
const stop = { unified: 'stop', raw: 'stop' };

const cleanInput = '{"query":"login timeout","state":"open","labels":["bug","auth"],"limit":20}';
const brokenInput = "{query: 'login timeout', state: 'OPEN', labels: ['bug', 'auth',], limit: '20',}";
const cleanText = '{"title":"Fix login","priority":"high","estimate":3,"tags":["auth","web"]}';
const brokenText = "Sure! Here is the ticket:\n```json\n{title: 'Fix login', priority: \"HIGH\", estimate: \"3\", tags: ['auth', 'web',],}\n```\nAnything else?";
const call = (input) => ({ content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'search_issues', input }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
const text = (t) => ({ content: [{ type: 'text', text: t }], finishReason: stop });

const middleware = repairingMiddleware();
const inputSchema = jsonSchema(tools[0].inputSchema);
const outputSchema = jsonSchema(ticket);

async function perCall(fn, n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - start) * 1000) / n;
}

/** Median microseconds per call of each contender, taking turns over `rounds`. */
async function compare(contenders, { n = 4000, rounds = 7 } = {}) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (const fn of Object.values(contenders)) await perCall(fn, n);
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) samples[name].push(await perCall(fn, n));
  }
  return Object.fromEntries(Object.entries(samples).map(([k, s]) => [k, s.sort((a, b) => a - b)[Math.floor(s.length / 2)]]));
}

export async function run() {
  const rows = [];
  const cases = [
    ['tool call, clean', call(cleanInput), cleanInput, inputSchema],
    ['tool call, broken', call(brokenInput), cleanInput, inputSchema],
    ['Output.object text, clean', text(cleanText), cleanText, outputSchema],
    ['Output.object text, broken', text(brokenText), cleanText, outputSchema],
  ];
  for (const [name, result, sdkText, schema] of cases) {
    const us = await compare({
      // The call without the middleware: the model's promise, and nothing else.
      bare: () => Promise.resolve(result),
      middleware: () => middleware.wrapGenerate({ doGenerate: () => Promise.resolve(result), params }),
      'SDK parse': () => safeParseJSON({ text: sdkText, schema }),
    });
    rows.push({ name, added: us.middleware - us.bare, sdk: us['SDK parse'] });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| repairingMiddleware, per call | added by the middleware (µs) | the SDK\'s own parse of the clean text (µs) |');
  console.log('| --- | ---: | ---: |');
  for (const r of await run()) console.log(`| ${r.name} | ${r.added.toFixed(2)} | ${r.sdk.toFixed(2)} |`);
}
