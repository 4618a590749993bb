// Short model replies as a streaming app meets them: 10,000 replies of about 450 bytes for four
// realistic output schemas, half clean (the JSON alone, compact or indented) and half broken
// (fenced and chatty, trailing commas, single quotes, Python literals, unquoted keys, comments,
// cut off at the end). Written from a seeded generator, not from the parser's own corpus.
// `compileStructuredParser(schema).parse` against jsonrepair + JSON.parse, in one process.
import { jsonrepair } from 'jsonrepair';
import { compileStructuredParser } from '@understudy/agents';
import { compare } from './lib.mjs';

/** mulberry32: the same corpus on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261204);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const words = 'the customer reports that checkout fails after updating payment details and the order page shows an error about an expired session while support already asked for logs from the mobile app version'.split(' ');
const sentence = (n) => Array.from({ length: n }, () => pick(words)).join(' ');

const schemas = {
  triage: {
    type: 'object',
    properties: {
      category: { enum: ['billing', 'bug', 'account', 'feature_request', 'other'] },
      priority: { enum: ['low', 'medium', 'high', 'urgent'] },
      summary: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      needs_human: { type: 'boolean' },
      confidence: { type: 'number' },
    },
    required: ['category', 'priority', 'summary', 'tags', 'needs_human', 'confidence'],
    additionalProperties: false,
  },
  contact: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      email: { type: 'string' },
      phone: { type: ['string', 'null'] },
      company: { type: 'string' },
      role: { type: 'string' },
      notes: { type: 'string' },
    },
    required: ['name', 'email', 'phone', 'company', 'role', 'notes'],
    additionalProperties: false,
  },
  order: {
    type: 'object',
    properties: {
      order_id: { type: 'string' },
      items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' }, price: { type: 'number' } }, required: ['sku', 'qty', 'price'], additionalProperties: false } },
      total: { type: 'number' },
      currency: { enum: ['USD', 'EUR', 'GBP'] },
      notes: { type: ['string', 'null'] },
    },
    required: ['order_id', 'items', 'total', 'currency', 'notes'],
    additionalProperties: false,
  },
  forecast: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'array', items: { type: 'object', properties: { date: { type: 'string' }, high: { type: 'number' }, low: { type: 'number' }, summary: { type: 'string' } }, required: ['date', 'high', 'low', 'summary'], additionalProperties: false } },
      units: { enum: ['metric', 'imperial'] },
    },
    required: ['city', 'days', 'units'],
    additionalProperties: false,
  },
};

const values = {
  triage: () => ({ category: pick(['billing', 'bug', 'account', 'feature_request', 'other']), priority: pick(['low', 'medium', 'high', 'urgent']), summary: sentence(int(34, 50)), tags: Array.from({ length: int(3, 6) }, () => pick(words)), needs_human: rand() < 0.5, confidence: Math.round(rand() * 100) / 100 }),
  contact: () => ({ name: `${pick(['Ann', 'Bo', 'Chen', 'Dara', 'Eli'])} ${pick(['Lee', 'Okafor', 'Silva', 'Novak'])}`, email: `${pick(words)}.${int(1, 99)}@example.com`, phone: rand() < 0.3 ? null : `+1 555 ${int(100, 999)} ${int(1000, 9999)}`, company: `${pick(words)} ${pick(['Inc', 'GmbH', 'Ltd'])}`, role: pick(['CTO', 'support lead', 'buyer', 'engineer']), notes: sentence(int(32, 46)) }),
  order: () => {
    const items = Array.from({ length: int(3, 5) }, () => ({ sku: `SKU-${int(1000, 9999)}`, qty: int(1, 9), price: int(100, 9999) / 100 }));
    return { order_id: `ORD-${int(10000, 99999)}`, items, total: Math.round(items.reduce((n, i) => n + i.qty * i.price, 0) * 100) / 100, currency: pick(['USD', 'EUR', 'GBP']), notes: rand() < 0.4 ? null : sentence(int(14, 28)) };
  },
  forecast: () => ({ city: pick(['Tokyo', 'Lagos', 'Lima', 'Oslo', 'Pune']), days: Array.from({ length: int(3, 5) }, (_, d) => ({ date: `2026-12-0${d + 1}`, high: int(-5, 35), low: int(-15, 20), summary: sentence(int(6, 12)) })), units: pick(['metric', 'imperial']) }),
};

/** The clean forms: the JSON alone. */
const clean = [(v) => JSON.stringify(v), (v) => JSON.stringify(v, null, 2)];

/** The broken forms, each a way models break JSON. */
const broken = [
  (v) => `Sure! Here is the result:\n\n\`\`\`json\n${JSON.stringify(v, null, 2)}\n\`\`\`\n\nLet me know if you need anything else.`,
  (v) => JSON.stringify(v, null, 2).replace(/\n(\s*)([}\]])/g, ',\n$1$2'),
  (v) => JSON.stringify(v).replace(/"/g, "'"),
  (v) => JSON.stringify(v).replace(/:true/g, ':True').replace(/:false/g, ':False').replace(/:null/g, ':None'),
  (v) => JSON.stringify(v, null, 2).replace(/"([a-z_]+)":/g, '$1:'),
  (v) => `// extracted\n${JSON.stringify(v, null, 2).replace(/,\n/, ', // first field\n')}`,
  (v) => {
    const text = JSON.stringify(v);
    return text.slice(0, Math.floor(text.length * (0.8 + rand() * 0.15)));
  },
  (v) => `Here you go: ${JSON.stringify(v)} Hope this helps!`,
];

const names = Object.keys(schemas);
const corpus = Array.from({ length: 10_000 }, (_, i) => {
  const name = names[i % names.length];
  const v = values[name]();
  const text = i % 2 === 0 ? pick(clean)(v) : pick(broken)(v);
  return { name, text };
});
const parsers = Object.fromEntries(names.map((n) => [n, compileStructuredParser(schemas[n])]));

export function run() {
  const bytes = corpus.reduce((n, r) => n + Buffer.byteLength(r.text), 0);
  let jsonrepairWrong = 0;
  for (const { text } of corpus) {
    try {
      JSON.parse(jsonrepair(text));
    } catch {
      jsonrepairWrong++;
    }
  }
  let oursFailed = 0;
  for (const { name, text } of corpus) {
    try {
      parsers[name].parse(text);
    } catch {
      oursFailed++;
    }
  }
  // Both get every reply; a failure costs what it costs (an exception).
  const contenders = {
    ours: () => {
      for (const { name, text } of corpus) {
        try {
          parsers[name].parse(text);
        } catch {}
      }
    },
    jsonrepair: () => {
      for (const { text } of corpus) {
        try {
          JSON.parse(jsonrepair(text));
        } catch {}
      }
    },
  };
  const ops = compare(contenders, { ms: 400, warmup: 100, rounds: 7 });
  return { replies: corpus.length, meanBytes: bytes / corpus.length, ours: (ops.ours * bytes) / (1 << 20), jsonrepair: (ops.jsonrepair * bytes) / (1 << 20), jsonrepairThrew: jsonrepairWrong, oursThrew: oursFailed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = run();
  console.log(`${r.replies} replies, ${r.meanBytes.toFixed(0)} bytes on average; threw: ours ${r.oursThrew}, jsonrepair + JSON.parse ${r.jsonrepairThrew}`);
  console.log(`compileStructuredParser(schema).parse ${r.ours.toFixed(1)} MB/s, jsonrepair + JSON.parse ${r.jsonrepair.toFixed(1)} MB/s, ratio ${(r.ours / r.jsonrepair).toFixed(2)}x`);
}
