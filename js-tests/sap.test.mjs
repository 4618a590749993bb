// Schema-aligned parsing through the package: JSON Schema and Standard Schema guides, fixes,
// typed refusals, and streamed prefixes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { compileStructuredParser, parsePartial, parseStructured, StandardSchemaValidationError, StructuredParseError, UnsupportedStandardSchemaError, UserError } from '@understudy/agents';
import { thrown } from './helpers.mjs';

const ticket = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    priority: { enum: ['low', 'high'] },
    estimate: { type: 'integer' },
    labels: { type: 'array', items: { type: 'string' } },
  },
  required: ['title', 'priority'],
  additionalProperties: false,
};

describe('parseStructured', () => {
  test('a chatty, fenced, broken reply becomes the promised value, with every fix listed', () => {
    const reply = "Sure! Here's the ticket:\n```json\n{\n  title: 'Fix login',  // short\n  priority: \"HIGH\",\n  estimate: \"3\",\n  labels: \"auth\",\n  owner: 'me',\n}\n```\nLet me know!";
    const { value, fixes } = parseStructured(reply, ticket);
    assert.deepStrictEqual(value, { title: 'Fix login', priority: 'high', estimate: 3, labels: ['auth'] });
    const kinds = new Set(fixes.map((f) => f.kind));
    for (const kind of ['fence_stripped', 'prose_skipped', 'comment_removed', 'single_quotes', 'unquoted_key', 'trailing_comma_removed', 'enum_case', 'string_to_number', 'single_to_array', 'extra_key_dropped']) {
      assert.ok(kinds.has(kind), `${kind} missing from ${[...kinds]}`);
    }
    assert.deepStrictEqual(fixes.find((f) => f.kind === 'enum_case').pointer, '/priority');
  });

  test('fixes reach JavaScript exactly, whatever their pointers and details hold (NUL, quotes, backslashes, non-ASCII)', () => {
    for (const key of ['plain', 'a\u0000b', 'q"\\\'', 'tab\there', 'ünï 🦀', '', 'x/y~z']) {
      const schema = { type: 'object', properties: { [key]: { type: 'integer' } } };
      const reply = `Here:\n\`\`\`json\n${JSON.stringify({ [key]: '3' })}\n\`\`\``;
      const expected = {
        value: { [key]: 3 },
        fixes: [
          { kind: 'fence_stripped', pointer: '', detail: '```json' },
          { kind: 'prose_skipped', pointer: '', detail: 'text before the fence' },
          { kind: 'string_to_number', pointer: `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, detail: '3' },
        ],
      };
      assert.deepStrictEqual(parseStructured(reply, schema), expected, JSON.stringify(key));
      const parser = compileStructuredParser(schema);
      assert.deepStrictEqual(parser.parse(reply), expected, JSON.stringify(key));
      parser.free();
    }
    // A detail holding a NUL (the fence's info string) crosses as well.
    const { value, fixes } = parseStructured('```json\u0000x\n{"plain": 1}\n```', { type: 'object' });
    assert.deepStrictEqual(value, { plain: 1 });
    assert.deepStrictEqual(fixes, [{ kind: 'fence_stripped', pointer: '', detail: '```json\u0000x' }]);
    // Readings without fixes, and a key given twice (its first place, its last value).
    const integer = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } } };
    const parser = compileStructuredParser(integer);
    for (const [reply, value] of [['{"a": 1.0}', { a: 1 }], ['{"a": 1, "b": "x\\u00e9", "a": 2}', { a: 2, b: 'x\u00e9' }]]) {
      for (const result of [parseStructured(reply, integer), parser.parse(reply)]) {
        assert.deepStrictEqual(result, { value, fixes: [] }, reply);
        assert.deepStrictEqual(Object.keys(result.value), Object.keys(value), reply);
      }
    }
    parser.free();
  });

  test('refusals are StructuredParseErrors with a reason and the candidates considered', () => {
    const none = thrown(() => parseStructured("I'm sorry, I can't help with that.", ticket));
    assert.ok(none instanceof StructuredParseError);
    assert.ok(none instanceof UserError);
    assert.equal(none.reason, 'no_json');
    const wrong = thrown(() => parseStructured('{"title": "x", "priority": "urgent"}', ticket));
    assert.equal(wrong.reason, 'not_in_enum');
    assert.deepStrictEqual(wrong.candidates.map((c) => [c.reason, c.pointer]), [['not_in_enum', '/priority']]);
    const missing = thrown(() => parseStructured('{"title": "x"}', ticket));
    assert.equal(missing.reason, 'missing_required');
    const ambiguous = thrown(() => parseStructured('{"title":"a","priority":"low"} or {"title":"b","priority":"low"}', ticket));
    assert.equal(ambiguous.reason, 'ambiguous');
  });

  test('a Zod schema guides the reading and validates last', () => {
    const Order = z.object({ id: z.string().min(1), qty: z.number().int().default(1), gift: z.boolean().optional() });
    assert.deepStrictEqual(parseStructured("{id: 'A-1', gift: 'true'}", Order).value, { id: 'A-1', qty: 1, gift: true });
    const error = thrown(() => parseStructured('{"id": ""}', Order));
    assert.ok(error instanceof StandardSchemaValidationError, String(error));
  });

  test('Valibot with its JSON Schema adapter', () => {
    const Search = toStandardJsonSchema(v.object({ query: v.string(), limit: v.optional(v.number()) }));
    assert.deepStrictEqual(parseStructured('```\n{"query": "rust wasm", "limit": "10"}\n```', Search).value, { query: 'rust wasm', limit: 10 });
  });

  test('a Standard Schema without JSON conversion, or a non-schema, is refused', () => {
    const validateOnly = { '~standard': { version: 1, vendor: 'x', validate: (value) => ({ value }) } };
    assert.ok(thrown(() => parseStructured('{}', validateOnly)) instanceof UnsupportedStandardSchemaError);
    assert.ok(thrown(() => parseStructured('{}', 5)) instanceof UserError);
    const notAGuide = 'parseStructured expects a JSON Schema (an object or a boolean) or a Standard Schema with JSON Schema conversion.';
    for (const schema of [5, 'x', null, [{ type: 'object' }]]) {
      assert.throws(() => parseStructured('{}', schema), (e) => e instanceof UserError && e.message === notAGuide, String(schema));
    }
    // A boolean or an object is a schema (`false` then refuses the value, as a schema does).
    for (const schema of [true, {}]) assert.deepEqual(parseStructured('{}', schema).value, {});
    assert.ok(thrown(() => parseStructured('{}', false)) instanceof StructuredParseError);
  });

  test('hostile input gives a value or a typed error, never a crash', () => {
    for (const text of ['word '.repeat(200_000), '"'.repeat(100_000), '['.repeat(10_000), '\\'.repeat(1_000_000), '{'.repeat(10_000)]) {
      try {
        parseStructured(text, { type: 'object' });
      } catch (error) {
        assert.ok(error instanceof StructuredParseError, String(error));
      }
      parsePartial(text, {});
    }
  });
});

describe('parsePartial', () => {
  const reply = '```json\n{"title": "Fix \\"login\\" flow", "priority": "high", "estimate": 13, "labels": ["auth", "web"]}\n```';

  test('the value grows with the stream and never contradicts the final parse', () => {
    const final = parseStructured(reply, ticket).value;
    let previousKeys = 0;
    for (let cut = 0; cut <= reply.length; cut++) {
      const { value, complete } = parsePartial(reply.slice(0, cut), ticket);
      if (value === undefined) continue;
      for (const [key, got] of Object.entries(value)) {
        const want = final[key];
        if (typeof got === 'string') assert.ok(want.startsWith(got), `${key}: ${got} vs ${want}`);
        else if (Array.isArray(got)) got.forEach((g, i) => assert.ok(want[i].startsWith(g)));
        else assert.deepStrictEqual(got, want, key);
      }
      assert.ok(Object.keys(value).length >= previousKeys - 1);
      previousKeys = Object.keys(value).length;
      if (complete) assert.deepStrictEqual(value, final);
    }
  });

  test('truncation rules: open containers closed, unfinished scalars left out', () => {
    assert.deepStrictEqual(parsePartial('{"title": "Fix lo', ticket).value, { title: 'Fix lo' });
    assert.deepStrictEqual(parsePartial('{"title": "x", "priority": "hi', ticket).value, { title: 'x' });
    assert.deepStrictEqual(parsePartial('{"title": "x", "estimate": 1', ticket).value, { title: 'x' });
    assert.deepStrictEqual(parsePartial('{"title": "x", "estimate": 13,', ticket).value, { title: 'x', estimate: 13 });
    assert.deepStrictEqual(parsePartial('{"labels": [', ticket).value, { labels: [] });
    assert.equal(parsePartial('Thinking...', ticket).value, undefined);
    assert.equal(parsePartial('{"title": "x"', ticket).complete, false);
  });
});

describe('parseStructured options', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' }, tag: { enum: ['a', 'b'] } }, required: ['n'], additionalProperties: false };

  test("truncated: 'error' refuses a cut-off reply; 'close' (default) closes it", () => {
    const cut = '{"n": 4, "tag": "a"';
    assert.deepEqual(parseStructured(cut, schema).value, { n: 4, tag: 'a' });
    assert.deepEqual(parseStructured(cut, schema, { truncated: 'close' }).fixes.map((f) => f.kind), ['closed_at_end']);
    assert.throws(() => parseStructured(cut, schema, { truncated: 'error' }), (e) => e instanceof StructuredParseError && e.reason === 'partial');
  });

  test('allowFixes limits the repairs accepted, naming the refused one with its pointer', () => {
    const reply = '```json\n{"n": "4"}\n```';
    assert.deepEqual(parseStructured(reply, schema, { allowFixes: ['fence_stripped', 'string_to_number'] }).value, { n: 4 });
    assert.throws(
      () => parseStructured(reply, schema, { allowFixes: ['fence_stripped'] }),
      (e) => e instanceof StructuredParseError && e.reason === 'fix_not_allowed' && e.candidates[0].pointer === '/n' && /string_to_number/.test(e.message),
    );
  });

  test('unknown options and repair kinds are refused, never ignored', () => {
    assert.throws(() => parseStructured('{"n":1}', schema, { truncate: 'error' }), (e) => e instanceof UserError && /Unknown parseStructured option `truncate`/.test(e.message));
    assert.throws(() => parseStructured('{"n":1}', schema, { truncated: 'ignore' }), UserError);
    assert.throws(() => parseStructured('{"n":1}', schema, { allowFixes: ['fence_strip'] }), /unknown repair kind fence_strip/);
    assert.throws(() => parseStructured('{"n":1}', schema, { allowFixes: 'fence_stripped' }), /must be an array/);
    assert.deepEqual(parseStructured('{"n":1}', schema, undefined).value, { n: 1 });
  });
});

