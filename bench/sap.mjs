// Schema-aligned parsing throughput (MB/s) against jsonrepair (+ JSON.parse), partial-json and
// best-effort-json-parser, with plain JSON.parse on clean JSON as the floor, in one process.
import { parse as bestEffort } from 'best-effort-json-parser';
import { jsonrepair } from 'jsonrepair';
import { parse as partialJson } from 'partial-json';
import { compileStructuredParser, parseStructured } from '@understudy/agents';
import { compare } from './lib.mjs';

const record = (i) => ({ id: `item-${i}`, qty: i % 17, price: (i * 1.25) % 100, tags: ['a', 'b'], note: i % 3 ? null : 'fragile, handle "with" care' });
function clean(bytes) {
  const items = [];
  let text = '';
  for (let i = 0; text.length < bytes; i += 1) {
    items.push(record(i));
    if (i % 500 === 0) text = JSON.stringify({ items });
  }
  return JSON.stringify({ items });
}
const schema = {
  type: 'object',
  properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } }, note: { type: ['string', 'null'] } } } } },
};
const a = clean(1 << 20);
const b = `Sure! Here is the inventory you asked for:\n\n\`\`\`json\n${a.replace(/\]/g, ',]').replace(/\}/g, ',}').replace(/,\],/g, ',],').slice(0)}\n\`\`\`\n\nLet me know if you need anything else.`;
const short = Array.from({ length: 10_000 }, (_, i) => `Result:\n\`\`\`json\n{"id": "item-${i}", "qty": ${i % 9}, "tags": ["x",], }\n\`\`\``);
const shortSchema = { type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } };
const shortParser = compileStructuredParser(shortSchema);
const fenceBody = (t) => t.slice(t.indexOf('```json') + 8, t.lastIndexOf('```'));

export function run() {
  const rows = [];
  const sizeA = Buffer.byteLength(a);
  const sizeB = Buffer.byteLength(b);
  const sizeC = short.reduce((n, t) => n + Buffer.byteLength(t), 0);
  // Each competitor gets the easiest fair input: the libraries that cannot skip prose get
  // the fence body cut out for them (work SAP does itself).
  const cases = {
    '(a) 1 MB clean JSON': { bytes: sizeA, ours: () => parseStructured(a, schema), jsonrepair: () => JSON.parse(jsonrepair(a)), 'partial-json': () => partialJson(a), 'best-effort-json-parser': () => bestEffort(a), 'JSON.parse': () => JSON.parse(a) },
    '(b) 1 MB fenced reply with prose and trailing commas': { bytes: sizeB, ours: () => parseStructured(b, schema), jsonrepair: () => JSON.parse(jsonrepair(b)), 'best-effort-json-parser': () => bestEffort(fenceBody(b)) },
    '(c) 10k short fenced replies, compileStructuredParser': { bytes: sizeC, ours: () => { for (const t of short) shortParser.parse(t); }, jsonrepair: () => { for (const t of short) JSON.parse(jsonrepair(t)); } },
    '(c) 10k short fenced replies': { bytes: sizeC, ours: () => { for (const t of short) parseStructured(t, shortSchema); }, jsonrepair: () => { for (const t of short) JSON.parse(jsonrepair(t)); }, 'best-effort-json-parser': () => { for (const t of short) bestEffort(fenceBody(t)); } },
  };
  for (const [name, { bytes, ...fns }] of Object.entries(cases)) {
    const results = {};
    const working = {};
    for (const [who, fn] of Object.entries(fns)) {
      try {
        fn();
        working[who] = fn;
      } catch (error) {
        results[who] = `fails (${String(error.message ?? error).slice(0, 40)})`;
      }
    }
    // The contenders take turns (rounds, medians): this machine's speed drifts by tens of
    // percent over seconds, which one long run per contender reported as a ratio.
    const opsPerSecond = compare(working, { ms: 250, warmup: 50, rounds: bytes >= 1 << 20 ? 3 : 9 });
    for (const [who, ops] of Object.entries(opsPerSecond)) results[who] = (ops * bytes) / (1 << 20);
    rows.push({ name, results: Object.fromEntries(Object.keys(fns).map((who) => [who, results[who]])) });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { name, results } of run()) {
    const ours = results.ours;
    console.log(name);
    for (const [who, r] of Object.entries(results)) {
      console.log(`  ${who}: ${typeof r === 'number' ? `${r.toFixed(1)} MB/s${who === 'ours' ? '' : typeof ours === 'number' ? ` (ours ${(ours / r).toFixed(2)}x)` : ''}` : r}`);
    }
  }
}
