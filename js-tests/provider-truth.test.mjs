// One rule book, three readers: for every corpus schema (the strict-differential corpus, the 54
// real MCP tool schemas, the public evidence cases) in every provider mode, the HTTP double
// answers 200 exactly where checkTools says `accepted` for that mode, and 400 with the same
// pointer where it says the provider refuses the schema as sent; and what the conversion for a
// mode gives (`toStrictJsonSchema(schema, { provider: mode })`), that mode accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTools, toStrictJsonSchema } from '@understudy/agents';
import { scriptedFetch, textStep } from '@understudy/agents/ai-sdk/testing';
import { corpus } from './corpus/schemas.mjs';
import { root } from './pack.mjs';

const MODES = ['openai:strict', 'openai:standard', 'anthropic:standard', 'anthropic:strict', 'gemini:openapi', 'gemini:json'];

/** The request that sends `schema` as tool `name`'s parameters in `mode`: its URL and body. */
function request(mode, name, schema) {
  switch (mode) {
    case 'openai:strict':
      return ['https://api.openai.com/v1/responses', { model: 'gpt-5', input: 'x', tools: [{ type: 'function', name, parameters: schema, strict: true }] }];
    case 'openai:standard':
      return ['https://api.openai.com/v1/chat/completions', { model: 'gpt-5', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name, parameters: schema } }] }];
    case 'anthropic:standard':
      return ['https://api.anthropic.com/v1/messages', { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools: [{ name, input_schema: schema }] }];
    case 'anthropic:strict':
      return ['https://api.anthropic.com/v1/messages', { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools: [{ name, input_schema: schema, strict: true }] }];
    case 'gemini:openapi':
      return ['https://generativelanguage.googleapis.com/v1beta/models/gemini:generateContent', { contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name, parameters: schema }] }] }];
    case 'gemini:json':
      return ['https://generativelanguage.googleapis.com/v1beta/models/gemini:generateContent', { contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name, parametersJsonSchema: schema }] }] }];
  }
}

/** What the HTTP double answers to `schema` sent in `mode`: `{ status, message }`. */
async function answer(mode, schema) {
  const fetch = scriptedFetch([textStep('ok')]);
  const [url, body] = request(mode, 'tool_1', schema);
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  return { status: response.status, message: json?.error?.message ?? '' };
}

const mcp = JSON.parse(readFileSync(join(root, 'js-tests', 'corpus', 'mcp-tools.json'), 'utf8')).tools;

/** The public evidence cases (docs/providers.md), as schemas. */
const EVIDENCE = [
  { name: 'E1 format uri (mcp-server-fetch)', schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'], additionalProperties: false } },
  { name: 'E4/E5 propertyNames (z.record)', schema: { type: 'object', properties: { h: { type: 'object', propertyNames: { type: 'string', pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } } }, required: ['h'] } },
  { name: 'E7 allOf (notion)', schema: { type: 'object', properties: { p: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] } } } },
  { name: 'E9 open map (mongodb)', schema: { type: 'object', properties: { filter: { type: 'object', additionalProperties: {} } } } },
  { name: 'E11 root anyOf', schema: { type: 'object', anyOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'string' } }, required: ['b'] }] } },
  { name: 'E12 root array', schema: { type: 'array', items: { type: 'string' } } },
  { name: 'E13 additionalProperties (Gemini)', schema: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } } },
  { name: 'E14 $schema (Gemini)', schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } } },
  { name: 'E17 node without type', schema: { type: 'object', properties: { f: { description: 'anything' } } } },
  { name: 'E19 integer enum', schema: { type: 'object', properties: { level: { type: 'integer', enum: [0, 1, 2] } } } },
  { name: 'E21 property_ordering', schema: { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'INTEGER' } }, property_ordering: ['a', 'b'], required: ['a', 'b'] } },
  { name: 'E27 int64 format', schema: { type: 'object', properties: { n: { type: 'integer', format: 'int64' } } } },
  { name: 'unused $defs', schema: { type: 'object', properties: {}, required: [], additionalProperties: false, $defs: { x: { type: 'object', properties: { a: { type: 'string' } } } } } },
  { name: 'Anthropic strict local $ref', schema: { type: 'object', properties: { at: { $ref: '#/$defs/p' } }, required: ['at'], additionalProperties: false, $defs: { p: { type: 'object', properties: { c: { type: 'string' } }, required: ['c'], additionalProperties: false } } } },
  { name: 'Anthropic strict minLength', schema: { type: 'object', properties: { s: { type: 'string', minLength: 2 } }, required: ['s'], additionalProperties: false } },
];