describe('texts cross into the engine through its input buffer', () => {
  test('a Standard Schema that parses another reply inside validate does not disturb the outer call', () => {
    const inner = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    let nested;
    const outer = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate(value) {
          // Writes a different (and longer, so the buffer grows) text into the input buffer.
          nested = parseStructured(`Sure:\n\`\`\`json\n{"n": "7", "pad": "${'p'.repeat(5000)}"}\n\`\`\``, inner).value.n;
          return { value };
        },
        jsonSchema: { input: () => ({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }), output: () => ({}) },
      },
    };
    const { value } = parseStructured("Here you go: {word: 'outer',}", outer);
    assert.deepEqual(value, { word: 'outer' });
    assert.equal(nested, 7);
  });

  test('a schema changed between calls guides the next call (parsed schemas are cached by their text)', () => {
    const schema = { type: 'object', properties: { n: { type: 'string' } } };
    assert.deepEqual(parseStructured('{"n": 5}', schema).value, { n: '5' });
    schema.properties.n.type = 'integer';
    assert.deepEqual(parseStructured('{"n": "5"}', schema).value, { n: 5 });
    for (let i = 0; i < 20; i++) parseStructured('{}', { type: 'object', title: `evicts ${i}` });
    assert.deepEqual(parseStructured('{"n": "6"}', schema).value, { n: 6 });
  });

  test('short texts after the engine memory grew read right (the view of the buffer is renewed)', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    assert.deepEqual(parseStructured('{"n": 1}', schema).value, { n: 1 });
    parseStructured(JSON.stringify({ n: 2, big: 'x'.repeat(3_000_000) }), { type: 'object' });
    assert.deepEqual(parseStructured('{"n": 3}', schema).value, { n: 3 });
    assert.deepEqual(parsePartial('{"n": 4', schema).value, {});
  });
});

