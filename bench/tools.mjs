// validateJson on tool schemas as agents carry them (written with Zod 4, Valibot and ArkType
// after real tools: a GitHub MCP server's issue tools, a filesystem server, Slack, a calendar,
// payments, search), formats and patterns included, against JSON.parse + ajv with ajv-formats,
// in one process. Payloads: valid arguments a model would send, and invalid ones (a wrong
// format, a pattern miss, a wrong type, a missing field, an extra key), reported separately.
// Neither the engine nor its fast path was tuned on these schemas.
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft7 from 'ajv';
import addFormats from 'ajv-formats';
import { toJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { compileJsonSchema } from '@understudy/agents';
import { compare, fmt } from './lib.mjs';

const zod = (s) => z.toJSONSchema(s, { io: 'input' });
export const tools = [
  {
    name: 'github.create_issue (Zod)',
    schema: zod(z.object({ owner: z.string().regex(/^[A-Za-z0-9-]{1,39}$/), repo: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/), title: z.string().min(1).max(256), body: z.string().optional(), labels: z.array(z.string()).max(10).optional(), assignees: z.array(z.string()).optional(), milestone: z.int().positive().optional() })),
    valid: [{ owner: 'octo-org', repo: 'agents.js', title: 'Login times out', body: 'Steps: …', labels: ['bug', 'auth'] }, { owner: 'a', repo: 'b', title: 'x', milestone: 3 }],
    invalid: [{ owner: 'octo org', repo: 'agents.js', title: 'x' }, { owner: 'a', repo: 'b', title: '' }, { owner: 'a', repo: 'b' }, { owner: 'a', repo: 'b', title: 'x', milestone: 0 }],
  },
  {
    name: 'github.list_issues (Zod)',
    schema: zod(z.object({ owner: z.string(), repo: z.string(), state: z.enum(['open', 'closed', 'all']).optional(), since: z.iso.datetime().optional(), per_page: z.int().min(1).max(100).optional(), page: z.int().positive().optional() })),
    valid: [{ owner: 'a', repo: 'b', state: 'open', since: '2026-11-01T00:00:00Z', per_page: 50 }],
    invalid: [{ owner: 'a', repo: 'b', since: 'last week' }, { owner: 'a', repo: 'b', state: 'OPEN' }, { owner: 'a', repo: 'b', per_page: 500 }],
  },
  {
    name: 'filesystem.read_file (hand-written MCP)',
    schema: { type: 'object', properties: { path: { type: 'string', description: 'Absolute path' }, head: { type: 'number' }, tail: { type: 'number' } }, required: ['path'], additionalProperties: false },
    valid: [{ path: '/home/user/notes.md' }, { path: '/var/log/app.log', tail: 100 }],
    invalid: [{ path: 42 }, { path: '/a', extra: true }, {}],
  },
  {
    name: 'slack.post_message (Valibot)',
    schema: toJsonSchema(v.object({ channel_id: v.pipe(v.string(), v.regex(/^[CDG][A-Z0-9]{8,10}$/)), text: v.pipe(v.string(), v.minLength(1), v.maxLength(4000)), thread_ts: v.optional(v.pipe(v.string(), v.regex(/^\d{10}\.\d{6}$/))) })),
    valid: [{ channel_id: 'C0123456789', text: 'Deploy finished ✅' }, { channel_id: 'D12345678', text: 'hi', thread_ts: '1733140000.123456' }],
    invalid: [{ channel_id: '#general', text: 'hi' }, { channel_id: 'C0123456789', text: '' }, { channel_id: 'C0123456789', text: 'hi', thread_ts: 'yesterday' }],
  },
  {
    name: 'calendar.create_event (Valibot)',
    schema: toJsonSchema(v.object({ summary: v.string(), start: v.pipe(v.string(), v.isoTimestamp()), end: v.pipe(v.string(), v.isoTimestamp()), attendees: v.optional(v.array(v.pipe(v.string(), v.email()))), event_id: v.optional(v.pipe(v.string(), v.uuid())) })),
    valid: [{ summary: 'Planning', start: '2026-12-03T09:00:00.000Z', end: '2026-12-03T10:00:00.000Z', attendees: ['ada@example.com', 'grace.hopper@navy.mil'] }],
    invalid: [{ summary: 'x', start: 'tomorrow 9am', end: '2026-12-03T10:00:00.000Z' }, { summary: 'x', start: '2026-12-03T09:00:00.000Z', end: '2026-12-03T10:00:00.000Z', attendees: ['not an email'] }, { summary: 'x', start: '2026-12-03T09:00:00.000Z', end: '2026-12-03T10:00:00.000Z', event_id: '2024-13-45' }],
  },
  {
    name: 'payments.refund (ArkType)',
    schema: type({ payment_id: /^pi_[A-Za-z0-9]{14,}$/, amount: 'number.integer > 0', 'reason?': "'duplicate' | 'fraudulent' | 'requested_by_customer'", 'metadata?': { 'order_id?': 'string' } }).toJsonSchema(),
    valid: [{ payment_id: 'pi_3NtKf2LkdIwHu7ix', amount: 1999, reason: 'duplicate' }],
    invalid: [{ payment_id: 'ch_123', amount: 1999 }, { payment_id: 'pi_3NtKf2LkdIwHu7ix', amount: -5 }, { payment_id: 'pi_3NtKf2LkdIwHu7ix', amount: 10, reason: 'other' }],
  },
  {
    name: 'web.fetch (ArkType)',
    schema: type({ url: /^https?:\/\/[^\s]+$/, 'method?': "'GET' | 'POST'", 'timeout_ms?': 'number.integer <= 60000', 'headers?': { '[string]': 'string' } }).toJsonSchema(),
    valid: [{ url: 'https://api.example.com/v1/items?page=2', method: 'GET' }],
    invalid: [{ url: 'not a url' }, { url: 'https://example.com', timeout_ms: 120000 }, { url: 'https://example.com', method: 'PUT' }],
  },
  {
    name: 'crm.upsert_contact (Zod)',
    schema: zod(z.object({ email: z.email(), phone: z.string().regex(/^\+?[0-9 ()-]{7,20}$/).optional(), name: z.string().min(1), company: z.string().optional(), ip: z.ipv4().optional(), id: z.uuid().optional(), birthday: z.iso.date().optional() })),
    valid: [{ email: 'ada@example.com', name: 'Ada Lovelace', phone: '+44 20 7946 0958', ip: '10.0.0.1', birthday: '1815-12-10' }, { email: 'g.hopper@example.org', name: 'Grace', id: '0b6f9c1e-8d44-4bd6-9a0e-6f0f1f8e3d1a' }],
    invalid: [{ email: 'ada@', name: 'Ada' }, { email: 'ada@example.com', name: 'Ada', ip: '10.0.0.256' }, { email: 'ada@example.com', name: 'Ada', birthday: '1815-13-10' }, { email: 'ada@example.com', name: '' }],
  },
];