const cases = [
  ...corpus.filter((c) => c.schema !== null && typeof c.schema === 'object' && !('~standard' in c.schema)).map((c) => ({ name: `corpus: ${c.name}`, schema: c.schema })),
  ...mcp.map((t) => ({ name: `mcp: ${t.name}`, schema: t.inputSchema })),
  ...EVIDENCE.map((e) => ({ name: `evidence: ${e.name}`, schema: e.schema })),
];

test('the HTTP double answers 200 exactly where checkTools accepts, and the same refusal where it does not', async () => {
  let compared = 0;
  const tally = Object.fromEntries(MODES.map((m) => [m, { accepted: 0, refused: 0 }]));
  for (const { name, schema } of cases) {
    let text;
    try {
      text = JSON.stringify(schema);
    } catch {
      continue;
    }
    if (text === undefined || text.length > 200_000) continue;
    let report;
    try {
      report = checkTools([{ name: 'tool_1', inputSchema: schema }], { providers: MODES });
    } catch (error) {
      // Nesting past the depth bound is refused whole, before any provider is asked.
      assert.equal(error.name, 'SchemaDepthError', `${name}: ${error}`);
      continue;
    }
    for (const row of report.results) {
      const { status, message } = await answer(row.mode, schema);
      const at = `${name} in ${row.mode}`;
      if (row.status === 'accepted') {
        assert.equal(status, 200, `${at}: checkTools accepts, the double says ${message}`);
        tally[row.mode].accepted += 1;
      } else {
        assert.equal(status, 400, `${at}: checkTools says ${row.status}, the double answers 200`);
        const refusal = row.asSent ?? row;
        // The refusal in words, without who says it (the check names the tool and the mode).
        let words = refusal.message.replace(/^\S+ refuses the input schema of tool `[^`]*` at (?:`[^`]*`|the root): /, '');
        for (const by of ['refuses it: ', 'cannot take this schema: ']) if (words.includes(by)) words = words.slice(words.lastIndexOf(by) + by.length);
        words = words.replace(/ \(at [^)]*\)\.?$/, '');
        assert.ok(message.includes(words.slice(0, 40)), `${at}: the double says ${JSON.stringify(message)}, checkTools ${JSON.stringify(refusal.message)}`);
        if (refusal.pointer !== '' && !/input_schema/.test(message)) assert.ok(message.includes(`(at ${refusal.pointer})`), `${at}: ${message} names ${refusal.pointer}`);
        tally[row.mode].refused += 1;
      }
      compared += 1;
    }
  }
  assert.ok(compared >= 6 * 150, `compared ${compared}`);
  // Every mode both takes and refuses something in the corpus: no mode is vacuous.
  for (const [mode, { accepted, refused }] of Object.entries(tally)) assert.ok(accepted > 0 && refused > 0, `${mode}: ${accepted} accepted, ${refused} refused`);
});

test('what the conversion for a mode gives, that mode accepts (checkTools and the double agree)', async () => {
  let converted = 0;
  for (const { name, schema } of cases) {
    for (const mode of ['anthropic:standard', 'anthropic:strict', 'gemini:openapi', 'gemini:json', 'openai:standard']) {
      let out;
      try {
        out = toStrictJsonSchema(schema, { provider: mode });
      } catch (error) {
        assert.ok(['StrictSchemaError', 'SchemaDepthError', 'InvalidJsonSchemaError'].includes(error.name), `${name} → ${mode}: ${error}`);
        continue;
      }
      const row = checkTools([{ name: 'tool_1', inputSchema: out }], { providers: mode }).results[0];
      assert.equal(row.status, 'accepted', `${name} converted for ${mode} is ${row.status}: ${row.asSent?.message ?? row.message}`);
      assert.equal((await answer(mode, out)).status, 200, `${name} converted for ${mode}`);
      converted += 1;
    }
  }
  assert.ok(converted > 300, `converted ${converted}`);
});

test('the issue cases: each provider mode in its own words', async () => {
  const uri = EVIDENCE[0].schema;
  assert.match((await answer('openai:strict', uri)).message, /Invalid schema for function 'tool_1': 'uri' is not a valid format/);
  assert.equal((await answer('openai:standard', uri)).status, 200);
  assert.equal((await answer('anthropic:standard', EVIDENCE[3].schema)).status, 200);
  assert.equal((await answer('anthropic:standard', EVIDENCE[5].schema)).message, "tools.0.custom.input_schema.type: Input should be 'object'");
  assert.equal((await answer('anthropic:standard', EVIDENCE[4].schema)).message, 'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level');
  assert.equal((await answer('anthropic:strict', EVIDENCE[13].schema)).status, 200);
  assert.equal((await answer('anthropic:strict', EVIDENCE[14].schema)).status, 400);
  assert.equal((await answer('gemini:openapi', EVIDENCE[10].schema)).status, 200);
  assert.equal((await answer('openai:strict', EVIDENCE[12].schema)).status, 200, 'an unused $defs is not a reason to refuse');
});