describe('large texts (they cross into the engine as UTF-8 bytes)', () => {
  const schema = { type: 'object', properties: { note: { type: 'string' }, n: { type: 'integer' } }, required: ['n'] };
  const note = 'émoji 😀 ünïcödé — '.repeat(80);

  test('parseStructured and parsePartial read long replies, non-ASCII included, as short ones', () => {
    const clean = JSON.stringify({ note, n: 3 });
    assert.ok(clean.length > 1024);
    assert.deepEqual(parseStructured(clean, schema), { value: { note, n: 3 }, fixes: [] });
    const broken = `Here:\n\`\`\`json\n{note: '${note}', n: "3",}\n\`\`\``;
    const { value, fixes } = parseStructured(broken, schema);
    assert.deepEqual(value, { note, n: 3 });
    assert.ok(fixes.some((f) => f.kind === 'string_to_number'));
    const cut = `{"note": "${note}`;
    assert.deepEqual(parsePartial(cut, schema), { value: { note }, complete: false, fixes: [] });
    // A lone surrogate becomes U+FFFD on the way in, on both paths.
    const lone = `{"note": "\ud800${'x'.repeat(1100)}", "n": 1}`;
    assert.equal(parseStructured(`Sure: ${lone}`, schema).value.note[0], '\ufffd');
    assert.equal(parseStructured(`Sure: ${lone.slice(0, 40)}"}`.replace('"n": 1', ''), { type: 'object' }).value.note[0], '\ufffd');
  });
});