const FIRST = { issues: 'first' };

function ajvFor(schema, allErrors = true) {
  const draft7 = String(schema.$schema ?? '').includes('draft-07');
  const Ajv = draft7 ? AjvDraft7.default : Ajv2020.default;
  return addFormats(new Ajv({ strict: false, allErrors })).compile(draft7 ? schema : { ...schema, $schema: undefined });
}

export function run() {
  const cases = [];
  for (const t of tools) {
    const ours = compileJsonSchema(t.schema);
    const ajv = ajvFor(t.schema);
    const first = ajvFor(t.schema, false);
    for (const [kind, list] of [['valid', t.valid], ['invalid', t.invalid]]) {
      for (const value of list) {
        const text = JSON.stringify(value);
        const theirs = ajv(JSON.parse(text));
        if (theirs !== (kind === 'valid') || ours.validateJson(text).valid !== theirs) throw new Error(`${t.name}: ${kind} payload ${text}: ajv ${theirs}, ours ${ours.validateJson(text).valid}`);
        cases.push({ kind, text, ours, ajv, first });
      }
    }
  }
  const rows = [];
  // Times ours against ajv in alternation and adds a row.
  const row = (what, ours, ajv) => {
    const r = compare({ ours, ajv }, { rounds: 7 });
    rows.push({ what, ours: r.ours, reference: r.ajv, ratio: r.ours / r.ajv });
  };
  for (const kind of ['valid', 'invalid', 'all']) {
    const list = cases.filter((c) => kind === 'all' || c.kind === kind);
    row(
      `validateJson, ${list.length} ${kind === 'all' ? '' : `${kind} `}payloads of ${tools.length} realistic tool schemas, vs JSON.parse + ajv + ajv-formats`,
      () => {
        for (const c of list) c.ours.validateJson(c.text);
      },
      () => {
        for (const c of list) c.ajv(JSON.parse(c.text));
      },
    );
  }
  // An invalid payload's issues, read: what a caller that reports them pays.
  const invalid = cases.filter((c) => c.kind === 'invalid');
  row(
    `validateJson with its issues read, ${invalid.length} invalid payloads, vs JSON.parse + ajv (allErrors) + ajv-formats`,
    () => {
      for (const c of invalid) c.ours.validateJson(c.text).issues.length;
    },
    () => {
      for (const c of invalid) {
        c.ajv(JSON.parse(c.text));
        c.ajv.errors.length;
      }
    },
  );
  // One reason is what most callers report (ajv's default, allErrors off).
  row(
    `validateJson(text, { issues: 'first' }) with its issue read, ${invalid.length} invalid payloads, vs JSON.parse + ajv (first error) + ajv-formats`,
    () => {
      for (const c of invalid) c.ours.validateJson(c.text, FIRST).issues.length;
    },
    () => {
      for (const c of invalid) {
        c.first(JSON.parse(c.text));
        c.first.errors.length;
      }
    },
  );
  row(
    `isValidJson (the verdict alone), ${invalid.length} invalid payloads, vs JSON.parse + ajv + ajv-formats`,
    () => {
      for (const c of invalid) c.ours.isValidJson(c.text);
    },
    () => {
      for (const c of invalid) c.ajv(JSON.parse(c.text));
    },
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ours ${fmt(row.ours)} ops/s, ajv ${fmt(row.reference)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
