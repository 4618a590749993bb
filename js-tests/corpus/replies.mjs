// A labelled set of model replies for schema-aligned parsing, by category. Each entry: the
// reply text, the schema, and the value a careful reader takes from it (or `error: true` where
// no reading fits). Built from templates over a few realistic payloads, so every category has
// many instances; truncation labels come from the small independent oracle below, not from
// the parser under test.

const ticket = {
  schema: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      priority: { enum: ['low', 'medium', 'high'] },
      estimate: { type: 'integer' },
      done: { type: 'boolean' },
      labels: { type: 'array', items: { type: 'string' } },
    },
    required: ['title', 'priority'],
    additionalProperties: false,
  },
  values: [
    { title: 'Fix login', priority: 'high', estimate: 3, done: false, labels: ['auth', 'web'] },
    { title: 'Write docs', priority: 'low', estimate: 8, done: true, labels: ['docs'] },
    { title: 'Cache "hot" paths', priority: 'medium', estimate: 5, done: false, labels: [] },
  ],
};

const person = {
  schema: {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' }, email: { type: ['string', 'null'] } },
    required: ['name', 'age', 'email'],
  },
  values: [
    { name: 'Ada Lovelace', age: 36, email: 'ada@example.com' },
    { name: "Seo-yeon O'Neil", age: 29, email: null },
    { name: '佐藤 花子', age: 41, email: 'hanako@example.jp' },
  ],
};

const payloads = [ticket, person];

/** Writes a value in a model's loose style (`style` picks the quirks). */
function loose(value, style) {
  const key = (k) => (style.unquotedKeys && /^[A-Za-z_$][\w$-]*$/.test(k) ? k : style.single ? `'${k}'` : `"${k}"`);
  const str = (s) => (style.single ? `'${s.replace(/'/g, "\\'")}'` : style.curly ? `“${s}”` : JSON.stringify(s));
  const write = (v) => {
    if (v === null) return style.python ? 'None' : 'null';
    if (v === true) return style.python ? 'True' : 'true';
    if (v === false) return style.python ? 'False' : 'false';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return `[${v.map(write).join(', ')}${style.trailing && v.length ? ',' : ''}]`;
    const entries = Object.entries(v).map(([k, x]) => `${style.comments ? '\n  // field\n  ' : ''}${key(k)}: ${write(x)}`);
    return `{${entries.join(', ')}${style.trailing ? ',' : ''}}`;
  };
  return write(value);
}

const prose = [
  ['Sure! Here is the result:\n', '\nLet me know if you need anything else.'],
  ['Based on the ticket (see [1]), I extracted: ', ' — hope that helps :)'],
  ["Here's what I found. Note: values may be approximate.\n\n", ''],
  ['<answer>', '</answer>'],
  ['Result => ', " (don't worry, it's valid)"],
];