test('a one-element array for an { elements } object is wrapped as two are', () => {
  const schema = { type: 'object', properties: { elements: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } } }, required: ['elements'] };
  const one = parseStructured('[{"x":1}]', schema);
  assert.deepEqual(one.value, { elements: [{ x: 1 }] });
  assert.deepEqual(one.fixes.map((f) => f.kind), ['array_to_object']);
  assert.deepEqual(parseStructured('[{"x":1},{"x":2}]', schema).value, { elements: [{ x: 1 }, { x: 2 }] });
});

test('errors name the function called; a schema with an unknown type is an InvalidJsonSchemaError', async () => {
  const { repairText, repairingMiddleware, repairingModel, InvalidJsonSchemaError } = await import('@understudy/agents');
  assert.throws(() => repairText(undefined), { name: 'UserError', message: /^repairText expects a JSON Schema/ });
  assert.throws(() => compileStructuredParser(5), { name: 'UserError', message: /^compileStructuredParser expects a JSON Schema/ });
  assert.throws(() => repairingMiddleware({ allowFixes: ['fence'] }), { name: 'UserError', message: /^repairingMiddleware option `allowFixes` has an unknown repair kind fence;/ });
  assert.throws(() => repairingModel({ getResponse() {}, getStreamedResponse() {} }, { allowFixes: 'x' }), { name: 'UserError', message: 'repairingModel option `allowFixes` must be an array of repair kinds.' });
  for (const call of [() => parseStructured('{}', { type: 'nope' }), () => parsePartial('{}', { type: 'nope' }), () => compileStructuredParser({ properties: { a: { type: 'text' } } })]) {
    const e = thrown(call);
    assert.ok(e instanceof InvalidJsonSchemaError && e instanceof UserError, String(e));
    assert.ok(!(e instanceof StructuredParseError));
    assert.match(e.pointer, /\/type$/);
  }
});

