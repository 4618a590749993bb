// The streamed repair's cost against the output's length: a 256 KB JSON output (an array of
// issue records from a seeded generator, clean, and with a broken last record) through
// `repairingMiddleware`'s `wrapStream` in 8-character deltas and in one delta, and through
// `partialOutput` the same way. The middleware's own time is the piped stream's minus the same
// parts through a pass-through stream; `partialOutput`'s is its whole run over the deltas.
//
//   node bench/stream-repair.mjs [kib]
import { partialOutput, repairingMiddleware } from '@understudy/agents';

const KIB = Number(process.argv[2] ?? 256);

/** A seeded generator (mulberry32): the same records on every run, not tuned on. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const words = 'login token session cache retry timeout header cookie deploy build queue worker index schema parser stream buffer socket proxy route'.split(' ');

const schema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      title: { type: 'string' },
      state: { enum: ['open', 'closed'] },
      labels: { type: 'array', items: { type: 'string' } },
      assignee: { anyOf: [{ type: 'null' }, { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' } }, required: ['login', 'id'], additionalProperties: false }] },
      comments: { type: 'integer' },
      created_at: { type: 'string', format: 'date-time' },
      body: { type: 'string' },
    },
    required: ['id', 'title', 'state', 'labels', 'assignee', 'comments', 'created_at', 'body'],
    additionalProperties: false,
  },
};

function records(bytes) {
  const next = random(7);
  const pick = () => words[Math.floor(next() * words.length)];
  const sentence = (n) => Array.from({ length: n }, pick).join(' ');
  const out = [];
  let size = 2;
  for (let id = 1; size < bytes; id++) {
    const record = {
      id,
      title: `Fix ${sentence(3 + Math.floor(next() * 5))}`,
      state: next() < 0.7 ? 'open' : 'closed',
      labels: Array.from({ length: Math.floor(next() * 4) }, pick),
      assignee: next() < 0.4 ? null : { login: `${pick()}-${Math.floor(next() * 1000)}`, id: Math.floor(next() * 1e6) },
      comments: Math.floor(next() * 40),
      created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 3e10)).toISOString(),
      body: `${sentence(10 + Math.floor(next() * 30))}.`,
    };
    out.push(record);
    size += JSON.stringify(record, null, 1).length + 2;
  }
  return out;
}

const list = records(KIB * 1024);
const clean = JSON.stringify(list, null, 1);
// The last record written as models break JSON: single quotes, a string for a number, a
// trailing comma.
const last = list.at(-1);
const broken = `${JSON.stringify(list.slice(0, -1), null, 1).slice(0, -1)},\n {'id': '${last.id}', 'title': '${last.title}', 'state': 'open', 'labels': [], 'assignee': null, 'comments': 2, 'created_at': '${last.created_at}', 'body': 'cut here',}\n]`;

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const parts = (text, size) => {
  const out = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }];
  for (let i = 0; i < text.length; i += size) out.push({ type: 'text-delta', id: 't', delta: text.slice(i, i + size) });
  out.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
  return out;
};
const params = { prompt: [], responseFormat: { type: 'json', schema } };

/** Milliseconds to pipe `chunks` through the middleware (or a pass-through) and read it all. */
async function pipe(chunks, middleware) {
  // Pulled one part at a time, as a network stream arrives (a queue of every part up front
  // would cost Node's stream queue a shift of the whole queue per read).
  const stream = () => {
    let i = 0;
    return new ReadableStream({
      pull(c) {
        if (i < chunks.length) c.enqueue(chunks[i++]);
        else c.close();
      },
    });
  };
  const start = performance.now();
  const result = middleware === undefined
    ? { stream: stream().pipeThrough(new TransformStream()) }
    : await middleware.wrapStream({ doStream: async () => ({ stream: stream() }), params });
  const reader = result.stream.getReader();
  let text = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) if (r.value.type === 'text-delta') text += r.value.delta;
  const ms = performance.now() - start;
  return { ms, text };
}

async function middlewareMs(text, size) {
  const chunks = parts(text, size);
  const samples = [];
  let out;
  for (let i = 0; i < 5; i++) {
    const bare = await pipe(chunks);
    const ours = await pipe(chunks, repairingMiddleware());
    out = ours.text;
    samples.push(ours.ms - bare.ms);
  }
  return { ms: samples.sort((a, b) => a - b)[2], text: out };
}

async function partialMs(text, size) {
  const samples = [];
  let yields = 0;
  for (let i = 0; i < 3; i++) {
    const deltas = (async function* () {
      for (let j = 0; j < text.length; j += size) yield text.slice(j, j + size);
    })();
    const start = performance.now();
    yields = 0;
    for await (const _ of partialOutput(deltas, schema)) yields++;
    samples.push(performance.now() - start);
  }
  return { ms: samples.sort((a, b) => a - b)[1], yields };
}

console.log(`${(clean.length / 1024).toFixed(0)} KiB clean, ${(broken.length / 1024).toFixed(0)} KiB with a broken tail, ${list.length} records\n`);
// One long string value (an article's body): read on from where each delta stopped inside it.
const article = JSON.stringify({ title: 'Streaming', body: `${Array.from({ length: 400 }, (_, i) => `${words[i % words.length]} ${words[(i * 7) % words.length]}`).join(' ')}. `.repeat(20) });
const articleSchema = { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } }, required: ['title', 'body'] };
for (const [name, text, s] of [['clean', clean, schema], ['broken tail', broken, schema], [`one ${(article.length / 1024).toFixed(0)} KiB string`, article, articleSchema]]) {
  params.responseFormat.schema = s;
  const whole = await middlewareMs(text, text.length);
  const streamed = await middlewareMs(text, 8);
  if (streamed.text !== whole.text) throw new Error(`${name}: the streamed text differs from the one-delta text`);
  console.log(`repairingMiddleware, ${name}: 8-character deltas ${streamed.ms.toFixed(1)} ms, one delta ${whole.ms.toFixed(1)} ms: ${(streamed.ms / whole.ms).toFixed(2)}×`);
}
// partialOutput builds a whole value per change: a smaller output.
const small = Math.min(KIB, 32);
const piece = JSON.stringify(records(small * 1024), null, 1);
for (const [name, text] of [[`${small} KiB`, piece]]) {
  const whole = await partialMs(text, text.length);
  const streamed = await partialMs(text, 8);
  console.log(`partialOutput, ${name}: 8-character deltas ${streamed.ms.toFixed(1)} ms (${streamed.yields} values), one delta ${whole.ms.toFixed(1)} ms: ${(streamed.ms / whole.ms).toFixed(1)}×`);
}