export function replies() {
  const out = [];
  const add = (category, text, schema, expected, extra = {}) => out.push({ category, text, schema, expected, ...extra });
  for (const { schema, values } of payloads) {
    for (const value of values) {
      const json = JSON.stringify(value);
      add('clean', json, schema, value);
      add('clean', JSON.stringify(value, null, 2), schema, value);
      add('fenced', '```json\n' + JSON.stringify(value, null, 2) + '\n```', schema, value);
      add('fenced', '```\n' + json + '\n```', schema, value);
      add('fenced', 'Here you go:\n```json\n' + json, schema, value); // closing fence missing
      add('fenced', '```JSON\n' + json + '\n```\n\nThe fields above are complete.', schema, value);
      for (const [before, after] of prose) add('prose', before + json + after, schema, value);
      add('trailing commas', loose(value, { trailing: true }), schema, value);
      add('trailing commas', '```json\n' + loose(value, { trailing: true }) + '\n```', schema, value);
      add('comments', loose(value, { comments: true }), schema, value);
      add('comments', `/* generated */ ${json} # end`, schema, value);
      add('quotes', loose(value, { single: true }), schema, value);
      add('quotes', loose(value, { curly: true }), schema, value);
      add('unquoted keys', loose(value, { unquotedKeys: true }), schema, value);
      add('unquoted keys', loose(value, { unquotedKeys: true, trailing: true }), schema, value);
      add('python literals', loose(value, { python: true }), schema, value);
      add('python literals', loose(value, { python: true, single: true, trailing: true }), schema, value);
    }
  }
  // Strings (rule 5).
  const note = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  for (const [raw, want] of [
    ['{"text": "line one\nline two"}', 'line one\nline two'],
    ['{"text": "tab\there"}', 'tab\there'],
    ['{"text": "He said "hi" to me"}', 'He said "hi" to me'],
    ['{"text": "match \\d+ digits"}', 'match \\d+ digits'],
    ['{"text": "C:\\Users\\ada"}', 'C:\\Users\\ada'],
    ["{'text': 'O'Brien'}", "O'Brien"],
    ['{"text": "café \\u00e9"}', 'café é'],
    ['{"text": """multi\n"quoted"\nblock"""}', 'multi\n"quoted"\nblock'],
    ['{"text": "emoji 😀 and 한국어"}', 'emoji 😀 and 한국어'],
    ['{"text": "ends with backslash \\\\"}', 'ends with backslash \\'],
  ]) {
    add('strings', raw, note, { text: want });
    add('strings', 'Output:\n```json\n' + raw + '\n```', note, { text: want });
  }
  // Numbers and booleans (rule 6).
  const money = { type: 'object', properties: { amount: { type: 'number' }, count: { type: 'integer' }, paid: { type: 'boolean' }, code: { type: 'string' } } };
  for (const [raw, want] of [
    ['{"amount": "$1,234.50"}', { amount: 1234.5 }],
    ['{"amount": " 12.5 "}', { amount: 12.5 }],
    ['{"amount": "-3e2"}', { amount: -300 }],
    ['{"count": "42"}', { count: 42 }],
    ['{"count": 3.0}', { count: 3 }],
    ['{"count": 1e3}', { count: 1000 }],
    ['{"count": "1,000"}', { count: 1000 }],
    ['{"paid": "true"}', { paid: true }],
    ['{"paid": "False"}', { paid: false }],
    ['{"paid": "TRUE"}', { paid: true }],
    ['{"code": 12345678901234567890}', { code: '12345678901234567890' }],
    ['{"code": 7}', { code: '7' }],
    ['{"code": true}', { code: 'true' }],
  ]) {
    add('numbers and booleans', raw, money, want);
    add('numbers and booleans', 'Here:\n' + raw, money, want);
  }
  // Wrapping (rule 7).
  const wrap = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' }, flag: { type: 'boolean' } } };
  for (const [raw, want] of [
    ['{"tags": "solo"}', { tags: ['solo'] }],
    ['{"tags": ["a", "b"]}', { tags: ['a', 'b'] }],
    ['{"n": [7]}', { n: 7 }],
    ['{"flag": [true]}', { flag: true }],
    ['{"tags": "x", "n": ["2"]}', { tags: ['x'], n: 2 }],
  ]) {
    add('wrapping', raw, wrap, want);
    add('wrapping', '```json\n' + raw + '\n```', wrap, want);
  }
  const list = { type: 'object', properties: { items: { type: 'array', items: { type: 'integer' } } }, required: ['items'] };
  add('wrapping', '[1, 2, 3]', list, { items: [1, 2, 3] });
  add('wrapping', 'The ids: [4, 5]', list, { items: [4, 5] });
  // Enums (rule 8).
  const level = { type: 'object', properties: { level: { enum: ['low', 'in_progress', 'GREEN'] }, n: { enum: [1, 2, 3] } } };
  for (const [raw, want] of [
    ['{"level": "LOW"}', { level: 'low' }],
    ['{"level": " low "}', { level: 'low' }],
    ['{"level": "low."}', { level: 'low' }],
    ['{"level": "IN_PROGRESS"}', { level: 'in_progress' }],
    ['{"level": "green"}', { level: 'GREEN' }],
    ['{"n": "2"}', { n: 2 }],
  ]) {
    add('enums', raw, level, want);
    add('enums', 'Answer: ' + raw, level, want);
  }
  const sentiment = { enum: ['POSITIVE', 'NEGATIVE', 'NEUTRAL'] };
  for (const [raw, want] of [['Sentiment: NEGATIVE', 'NEGATIVE'], ['**neutral**', 'NEUTRAL'], ['I would say positive overall.', 'POSITIVE'], ['"POSITIVE"', 'POSITIVE']]) {
    add('enums', raw, sentiment, want);
  }
  // Objects (rule 10).
  const profile = { type: 'object', properties: { id: { type: 'string' }, nick: { type: 'string' }, bio: { type: ['string', 'null'] } }, required: ['id', 'bio'], additionalProperties: false };
  for (const [raw, want] of [
    ['{"id": "u1", "bio": "x", "extra": 1}', { id: 'u1', bio: 'x' }],
    ['{"id": "u1"}', { id: 'u1', bio: null }],
    ['{"id": "u1", "nick": null, "bio": null}', { id: 'u1', bio: null }],
    ['{"id": "u1", "nick": "n", "bio": "b", "a": 1, "b": 2}', { id: 'u1', nick: 'n', bio: 'b' }],
  ]) {
    add('objects', raw, profile, want);
    add('objects', 'JSON: ' + raw, profile, want);
  }
  // Unions (rule 9).
  const union = { type: 'object', properties: { v: { type: ['integer', 'string'] }, w: { anyOf: [{ type: 'boolean' }, { type: 'string' }] }, x: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] } } };
  for (const [raw, want] of [
    ['{"v": "5"}', { v: '5' }],
    ['{"v": 5}', { v: 5 }],
    ['{"w": "true"}', { w: 'true' }],
    ['{"x": "x"}', { x: 'x' }],
    ['{"x": ["a"]}', { x: ['a'] }],
  ]) add('unions', raw, union, want);
  // Several values (rules 2, 3).
  const point = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] };
  add('several values', 'Example: {"a": 1}. Answer: {"x": 1, "y": 2}', point, { x: 1, y: 2 });
  add('several values', '```json\n{"x": 0, "y": 0}\n```\nCorrected:\n```json\n{"x": 3, "y": 4}\n```', point, { x: 3, y: 4 });
  add('several values', '{"x": 1, "y": 2}\n{"x": 3, "y": 4}', { type: 'array', items: point }, [{ x: 1, y: 2 }, { x: 3, y: 4 }]);
  add('several values', '{"x": 1, "y": 2} or maybe {"x": 5, "y": 6}', point, undefined, { error: true });
  // Refusals and irreparable replies (rule 11).
  for (const [raw, schema] of [
    ["I'm sorry, but I can't help with that request.", ticket.schema],
    ['', ticket.schema],
    ['   \n  ', ticket.schema],
    ['The title is Fix login and it is urgent.', ticket.schema],
    ['null', ticket.schema],
    ['{"title": "x", "priority": "critical"}', ticket.schema],
    ['{"title": "x"}', ticket.schema],
    ['{"count": "unknown"}', money],
    ['{"paid": "maybe"}', money],
    ['It could be positive or negative.', sentiment],
    ['The answer is 4 or 5.', { type: 'integer' }],
  ]) add('refusals', raw, schema, undefined, { error: true });
  // Truncation (rules 12-17): prefixes of clean replies, labelled by the oracle.
  for (const { schema, values } of payloads) {
    for (const value of values) {
      const text = JSON.stringify(value);
      for (let cut = 1; cut < text.length; cut += Math.max(1, Math.floor(text.length / 12))) {
        add('truncation', text.slice(0, cut), schema, truncated(text.slice(0, cut), schema), { partial: true });
      }
    }
  }
  return out;
}