test('partialOutput never goes back: a second value holds the partials until the reply ends', async () => {
  const { partialOutput } = await import('@understudy/agents');
  const schema = { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } }, required: ['title'] };
  const reply = 'Draft:\n```json\n{"title":"Draft","body":"first try"}\n```\nFinal:\n```json\n{"title":"Final","body":"second try"}\n```';
  async function* deltas() {
    for (let i = 0; i < reply.length; i += 7) yield reply.slice(i, i + 7);
  }
  const seen = [];
  for await (const p of partialOutput(deltas(), schema)) seen.push(p);
  const final = { title: 'Final', body: 'second try' };
  assert.deepEqual(seen.at(-1).value, final);
  assert.equal(seen.at(-1).complete, true);
  // Before the final value is whole, each partial holds at least what the one before it held
  // (no `{}` once the draft was shown): the draft's partials, then nothing until the end.
  const partials = seen.filter((p) => !p.complete && JSON.stringify(p.value) !== JSON.stringify(final)).map((p) => p.value);
  for (let i = 1; i < partials.length; i++) {
    for (const [k, v] of Object.entries(partials[i - 1])) assert.ok(typeof partials[i][k] === 'string' && partials[i][k].startsWith(v), `${JSON.stringify(partials[i - 1])} then ${JSON.stringify(partials[i])}`);
  }
  assert.deepEqual(partials.at(-1), { title: 'Draft', body: 'first try' });
});

test('two candidates, one rule (sap-rules.md rule 2): the last complete fenced one is chosen and reported; unfenced ones that differ are ambiguous', () => {
  const S = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
  const fenced = parseStructured('Draft: ```json\n{"title":"Draft"}\n``` Final: ```json\n{"title":"Final"}\n```', S);
  assert.deepEqual(fenced.value, { title: 'Final' });
  assert.deepEqual(fenced.fixes.filter((f) => f.kind === 'candidate_chosen').map((f) => f.detail), ['the last complete fenced value']);
  assert.throws(() => parseStructured('Draft: {"title":"Draft"} Final: {"title":"Final"}', S), (e) => e.name === 'StructuredParseError' && e.reason === 'ambiguous' && /2 different values/.test(e.message));
  // The same value twice is no ambiguity.
  assert.deepEqual(parseStructured('{"title":"A"} or {"title":"A"}', S).value, { title: 'A' });
});

test('Python None: partials and the final value agree, with and without a nullable field', () => {
  const text = "{'title': 'A', 'x': None, 'y': 1}";
  for (const x of [{ type: 'string' }, { type: ['string', 'null'] }]) {
    const S = { type: 'object', properties: { title: { type: 'string' }, x }, required: ['title'] };
    const final = parseStructured(text, S).value;
    for (let i = 1; i <= text.length; i++) {
      const partial = parsePartial(text.slice(0, i), S).value ?? {};
      for (const [key, value] of Object.entries(partial)) {
        if (typeof value === 'string') assert.ok(final[key].startsWith(value), `${JSON.stringify(x)} at ${i}: ${key}`);
        else assert.deepEqual(value, final[key], `${JSON.stringify(x)} at ${i}: ${key}`);
      }
    }
  }
});
