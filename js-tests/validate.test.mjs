// Local validation: compileJsonSchema with validate(value) and validateJson(text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compileJsonSchema, engineLiveHandles, engineMemoryBytes, InvalidJsonSchemaError, UserError } from '@understudy/agents';
import { corpus } from './corpus/schemas.mjs';
import { sample, variants } from './corpus/values.mjs';

const order = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1 },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku', 'qty'], additionalProperties: false } },
  },
  required: ['id', 'lines'],
};

describe('validate and validateJson', () => {
  test('a valid value has no issues', () => {
    const v = compileJsonSchema(order);
    assert.deepStrictEqual(v.validate({ id: 'A', lines: [{ sku: 'x', qty: 2 }] }), { valid: true, issues: [] });
    assert.deepStrictEqual(v.validateJson('{"id":"A","lines":[]}'), { valid: true, issues: [] });
    v.free();
  });

  test('issues carry message, instancePath, schemaPath and keyword', () => {
    const v = compileJsonSchema(order);
    const { valid, issues } = v.validate({ id: '', lines: [{ sku: 'x', qty: 0, extra: true }] });
    assert.equal(valid, false);
    const byPath = Object.fromEntries(issues.map((i) => [i.instancePath, i]));
    assert.equal(byPath['/id'].keyword, 'minLength');
    assert.equal(byPath['/id'].schemaPath, '/properties/id/minLength');
    assert.equal(byPath['/lines/0/qty'].keyword, 'minimum');
    assert.equal(byPath['/lines/0'].keyword, 'additionalProperties');
    for (const issue of issues) assert.equal(typeof issue.message, 'string');
    assert.deepStrictEqual(v.validateJson(JSON.stringify({ id: '', lines: [{ sku: 'x', qty: 0, extra: true }] })).issues, issues);
  });

  test('malformed JSON text is an issue with its position, not an exception', () => {
    const v = compileJsonSchema(order);
    const { valid, issues } = v.validateJson('{\n  "id": "A",\n  "lines": [1,]\n}');
    assert.equal(valid, false);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].keyword, 'json');
    assert.equal(issues[0].position.line, 3);
    assert.equal(issues[0].position.column, 15);
    assert.equal('{\n  "id": "A",\n  "lines": [1,]\n}'[issues[0].position.offset], ']');
    assert.equal(v.validateJson('').issues[0].keyword, 'json');
  });

  test('drafts 2020-12 (default) and 7 (by $schema)', () => {
    const tuple2020 = compileJsonSchema({ type: 'array', prefixItems: [{ type: 'string' }], items: false });
    assert.equal(tuple2020.validate(['a']).valid, true);
    assert.equal(tuple2020.validate(['a', 1]).valid, false);
    const tuple7 = compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false });
    assert.equal(tuple7.validate(['a']).valid, true);
    assert.equal(tuple7.validate(['a', 1]).valid, false);
    const defs7 = compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', definitions: { n: { type: 'number' } }, $ref: '#/definitions/n' });
    assert.equal(defs7.validate(1).valid, true);
    assert.equal(defs7.validate('1').valid, false);
  });

  test('undefined members are absent; values JSON cannot carry are issues', () => {
    const v = compileJsonSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    assert.equal(v.validate({ a: undefined }).valid, false);
    const { valid, issues } = v.validate({ a: 'x', f: () => 1 });
    assert.equal(valid, false);
    assert.deepStrictEqual([issues[0].instancePath, issues[0].keyword], ['/f', 'json']);
    assert.equal(v.validate({ a: 'x', n: NaN }).issues[0].instancePath, '/n');
  });

  test('deep values are bounded, never a crash', () => {
    const v = compileJsonSchema({});
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.equal(v.validateJson(deep).valid, false);
    let value = 1;
    for (let i = 0; i < 500; i++) value = [value];
    assert.equal(v.validate(value).issues[0].keyword, 'depth');
    assert.equal(v.validate({ s: 'x'.repeat(10_000_000) }).valid, true);
  });

  test('a bad schema throws InvalidJsonSchemaError naming the pointer', () => {
    for (const [schema, pointer] of [
      [{ type: 'object', properties: { a: { type: 'strng' } } }, '/properties/a/type'],
      [{ type: 'object', properties: { a: { minLength: -1 } } }, '/properties/a/minLength'],
      [{ pattern: '(' }, '/pattern'],
    ]) {
      let error;
      try {
        compileJsonSchema(schema);
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof InvalidJsonSchemaError, `${JSON.stringify(schema)}: ${error}`);
      assert.ok(error instanceof UserError);
      assert.equal(error.pointer, pointer);
      assert.match(error.message, new RegExp(pointer.replaceAll('/', '\\/')));
    }
    assert.throws(() => compileJsonSchema(5), InvalidJsonSchemaError);
    assert.throws(() => compileJsonSchema({ a: () => 1 }), (e) => e instanceof InvalidJsonSchemaError && e.pointer === '/a');
  });

  test('patterns mean what ECMA-262 says: the host RegExp, as ajv (u flag)', () => {
    const ajv = newAjv(true, {});
    const cases = [
      // lookaheads, a backreference, Unicode property escapes, ASCII \d, code points under u
      [{ type: 'string', pattern: '^(?=.*\\d)(?=.*[a-z]).{8,}$' }, ['abcdefg1', 'abcdefgh', '12345678', 'a1']],
      [{ type: 'string', pattern: '^(a|b)\\1$' }, ['aa', 'ab', 'bb']],
      [{ type: 'string', pattern: '^\\p{Lu}\\p{Ll}+$' }, ['Émile', 'émile', 'Ab', 'A']],
      [{ type: 'string', pattern: '^\\d+$' }, ['123', '\u0663', '1\u0663']],
      [{ type: 'string', pattern: '^.$' }, ['\u{1F600}', 'ab', 'x']],
      [{ type: 'string', pattern: 'colou?r' }, ['the color', 'the colour red', 'the colr']],
      [{ type: 'object', patternProperties: { '^x-(?!internal)': { type: 'string' } }, additionalProperties: false }, [{ 'x-a': 's' }, { 'x-internal': 's' }, { 'x-a': 1 }, { y: 's' }]],
      [{ type: 'object', properties: { id: { type: 'string', pattern: '^[A-Z]{2}-\\d{4}$' } } }, [{ id: 'AB-1234' }, { id: 'ab-1234' }, { id: 'AB-12345' }]],
    ];
    for (const [schema, values] of cases) {
      const theirs = ajv.compile(schema);
      const ours = compileJsonSchema(schema);
      for (const value of values) {
        const expected = theirs(value);
        assert.equal(ours.validate(value).valid, expected, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
        assert.equal(ours.validateJson(JSON.stringify(value)).valid, expected, `validateJson: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      }
      ours.free();
    }
    // A pattern only the legacy syntax accepts (an identity escape) compiles without the u flag,
    // as the Rust translation accepted it; one no syntax accepts names its pointer.
    const legacy = compileJsonSchema({ type: 'string', pattern: '^[a-z]\\_\\d$' });
    assert.deepEqual([legacy.validate('a_1').valid, legacy.validate('a1').valid], [true, false]);
    assert.throws(() => compileJsonSchema({ properties: { a: { pattern: '[z-a]' } } }), (e) => e instanceof InvalidJsonSchemaError && e.pointer === '/properties/a/pattern');
    // A pattern's issue keeps jsonschema's wording and pointers.
    const issue = compileJsonSchema({ properties: { code: { pattern: '^(?=\\d)\\w+$' } } }).validate({ code: 'x1' }).issues[0];
    assert.deepEqual([issue.keyword, issue.instancePath, issue.schemaPath], ['pattern', '/code', '/properties/code/pattern']);
    assert.match(issue.message, /does not match/);
  });

  /**
   * Generates 400 patterns of one to four atoms (each but a lookaround or `\b` / `\B` with
   * one of `counts`), anchored or not, and compares the validator's verdict with RegExp's (u
   * flag) on twelve texts of up to `maxText - 1` characters each. A pattern RegExp refuses must
   * be refused at compile time. Returns how many verdicts were compared.
   */
  function agreeWithRegExp({ atoms, counts, chars, seed, maxText }) {
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      let pattern = rand(2) ? '^' : '';
      for (let k = 1 + rand(4); k > 0; k--) {
        const atom = atoms[rand(atoms.length)];
        // Lookarounds and \b are not quantifiable under u; everything else may be.
        pattern += atom + (/^\(\?[=!<]|^\\[bB]$/.test(atom) ? '' : counts[rand(counts.length)]);
      }
      if (rand(2)) pattern += '$';
      let regexp;
      try {
        regexp = new RegExp(pattern, 'u');
      } catch {
        assert.throws(() => compileJsonSchema({ type: 'string', pattern }), InvalidJsonSchemaError, pattern);
        continue;
      }
      const ours = compileJsonSchema({ type: 'string', pattern });
      for (let j = 0; j < 12; j++) {
        let text = '';
        for (let n = rand(maxText); n > 0; n--) text += chars[rand(chars.length)];
        assert.equal(ours.validate(text).valid, regexp.test(text), `/${pattern}/u on ${JSON.stringify(text)}`);
        compared++;
      }
      ours.free();
    }
    return compared;
  }

  test('simple patterns (matched natively) agree with RegExp on generated patterns and texts', () => {
    // Atoms, classes and counts the native matcher takes (src/schema/simple_pattern.rs), and
    // shapes it leaves to the host; every verdict must be RegExp's with the u flag.
    const compared = agreeWithRegExp({
      atoms: ['a', 'b', '-', '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '[a-c]', '[^a]', '[\\d_]', '[\\w.-]', '[a-z-0]', '[^\\s@]', '\\.', '\\$', 'é', '😀', '[😀-😂]', '(a|b)', '\\bb'],
      counts: ['', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?', '{0,2}'],
      chars: ['a', 'b', 'c', '-', '_', '1', '2', ' ', '.', '$', '\n', 'é', '😀', '😁', '\u00a0', '\u2028', '\u0663', '@'],
      seed: 7,
      maxText: 7,
    });
    assert.equal(compared, 4800);
  });

  test('any pattern runs in bounded time: groups, alternation, lookarounds, backreferences and \\p{…} agree with RegExp on generated cases', () => {
    // src/schema/ecma_regex.rs: a lazy DFA over a Pike VM for regular patterns, a backtracking
    // VM with a step budget for backreferences and lookarounds; \p{…} classes asked of RegExp
    // one character at a time.
    const compared = agreeWithRegExp({
      atoms: ['a', 'b', '.', '\\d', '\\w', '\\s', '[a-c]', '[^a]', '(a|b)', '(?:ab|a)', '(a+)', '\\bb', '\\B', '(?=a)', '(?!b)', '(?<=a)', '(?<!b)', '\\1', '\\p{L}', '[\\p{Lu}\\d]', 'é', '😀', '(?:a|)', '(x|y|z)'],
      counts: ['', '', '*', '+', '?', '{2}', '{1,3}', '*?', '+?'],
      chars: ['a', 'b', 'c', 'A', 'x', 'y', '1', ' ', '\n', 'é', 'É', '😀', '\u2028'],
      seed: 11,
      maxText: 8,
    });
    assert.ok(compared > 3000, `compared ${compared}`);
  });

  test('a pattern can never hang the process', () => {
    // The Pike VM answers catastrophic patterns in linear time, with RegExp's verdict.
    const start = performance.now();
    for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '^(\\w+\\s?)*$']) {
      const v = compileJsonSchema({ type: 'string', pattern });
      assert.equal(v.validate('a'.repeat(50_000) + '!').valid, false, pattern);
      assert.equal(v.validateJson(JSON.stringify('a'.repeat(50_000) + '!')).valid, false, pattern);
      v.free();
    }
    // A backreference needs backtracking: past the step budget the value is refused, and the
    // issue names the pattern, at the value's pointer.
    const backref = compileJsonSchema({ type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+\\1$' } } });
    const { valid, issues } = backref.validate({ name: 'a'.repeat(50_000) + '!' });
    assert.equal(valid, false);
    assert.deepEqual([issues[0].keyword, issues[0].instancePath, issues[0].schemaPath], ['pattern', '/name', '/properties/name/pattern']);
    assert.match(issues[0].message, /^The pattern \/\^\(a\+\)\+\\1\$\/ needs more than 1000000 steps of backtracking on this value/);
    assert.equal(backref.validate({ name: 'aa' }).valid, true);
    assert.ok(performance.now() - start < 20_000, 'bounded');
  });

  test('compiled patterns are released with their validators', () => {
    compileJsonSchema({ pattern: 'x' }).free(); // the meta-schemas' own patterns stay compiled
    const live = engineLiveHandles();
    for (let i = 0; i < 2_000; i++) {
      const v = compileJsonSchema({ type: 'string', pattern: `^(?=x)x${i}$` });
      assert.equal(v.validate(`x${i}`).valid, true);
      v.free();
    }
    assert.equal(engineLiveHandles(), live);
  });

  test('schemas that share a pattern share its compiled form until the last of them is freed', () => {
    compileJsonSchema({ pattern: 'x' }).free();
    const live = engineLiveHandles();
    const pattern = '^(?:[a-z]+\\.)+[a-z]{2,}$';
    const a = compileJsonSchema({ type: 'object', properties: { host: { type: 'string', pattern } } });
    // Live handles count validators too: the first brings its pattern, the second only itself.
    const afterOne = engineLiveHandles();
    assert.equal(afterOne - live, 2);
    const b = compileJsonSchema({ type: 'array', items: { type: 'string', pattern }, description: 'another schema' });
    assert.equal(engineLiveHandles(), afterOne + 1, 'the second schema adds no compiled pattern');
    a.free();
    assert.equal(engineLiveHandles(), afterOne, 'the pattern outlives the first schema');
    assert.deepEqual([b.validateJson('["mail.example.com"]').valid, b.validateJson('["nope"]').valid], [true, false]);
    assert.equal(b.validateJson('["nope"]').issues[0].keyword, 'pattern');
    b.free();
    assert.equal(engineLiveHandles(), live);
    const c = compileJsonSchema({ type: 'string', pattern });
    assert.deepEqual([c.isValidJson('"a.bc"'), c.isValidJson('"a"')], [true, false]);
    c.free();
    assert.equal(engineLiveHandles(), live);
  });

  test('free(), Symbol.dispose, and use after free', () => {
    const v = compileJsonSchema(order);
    v[Symbol.dispose]();
    v.free();
    assert.throws(() => v.validate({}), (e) => e instanceof UserError && /freed/.test(e.message));
    assert.throws(() => v.validateJson('{}'), UserError);
  });

  for (const formats of [true, false]) {
    test(`agrees with ajv on which corpus values are valid (formats: ${formats})`, () => {
      const ajv = newAjv(formats, {});
      let compared = 0;
      for (const { schema } of corpus) {
        if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || JSON.stringify(schema).length > 50_000) continue;
        let theirs;
        let ours;
        try {
          theirs = ajv.compile(schema);
          ours = compileJsonSchema(schema, { formats });
        } catch {
          continue;
        }
        for (const value of [{}, null, 'x', [], { a: 'x' }, { name: 'Ada', email: 'a@b.c' }, { name: 'Ada', email: 'not an email' }, { value: 'x' }]) {
          assert.equal(ours.validate(value).valid, theirs(value), `${JSON.stringify(schema).slice(0, 80)} on ${JSON.stringify(value)}`);
          compared++;
        }
        ours.free();
      }
      assert.ok(compared > 300, `${compared}`);
    });
  }

  test('formats assert by default and are annotations with { formats: false }', () => {
    const cases = [
      ['date', '2024-02-29', '2024-13-45'],
      ['email', 'ada@example.com', 'spaces not allowed here'],
      ['date-time', '2024-01-02T03:04:05Z', '@@@'],
      ['time', '03:04:05Z', '25:00:00Z'],
      ['duration', 'P3DT4H', '3 days'],
      ['hostname', 'api.example.com', 'bad_host!'],
      ['ipv4', '192.168.0.1', '192.168.0.256'],
      ['ipv6', '::1', ':::1'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567'],
      ['uri', 'https://example.com/a?b=c', 'not a uri'],
      ['regex', '^a+$', '(unclosed'],
    ];
    const ajv = newAjv(true, {});
    for (const [format, good, bad] of cases) {
      const schema = { type: 'object', properties: { v: { type: 'string', format } } };
      const asserting = compileJsonSchema(schema);
      const annotating = compileJsonSchema(schema, { formats: false });
      const theirs = ajv.compile(schema);
      for (const [value, ok] of [[good, true], [bad, false]]) {
        const text = JSON.stringify({ v: value });
        assert.equal(theirs({ v: value }), ok, `ajv-formats ${format} ${value}`);
        assert.equal(asserting.validateJson(text).valid, ok, `${format} validateJson ${value}`);
        assert.equal(asserting.validate({ v: value }).valid, ok, `${format} validate ${value}`);
        assert.equal(annotating.validateJson(text).valid, true, `${format} as an annotation ${value}`);
      }
      const issue = asserting.validate({ v: bad }).issues[0];
      assert.equal(issue.keyword, 'format');
      assert.equal(issue.instancePath, '/v');
      assert.equal(issue.schemaPath, '/properties/v/format');
      asserting.free();
      annotating.free();
    }
  });

  test('compileJsonSchema options are checked', () => {
    for (const options of ['x', 1, [], { format: false }, { formats: 'no' }]) {
      assert.throws(() => compileJsonSchema({}, options), (e) => e instanceof UserError && /compileJsonSchema/.test(e.message), JSON.stringify(options));
    }
    compileJsonSchema({}, { formats: undefined }).free();
    compileJsonSchema({}, null).free();
  });
});

/** ajv for draft 2020-12, asserting formats (with ajv-formats) or not. */
function newAjv(formats, options) {
  const ajv = new Ajv2020.default({ strict: false, validateFormats: formats, ...options });
  if (formats) addFormats.default(ajv);
  return ajv;
}

for (const formats of [true, false]) test(`validate and validateJson agree with ajv on corpus values and their one-change variants (fast path and full path, formats: ${formats})`, () => {
  // Valid texts are proved valid in one streaming pass without building the value; anything
  // else goes to the full validator. Both must give ajv's verdict, and the same issues.
  const ajv = newAjv(formats, { allErrors: true });
  let valid = 0;
  let invalid = 0;
  for (const { name, schema } of corpus) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || name.startsWith('depth')) continue;
    let theirs;
    let ours;
    try {
      theirs = ajv.compile(schema);
      ours = compileJsonSchema(schema, { formats }); // the two disagree on a few reference forms (anchors)
    } catch {
      continue;
    }
    for (const value of [sample(schema), ...variants(sample(schema))]) {
      const text = JSON.stringify(value);
      const expected = theirs(value);
      const fromText = ours.validateJson(text);
      const fromValue = ours.validate(value);
      assert.equal(fromText.valid, expected, `${name}: validateJson(${text})`);
      assert.deepEqual(fromValue, fromText, `${name}: validate and validateJson on ${text}`);
      assert.equal(fromText.issues.length === 0, expected);
      if (expected) valid++;
      else invalid++;
    }
    ours.free();
  }
  assert.ok(valid > 300 && invalid > 1000, `${valid} valid, ${invalid} invalid`);
});

test('large texts and values (sent as UTF-8 bytes) validate like short ones', () => {
  const v = compileJsonSchema({ type: 'object', properties: { s: { type: 'string', maxLength: 5 }, n: { type: 'integer' } } });
  const long = 'ü'.repeat(2000);
  const text = JSON.stringify({ s: long, n: 1.5 });
  const fromText = v.validateJson(text);
  const fromValue = v.validate({ s: long, n: 1.5 });
  assert.equal(fromText.valid, false);
  assert.deepEqual(fromText.issues.map((i) => [i.instancePath, i.keyword]), [['/s', 'maxLength'], ['/n', 'type']]);
  assert.deepEqual(fromValue.issues.map((i) => [i.instancePath, i.keyword]), [['/s', 'maxLength'], ['/n', 'type']]);
  const malformed = v.validateJson(`{"s": "${long}", "n": }`);
  assert.equal(malformed.issues[0].keyword, 'json');
  assert.equal(malformed.issues[0].position.line, 1);
  v.free();
});

test('compiling a schema that is already compiled shares it: 20,000 held validators of one schema do not grow memory', () => {
  const schema = { type: 'object', properties: { path: { type: 'string', pattern: '^/[\\w./-]+$' }, recursive: { type: 'boolean' }, when: { type: 'string', format: 'date-time' } }, required: ['path'] };
  const first = compileJsonSchema(schema);
  const before = engineMemoryBytes();
  const held = [];
  for (let i = 0; i < 20_000; i++) held.push(compileJsonSchema(JSON.parse(JSON.stringify(schema))));
  // Each holds a handle of a few bytes; the compiled schema (patterns, formats, tree) is one.
  assert.ok(engineMemoryBytes() - before <= 2 * 65_536 * 8, `grew ${engineMemoryBytes() - before} bytes`);
  assert.equal(held[19_999].validate({ path: '/tmp/x', recursive: true }).valid, true);
  assert.equal(held[0].validate({ path: 'relative' }).valid, false);
  // A different option is a different compiled schema.
  const lax = compileJsonSchema(schema, { formats: false });
  assert.equal(lax.validate({ path: '/a', when: 'yesterday' }).valid, true);
  assert.equal(first.validate({ path: '/a', when: 'yesterday' }).valid, false);
  for (const v of held) v.free();
  first.free();
  lax.free();
});

test('format asserts in draft 7 too: Valibot\'s draft-07 uuid refuses what ajv with ajv-formats refuses', async () => {
  const v = await import('valibot');
  const { toJsonSchema } = await import('@valibot/to-json-schema');
  const schema = toJsonSchema(v.object({ id: v.pipe(v.string(), v.uuid()), took: v.string() }));
  assert.match(String(schema.$schema), /draft-07/);
  const ajv = newAjv(true, {});
  const theirs = ajv.compile({ ...schema, $schema: undefined });
  const ours = compileJsonSchema(schema);
  for (const value of [{ id: '2024-13-45', took: 'x' }, { id: '0b6f9c1e-8d44-4bd6-9a0e-6f0f1f8e3d1a', took: 'x' }]) {
    assert.equal(ours.validate(value).valid, theirs(value), JSON.stringify(value));
    assert.equal(ours.validateJson(JSON.stringify(value)).valid, theirs(value), JSON.stringify(value));
  }
  assert.equal(ours.validate({ id: '2024-13-45', took: 'x' }).issues[0].keyword, 'format');
  ours.free();
  const duration = compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', format: 'duration' });
  assert.deepEqual([duration.validate('P3D').valid, duration.validate('3 days').valid], [true, false]);
  duration.free();
});

test('isValidJson answers the verdict alone, the same as validateJson, without collecting issues', () => {
  const v = compileJsonSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 1 }, e: { type: 'string', format: 'email' } }, required: ['n'] });
  for (const text of ['{"n": 0}', '{"n": 5}', '[', '{}', '{"n": 2, "e": "x"}', '{"n": 2, "e": "a@example.com"}', '"str"']) {
    assert.equal(v.isValidJson(text), v.validateJson(text).valid, text);
  }
  // Issues read after free() are still there: validateJson collects them at once.
  const result = v.validateJson('{"n": 0}');
  v.free();
  assert.deepEqual(result.issues.map((i) => [i.keyword, i.instancePath]), [['minimum', '/n']]);
  assert.throws(() => v.isValidJson('{}'), { name: 'UserError', message: 'This validator was freed.' });
  assert.throws(() => compileJsonSchema({}).isValidJson(5), { name: 'TypeError', message: /isValidJson: text must be a string/ });
});

test('issues cross whole: messages, paths and keywords with NULs, quotes and non-ASCII; several issues; malformed text keeps its position', () => {
  const v = compileJsonSchema({ type: 'object', additionalProperties: { type: 'string' }, required: ['need'] });
  const text = JSON.stringify({ 'a\u0000b': 1, 'é"/~': 2 });
  const viaText = v.validateJson(text);
  const viaValue = v.validate(JSON.parse(text));
  assert.deepEqual(viaText, viaValue);
  assert.equal(viaText.valid, false);
  assert.deepEqual(viaText.issues.map((i) => [i.keyword, i.instancePath]).sort(), [['required', ''], ['type', '/a\u0000b'], ['type', '/é"~1~0']]);
  for (const issue of viaText.issues) {
    assert.deepEqual(Object.keys(issue), ['message', 'instancePath', 'schemaPath', 'keyword']);
    assert.equal(typeof issue.message, 'string');
    assert.ok(issue.message.length > 0);
  }
  // Without a NUL anywhere: the same fields.
  const plain = v.validateJson('{"x": 1}');
  assert.deepEqual(plain.issues.map((i) => [i.keyword, i.instancePath, i.schemaPath]).sort(), [['required', '', '/required'], ['type', '/x', '/additionalProperties/type']]);
  assert.match(plain.issues.find((i) => i.keyword === 'type').message, /1 is not of type "string"/);
  const broken = v.validateJson('{"x": ');
  assert.equal(broken.issues[0].keyword, 'json');
  assert.equal(typeof broken.issues[0].position.offset, 'number');
});

test("validateJson(text, { issues: 'first' }) answers one issue of the full list, and checks its options", async () => {
  const { tools } = await import('../bench/tools.mjs');
  let written = 0;
  for (const tool of tools) {
    const v = compileJsonSchema(tool.schema);
    for (const value of [...tool.valid, ...tool.invalid]) {
      const text = JSON.stringify(value);
      const all = v.validateJson(text);
      const first = v.validateJson(text, { issues: 'first' });
      assert.equal(first.valid, all.valid, text);
      assert.equal(first.issues.length, all.valid ? 0 : 1, text);
      if (!all.valid) {
        assert.ok(all.issues.some((i) => JSON.stringify(i) === JSON.stringify(first.issues[0])), `${text}: ${JSON.stringify(first.issues[0])}`);
        written++;
      }
    }
    assert.deepEqual(v.validateJson('{"a":', { issues: 'first' }), v.validateJson('{"a":'));
    assert.deepEqual(v.validateJson('{}', { issues: 'all' }), v.validateJson('{}'));
    v.free();
  }
  assert.ok(written >= 20);
  const v = compileJsonSchema({ type: 'string' });
  assert.throws(() => v.validateJson('1', { issue: 'first' }), { name: 'TypeError', message: /validateJson: unknown option `issue`; the option is `issues`/ });
  assert.throws(() => v.validateJson('1', { issues: 'some' }), { name: 'TypeError', message: /option `issues` must be 'all' or 'first', got "some"/ });
  assert.throws(() => v.validateJson('1', 'first'), { name: 'TypeError', message: /validateJson: options must be an object/ });
  assert.deepEqual(v.validateJson('1', null), v.validateJson('1'));
});

test("validateJson's first issue is one of the full list, with unevaluatedProperties and unevaluatedItems too", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const schemas = [
    { unevaluatedProperties: { type: 'string', minLength: 3 } },
    { propertyNames: { maxLength: 0 }, unevaluatedProperties: { type: 'number' } },
    { properties: { a: { type: 'string' } }, unevaluatedProperties: { type: 'integer', maximum: 2 } },
    { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
    { prefixItems: [{ type: 'string' }], unevaluatedItems: { type: 'string', minLength: 3 } },
    { unevaluatedItems: { type: 'number' } },
  ];
  const texts = ['{"foo":"fo"}', '{"foo":"food"}', '{"a":"b"}', '{"a":"x","b":3}', '{"a":"x","b":1}', '{"a":1,"b":[]}', '["x","fo"]', '["x","food"]', '[1,"a"]', '{}', '[]', '"s"'];
  for (const schema of schemas) {
    const validator = compileJsonSchema(schema);
    const check = ajv.compile(schema);
    for (const text of texts) {
      const all = validator.validateJson(text);
      const first = validator.validateJson(text, { issues: 'first' });
      assert.equal(all.valid, check(JSON.parse(text)), `${JSON.stringify(schema)} ${text}: the verdict is ajv's`);
      assert.equal(first.valid, all.valid);
      if (!all.valid) {
        assert.equal(first.issues.length, 1);
        const key = (i) => `${i.keyword} ${i.schemaPath} ${i.instancePath} ${i.message}`;
        assert.ok(all.issues.map(key).includes(key(first.issues[0])), `${JSON.stringify(schema)} ${text}: ${key(first.issues[0])} not in ${all.issues.map(key).join(' | ')}`);
      }
    }
    validator.free();
  }
});

test('compileJsonSchema resolves non-local $refs to the resources given, and fetches nothing', () => {
  const schema = { type: 'object', properties: { item: { $ref: 'https://example.com/item.json' }, tag: { $ref: 'https://example.com/defs.json#/$defs/tag' } }, required: ['item'] };
  const resources = {
    'https://example.com/item.json': { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] },
    'https://example.com/defs.json': { $defs: { tag: { type: 'string', maxLength: 3 } } },
  };
  const validator = compileJsonSchema(schema, { resources });
  assert.equal(validator.validateJson('{"item":{"qty":2},"tag":"abc"}').valid, true);
  const report = validator.validateJson('{"item":{"qty":0},"tag":"abcd"}');
  assert.deepEqual(report.issues.map((i) => i.keyword).sort(), ['maxLength', 'minimum']);
  assert.equal(validator.validate({ item: { qty: 0 } }).valid, false);
  assert.equal(validator.validateJson('{"item":{"qty":0}}', { issues: 'first' }).issues[0].keyword, 'minimum');
  validator.free();
  // A reference to a URI not given is an invalid schema, not a fetch.
  assert.throws(() => compileJsonSchema(schema, { resources: { 'https://example.com/item.json': resources['https://example.com/item.json'] } }), InvalidJsonSchemaError);
  assert.throws(() => compileJsonSchema(schema), InvalidJsonSchemaError);
  // The same schema with other resources is compiled anew.
  const other = compileJsonSchema(schema, { resources: { ...resources, 'https://example.com/item.json': { type: 'object' } } });
  assert.equal(other.validateJson('{"item":{"qty":0}}').valid, true);
  other.free();
  assert.throws(() => compileJsonSchema(schema, { resources: [] }), { name: 'UserError', message: /option `resources` must be an object of JSON Schemas by URI/ });
  assert.throws(() => compileJsonSchema(schema, { resources: { a: 5 } }), { name: 'UserError', message: /`a` must be a JSON Schema/ });
  assert.throws(() => compileJsonSchema(schema, { resource: {} }), { name: 'UserError', message: 'compileJsonSchema has no option `resource`; its options are `formats` and `resources`.' });
});