/**
 * Independent oracle for the truncation rules over flat objects of strings, numbers, booleans,
 * null and arrays of strings, written as `JSON.stringify` writes them (no spaces).
 */
export function truncated(prefix, schema) {
  const out = {};
  let i = 1; // after `{`
  while (i < prefix.length) {
    if (prefix[i] === ',') i++;
    if (prefix[i] !== '"') break;
    const keyEnd = prefix.indexOf('"', i + 1);
    if (keyEnd < 0 || prefix[keyEnd + 1] !== ':' || keyEnd + 2 >= prefix.length) break; // rule 15
    const key = prefix.slice(i + 1, keyEnd);
    const prop = schema.properties?.[key] ?? {};
    let j = keyEnd + 2;
    const c = prefix[j];
    if (c === '"') {
      const end = endOfString(prefix, j);
      const cutInside = end < 0;
      const raw = cutInside ? prefix.slice(j) : prefix.slice(j, end + 1);
      if (cutInside) {
        if (prop.enum) break; // rule 14 exception
        out[key] = JSON.parse(`${raw.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '')}"`); // rule 14
        break;
      }
      out[key] = JSON.parse(raw);
      i = end + 1;
    } else if (c === '[') {
      const end = prefix.indexOf(']', j);
      if (end < 0) {
        // rule 12/13: complete elements kept, an unfinished string element kept as a prefix
        const items = [];
        let k = j + 1;
        while (k < prefix.length) {
          if (prefix[k] === ',') k++;
          if (prefix[k] !== '"') break;
          const e = endOfString(prefix, k);
          if (e < 0) {
            items.push(JSON.parse(`${prefix.slice(k).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '')}"`));
            break;
          }
          items.push(JSON.parse(prefix.slice(k, e + 1)));
          k = e + 1;
        }
        out[key] = items;
        break;
      }
      out[key] = JSON.parse(prefix.slice(j, end + 1));
      i = end + 1;
    } else {
      let k = j;
      while (k < prefix.length && !',}'.includes(prefix[k])) k++;
      const token = prefix.slice(j, k);
      // rule 16: a number that runs into the cut is dropped; a complete literal is kept
      if (k >= prefix.length && !['true', 'false', 'null'].includes(token)) break;
      out[key] = JSON.parse(token);
      i = k;
    }
    if (prefix[i] === '}') break;
  }
  return out;
}

function endOfString(text, start) {
  for (let k = start + 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') return k;
  }
  return -1;
}
