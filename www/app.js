// The playground. It loads the web build of the engine through the package's browser entries
// (never the raw bindings), and the real @openai/agents-core (bundled locally by
// `node scripts/build.mjs playground`) for the scripted run. No network beyond this server.
import {
  init,
  toStrictJsonSchema,
  prepareStrictJsonSchema,
  StrictSchemaError,
  compileJsonSchema,
  parseStructured,
  parsePartial,
  partialOutput,
  StructuredParseError,
  checkTools,
} from '/pkg/esm/browser.js';
import { ScriptedModel, assistantMessage, functionCall, modelError, scriptedFetch, UnconsumedModelStepsError } from '/pkg/esm/testing-browser.js';
import { toolExamples } from './tool-examples.js';
import { Agent, Runner, tool } from '@openai/agents-core';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const pretty = (v) => JSON.stringify(v, null, 2) ?? 'undefined';

/** Runs `work`, writing how long it took into the panel's timing element. */
function timed(id, label, work) {
  const started = performance.now();
  try {
    return work();
  } finally {
    $(id).textContent = `${label} ${(performance.now() - started).toFixed(2)} ms`;
  }
}

function fillExamples(select, examples, onPick) {
  for (const name of Object.keys(examples)) select.append(new Option(name, name));
  select.addEventListener('change', () => onPick(examples[select.value]));
}

// --- Strict schema ---------------------------------------------------------------------------------

const strictExamples = {
  'CRUD tool': {
    type: 'object',
    properties: {
      action: { enum: ['create', 'read', 'update', 'delete'] },
      id: { type: 'string' },
      fields: { type: 'object', properties: { title: { type: 'string' }, done: { type: 'boolean' } } },
    },
    required: ['action'],
  },
  'nested order': {
    type: 'object',
    properties: {
      orderId: { type: 'string' },
      lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku'] } },
      shipping: { type: 'object', properties: { address: { type: 'string' }, express: { type: 'boolean' } } },
    },
    required: ['orderId', 'lines'],
  },
  'anyOf union': {
    type: 'object',
    properties: {
      target: { anyOf: [{ type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }, { type: 'object', properties: { phone: { type: 'string' } } }] },
    },
    required: ['target'],
  },
  'recursive tree': {
    type: 'object',
    $defs: { node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['label'] } },
    properties: { root: { $ref: '#/$defs/node' } },
    required: ['root'],
  },
  'bounded tool (try Anthropic, Gemini)': {
    type: 'object',
    properties: {
      stars: { type: 'integer', exclusiveMinimum: 0, maximum: 5 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
      email: { type: 'string', format: 'email' },
      note: { type: ['string', 'null'] },
    },
    required: ['stars', 'tags'],
  },
  'refused (oneOf)': {
    type: 'object',
    properties: { name: { type: 'string' }, payment: { type: 'object', properties: { method: { oneOf: [{ const: 'card' }, { const: 'cash' }] } } } },
  },
};

/** Line diff (longest common subsequence) of two texts, as marked-up lines. */
function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${escapeHtml(a[i])}\n`);
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(`<span class="add">+ ${escapeHtml(b[j])}</span>`);
      j += 1;
    } else {
      out.push(`<span class="del">- ${escapeHtml(a[i])}</span>`);
      i += 1;
    }
  }
  return out.join('');
}

const token = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

/** Pretty JSON as HTML with the node at `pointer` wrapped in <mark id={markId}>. */
function highlight(value, pointer, path = '', indent = '', markId = 'strict-mark') {
  let html;
  const child = (v, p) => highlight(v, pointer, p, `${indent}  `, markId);
  if (Array.isArray(value)) {
    html = value.length === 0 ? '[]' : `[\n${value.map((v, i) => `${indent}  ${child(v, `${path}/${i}`)}`).join(',\n')}\n${indent}]`;
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    html = entries.length === 0
      ? '{}'
      : `{\n${entries.map(([k, v]) => `${indent}  ${escapeHtml(JSON.stringify(k))}: ${child(v, `${path}/${token(k)}`)}`).join(',\n')}\n${indent}}`;
  } else {
    html = escapeHtml(JSON.stringify(value));
  }
  return path === pointer ? `<mark id="${markId}">${html}</mark>` : html;
}

function convert() {
  $('strict-refusal').hidden = true;
  $('strict-error').textContent = '';
  let input;
  try {
    input = JSON.parse($('schema').value);
  } catch (error) {
    $('strict').textContent = '';
    $('strict-diff').textContent = '';
    $('strict-refusal').hidden = false;
    $('strict-error').textContent = `The schema is not JSON: ${error.message}`;
    $('strict-highlight').textContent = '';
    return;
  }
  const provider = $('strict-provider').value;
  $('strict-changes-box').hidden = true;
  $('strict-changes').textContent = '';
  try {
    const strict = timed('strict-time', 'engine:', () => toStrictJsonSchema(input, { provider }));
    $('strict').textContent = pretty(strict);
    $('strict-diff').innerHTML = lineDiff(pretty(input), pretty(strict));
    if (provider !== 'openai') {
      // The constraints moved into descriptions, each at its pointer.
      const described = prepareStrictJsonSchema(input, { provider }).changes.filter((c) => c.kind === 'described');
      for (const c of described) {
        const li = document.createElement('li');
        li.textContent = `${c.pointer || '/'} ${c.keyword}: ${c.detail}`;
        $('strict-changes').append(li);
      }
      $('strict-changes-box').hidden = described.length === 0;
    }
  } catch (error) {
    $('strict').textContent = '';
    $('strict-diff').textContent = '';
    $('strict-refusal').hidden = false;
    if (error instanceof StrictSchemaError) {
      $('strict-error').textContent = `${error.name} (${error.reason}) at ${error.pointer || '/'}: ${error.message}`;
      $('strict-highlight').innerHTML = highlight(input, error.pointer);
    } else {
      $('strict-error').textContent = String(error);
    }
  }
}

// --- Validate --------------------------------------------------------------------------------------

let validator;
let validatorSchema;

function validate() {
  const list = $('validate-issues');
  list.textContent = '';
  if (!validatorLoaded) {
    $('validate-verdict').textContent = 'loading the validator…';
    return;
  }
  try {
    timed('validate-time', 'engine:', () => {
      const schemaText = $('validate-schema').value;
      if (schemaText !== validatorSchema) {
        validator?.free();
        validator = undefined;
        validatorSchema = schemaText;
        validator = compileJsonSchema(JSON.parse(schemaText));
      }
      const result = validator.validateJson($('validate-value').value);
      $('validate-verdict').textContent = result.valid ? 'valid' : `invalid: ${result.issues.length} issue${result.issues.length === 1 ? '' : 's'}`;
      for (const issue of result.issues) {
        const li = document.createElement('li');
        li.innerHTML = `<code>${escapeHtml(issue.instancePath || '/')}</code> ${escapeHtml(issue.message)} <small>(${escapeHtml(issue.keyword)})</small>`;
        list.append(li);
      }
    });
  } catch (error) {
    validatorSchema = undefined;
    $('validate-verdict').textContent = `schema error: ${error.message}`;
  }
}

// --- Parse a reply ----------------------------------------------------------------------------------

const ticketSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, priority: { enum: ['low', 'medium', 'high'] }, estimate: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['title', 'priority'],
  additionalProperties: false,
};
const sapExamples = {
  'chatty, fenced, broken': {
    schema: ticketSchema,
    text: "Sure! Here's the ticket:\n```json\n{\n  title: 'Fix the login redirect',\n  priority: \"HIGH\",\n  estimate: \"3\",\n  tags: 'auth',  // one tag\n  owner: 'me',\n}\n```\nLet me know if you need anything else.",
  },
  'Python literals': {
    schema: { type: 'object', properties: { ok: { type: 'boolean' }, reason: { type: ['string', 'null'] }, scores: { type: 'array', items: { type: 'number' } } }, required: ['ok', 'reason', 'scores'] },
    text: "{'ok': True, 'reason': None, 'scores': [0.5, 1, '2.5']}",
  },
  'truncated stream': {
    schema: ticketSchema,
    text: '{"title": "Streaming replies", "priority": "medium", "tags": ["sap", "stre',
  },
};

function showParse(value, fixes, state) {
  // No value is shown as a dash, never as the word `undefined`.
  $('sap-value').textContent = value === undefined ? '—' : pretty(value);
  $('sap-state').textContent = state;
  const list = $('sap-fixes');
  list.textContent = '';
  for (const fix of fixes) {
    const li = document.createElement('li');
    li.innerHTML = `<code>${escapeHtml(fix.kind)}</code> at <code>${escapeHtml(fix.pointer || '/')}</code>: ${escapeHtml(fix.detail)}`;
    list.append(li);
  }
}

function parseNow(schema, text) {
  try {
    const { value, fixes } = timed('sap-time', 'engine:', () => parseStructured(text, schema));
    showParse(value, fixes, '(complete)');
  } catch (error) {
    if (!(error instanceof StructuredParseError)) throw error;
    // What the reply determines so far, when it ends inside a value; otherwise no value at all.
    const partial = parsePartial(text, schema);
    if (partial.value !== undefined && !partial.complete) {
      showParse(partial.value, partial.fixes, '(what the reply holds so far: it ends inside the value, and is refused; see the error below)');
    } else {
      showParse(undefined, [], '(no value: the reply is refused; see the error below)');
    }
    $('sap-error').textContent = `${error.name} (${error.reason}): ${error.message}`;
  }
}

/** Counts replays, so a new parse stops the one still streaming. */
let replays = 0;

async function parse() {
  $('sap-error').textContent = '';
  replays += 1;
  let schema;
  try {
    schema = JSON.parse($('sap-schema').value);
  } catch (error) {
    $('sap-error').textContent = `The schema is not JSON: ${error.message}`;
    return;
  }
  const text = $('sap-text').value;
  if (!$('sap-stream').checked) {
    parseNow(schema, text);
    return;
  }
  // Replay the reply in 4-character deltas (about a token each) through partialOutput, as a streamed run would
  // arrive: each value it yields (only when the value changed) is one frame.
  const value = $('sap-value');
  let sent = 0;
  let frames = 0;
  let workMs = 0;
  value.dataset.frames = '0';
  value.dataset.done = 'false';
  const replay = replays;
  async function* deltas() {
    for (let end = 4; sent < text.length; end += 4) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      if (replay !== replays) return; // a newer replay took over
      const chunk = text.slice(sent, end);
      sent = Math.min(text.length, end);
      const started = performance.now();
      yield chunk;
      workMs += performance.now() - started;
    }
  }
  try {
    for await (const partial of partialOutput(deltas(), schema)) {
      if (replay !== replays) return;
      frames += 1;
      value.dataset.frames = String(frames);
      showParse(partial.value, partial.fixes, partial.complete ? '(complete)' : `(streaming: ${sent}/${text.length} characters)`);
      $('sap-time').textContent = `partialOutput: ${workMs.toFixed(2)} ms over ${frames} values`;
    }
    value.dataset.done = 'true';
  } catch (error) {
    if (replay !== replays) return;
    $('sap-error').textContent = `${error.name}${error.reason ? ` (${error.reason})` : ''}: ${error.message}`;
    value.dataset.done = 'true';
  }
}

// --- Scripted run -----------------------------------------------------------------------------------

const runExamples = {
  'tool call, then answer': [
    { type: 'function_call', name: 'get_weather', arguments: { city: 'Tokyo' } },
    { type: 'message', text: 'It is sunny in Tokyo, 21°C.' },
  ],
  'missing step (extra call)': [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Tokyo' } }],
  'unused step': [{ type: 'message', text: 'No tool needed.' }, { type: 'message', text: 'Never reached.' }],
  'model error': [{ type: 'error', message: '429 rate limited' }],
};

function toInputs(script) {
  if (!Array.isArray(script)) throw new TypeError('The script must be a JSON array of steps.');
  return script.map((step, i) => {
    switch (step?.type) {
      case 'message':
        return [assistantMessage(String(step.text ?? ''))];
      case 'function_call':
        return [functionCall(String(step.name), step.arguments ?? {}, { callId: `call_${i + 1}` })];
      case 'error':
        return modelError(new Error(String(step.message ?? 'scripted failure')));
      default:
        throw new TypeError(`Step #${i + 1} needs "type": "message", "function_call" or "error".`);
    }
  });
}

function describeError(error) {
  const fields = Object.entries(error ?? {})
    .filter(([k]) => k !== 'name')
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}${fields.length ? `\n{ ${fields.join(', ')} }` : ''}`;
}

async function runScript() {
  for (const id of ['run-calls', 'run-tools', 'run-output', 'run-error']) $(id).textContent = '';
  $('run').disabled = true;
  const started = performance.now();
  let model;
  const toolResults = [];
  try {
    model = new ScriptedModel(toInputs(JSON.parse($('run-script').value)));
    const getWeather = tool({
      name: 'get_weather',
      description: 'Gets the weather for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      strict: true,
      execute: async ({ city }) => {
        const out = `${city}: sunny, 21°C`;
        toolResults.push(`get_weather(${JSON.stringify({ city })}) → ${out}`);
        return out;
      },
    });
    const agent = new Agent({ name: 'Weather assistant', instructions: 'Answer weather questions with the tool.', model, tools: [getWeather] });
    const result = await new Runner({ tracingDisabled: true }).run(agent, $('run-input').value);
    $('run-output').textContent = String(result.finalOutput);
    model.assertComplete();
  } catch (error) {
    $('run-error').textContent = describeError(error);
    $('run-error').dataset.name = error?.name ?? '';
    if (error instanceof UnconsumedModelStepsError) $('run-error').dataset.remaining = String(error.remainingSteps);
  } finally {
    $('run-time').textContent = `run: ${(performance.now() - started).toFixed(2)} ms (Runner + ScriptedModel)`;
    $('run').disabled = false;
  }
  for (const call of model?.calls ?? []) {
    const li = document.createElement('li');
    const items = Array.isArray(call.request.input) ? call.request.input : [{ type: 'message', content: call.request.input }];
    li.textContent = `${call.streamed ? 'streamed' : 'non-streaming'} call, ${items.length} input item(s): ${items.map((i) => i.type ?? i.role).join(', ')}; tools: ${call.request.tools.map((t) => t.name).join(', ')}`;
    $('run-calls').append(li);
  }
  for (const text of toolResults) {
    const li = document.createElement('li');
    li.textContent = text;
    $('run-tools').append(li);
  }
}

// --- Check a tool set ------------------------------------------------------------------------------

/** The provider modes of the matrix, in its column order. */
const MODES = ['openai:strict', 'openai:standard', 'anthropic:standard', 'anthropic:strict', 'gemini:openapi', 'gemini:json'];
let toolReport;
let toolSchemas = new Map();

/** The tools of a pasted set, by name, with their input schema (for the detail view). */
function schemasOf(set) {
  const list = Array.isArray(set) ? set : Array.isArray(set?.tools) ? set.tools : [];
  return new Map(list.map((t) => [t?.name, t?.inputSchema ?? t?.parameters ?? t?.input_schema]));
}

function checkToolSet() {
  $('tools-error').textContent = '';
  $('tools-detail').hidden = true;
  let set;
  try {
    set = JSON.parse($('tools-input').value);
  } catch (error) {
    $('tools-matrix').innerHTML = '';
    $('tools-error').textContent = `The tool set is not JSON: ${error.message}`;
    return;
  }
  try {
    toolReport = timed('tools-time', 'engine:', () => checkTools(set, { providers: MODES }));
  } catch (error) {
    $('tools-matrix').innerHTML = '';
    $('tools-error').textContent = `${error.name}: ${error.message}`;
    return;
  }
  toolSchemas = schemasOf(set);
  const byCell = new Map(toolReport.results.map((r) => [`${r.tool}\u0000${r.target}`, r]));
  const head = `<tr><th>tool</th>${MODES.map((m) => `<th>${escapeHtml(m)}</th>`).join('')}</tr>`;
  const rows = toolReport.tools.map((tool) => {
    const cells = MODES.map((mode) => {
      const r = byCell.get(`${tool}\u0000${mode}`);
      if (r === undefined) return '<td></td>';
      const label = r.status === 'converted' ? `converted${r.loss && r.loss !== 'none' ? ` (loses ${r.loss})` : ''}` : r.status;
      return `<td><button class="cell ${r.status}" data-tool="${escapeHtml(tool)}" data-mode="${mode}">${escapeHtml(label)}</button></td>`;
    });
    return `<tr><th scope="row">${escapeHtml(tool)}</th>${cells.join('')}</tr>`;
  });
  $('tools-matrix').innerHTML = `<thead>${head}</thead><tbody>${rows.join('')}</tbody>`;
  const breaches = toolReport.limits.flatMap((l) => l.breaches.map((b) => `<li><code>${escapeHtml(l.provider)}</code>: ${escapeHtml(b.message ?? JSON.stringify(b))}</li>`));
  $('tools-limits').innerHTML = breaches.length > 0 ? breaches.join('') : '<li>Within every provider\'s request limits.</li>';
}

/** The detail of one cell: the verdict, its reason and fix, the pointer in the schema, the schema sent. */
function showCell(tool, mode) {
  const r = toolReport.results.find((x) => x.tool === tool && x.target === mode);
  if (r === undefined) return;
  const schema = toolSchemas.get(tool);
  $('tools-detail').hidden = false;
  $('tools-detail-title').textContent = `${tool} · ${mode}: ${r.status}`;
  const words = [];
  if (r.status === 'refused') words.push(`${r.reason}${r.pointer !== undefined ? ` at ${r.pointer || '(root)'}` : ''}: ${r.message}`);
  if (r.status === 'converted') {
    words.push(`Converted; loses ${r.loss}.`);
    for (const c of r.lost ?? []) words.push(`Lost: ${c.message ?? `${c.kind} at ${c.pointer}`}`);
    if (r.asSent) words.push(`Sent unconverted it is refused: ${r.asSent.message}`);
  }
  if (r.status === 'accepted') words.push(r.ignored?.length ? `Accepted; the mode ignores ${r.ignored.join(', ')}.` : 'Accepted as it is.');
  $('tools-detail-text').textContent = words.join('\n');
  $('tools-detail-fix').textContent = r.fix ? `Fix: ${r.fix}` : '';
  const pointer = r.pointer ?? r.asSent?.pointer;
  $('tools-schema').innerHTML = highlight(schema, pointer, '', '', 'tools-mark');
  let sent;
  try {
    sent = r.status === 'refused' ? '(refused: nothing is sent)' : r.status === 'accepted' ? pretty(schema) : pretty(toStrictJsonSchema(schema, { provider: mode }));
  } catch (error) {
    sent = `${error.name}: ${error.message}`;
  }
  $('tools-sent').textContent = sent;
}

/** The set in the page's URL (base64url of its JSON), to share. */
function shareToolSet() {
  const bytes = new TextEncoder().encode($('tools-input').value);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  history.replaceState(null, '', `#tools=${encoded}`);
  navigator.clipboard?.writeText(location.href).catch(() => {});
  $('tools-shared').textContent = 'The link to this set is in the address bar.';
}

/** A set shared in the URL, if there is one. */
function sharedToolSet() {
  const m = /^#tools=([\w-]+)$/.exec(location.hash);
  if (m === null) return undefined;
  const binary = atob(m[1].replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// --- HTTP double -----------------------------------------------------------------------------------

const weatherParams = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
/** Per API: the URL (JSON, streamed) and a request body (with an accepted tool, or one the provider refuses in that mode). */
const httpApis = {
  'openai.responses': {
    url: () => 'https://api.openai.com/v1/responses',
    body: (stream, refused) => ({ model: 'gpt-5', input: 'What is the weather in Oslo?', stream, tools: [{ type: 'function', name: 'get_weather', strict: true, parameters: refused ? { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } : weatherParams }] }),
  },
  'openai.chat': {
    url: () => 'https://api.openai.com/v1/chat/completions',
    body: (stream, refused) => ({ model: 'gpt-4.1', stream, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], tools: [{ type: 'function', function: { name: 'get_weather', strict: true, parameters: refused ? { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'], additionalProperties: false } : weatherParams } }] }),
  },
  'anthropic.messages': {
    url: () => 'https://api.anthropic.com/v1/messages',
    body: (stream, refused) => ({ model: 'claude-sonnet-4-5', max_tokens: 200, stream, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], tools: [{ name: 'get_weather', ...(refused ? { strict: true } : {}), input_schema: refused ? { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 14 } }, required: ['days'], additionalProperties: false } : weatherParams }] }),
  },
  gemini: {
    url: (stream) => `https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    body: (_stream, refused) => ({ contents: [{ role: 'user', parts: [{ text: 'What is the weather in Oslo?' }] }], tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: refused ? { type: 'object', properties: { count: { type: 'integer', exclusiveMinimum: 0 } } } : { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }] }),
  },
};

/** The script's lines as steps: `text …`, `tool <name> {json}`, `error <status> <message>`. */
function httpSteps(script) {
  return script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line, i) => {
      const [word, ...rest] = line.split(' ');
      const tail = rest.join(' ');
      if (word === 'text') return [assistantMessage(tail)];
      if (word === 'tool') {
        const [name, ...args] = rest;
        return [functionCall(name, args.join(' ') || '{}', { callId: `call_${i + 1}` })];
      }
      if (word === 'error') {
        const [status, ...message] = rest;
        return modelError({ status: Number(status), message: message.join(' ') || 'Scripted error' });
      }
      throw new Error(`line ${i + 1}: a step is "text …", "tool <name> {json}" or "error <status> <message>", got "${line}"`);
    });
}

function fillHttpBody() {
  const api = httpApis[$('http-api').value];
  $('http-body').value = pretty(api.body($('http-stream').checked, $('http-refused').checked));
}

let httpRun = 0;
async function sendHttp() {
  const run = ++httpRun;
  $('http-error').textContent = '';
  $('http-status').textContent = '';
  $('http-headers').textContent = '';
  $('http-events').innerHTML = '';
  $('http-response').textContent = '';
  let fetch;
  try {
    fetch = scriptedFetch(httpSteps($('http-script').value), { deltaSize: 6, chunkDelayInMs: 40 });
  } catch (error) {
    $('http-error').textContent = `${error.name}: ${error.message}`;
    return;
  }
  const stream = $('http-stream').checked;
  const api = httpApis[$('http-api').value];
  const started = performance.now();
  let response;
  try {
    response = await fetch(api.url(stream), { method: 'POST', headers: { 'content-type': 'application/json' }, body: $('http-body').value });
  } catch (error) {
    $('http-error').textContent = `${error.name}: ${error.message}`;
    return;
  }
  $('http-time').textContent = `engine: ${(performance.now() - started).toFixed(2)} ms to the status`;
  $('http-status').textContent = `${response.status} ${response.statusText}`.trim();
  $('http-headers').textContent = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('event-stream')) {
    const text = await response.text();
    try {
      $('http-response').textContent = pretty(JSON.parse(text));
    } catch {
      $('http-response').textContent = text;
    }
    return;
  }
  // The events one by one, as they arrive.
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done || run !== httpRun) break;
    buffer += value;
    let at;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const li = document.createElement('li');
      li.textContent = event;
      $('http-events').append(li);
    }
  }
  $('http-response').textContent = `${$('http-events').children.length} events`;
}

// --- start -----------------------------------------------------------------------------------------

await init();
await init(); // idempotent
$('status').textContent = 'engine ready';
// The validator module (compileJsonSchema) is a second, larger file: it loads after the engine,
// without holding up the other panels, and the validate panel runs once it is there.
let validatorLoaded = false;
init({ validator: true }).then(() => {
  validatorLoaded = true;
  validate();
});

fillExamples($('strict-example'), strictExamples, (schema) => {
  $('schema').value = pretty(schema);
  convert();
});
$('schema').value = pretty(strictExamples['CRUD tool']);
$('convert').addEventListener('click', convert);
$('strict-provider').addEventListener('change', convert);
convert();

$('validate-schema').value = pretty({ type: 'object', properties: { qty: { type: 'integer', minimum: 1 }, sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } }, required: ['sku'] });
$('validate-value').value = '{ "qty": 0, "sku": "abc" }';
$('validate-schema').addEventListener('input', validate);
$('validate-value').addEventListener('input', validate);
validate();

fillExamples($('sap-example'), sapExamples, ({ schema, text }) => {
  $('sap-schema').value = pretty(schema);
  $('sap-text').value = text;
  parse();
});
$('sap-schema').value = pretty(sapExamples['chatty, fenced, broken'].schema);
$('sap-text').value = sapExamples['chatty, fenced, broken'].text;
$('sap-parse').addEventListener('click', parse);
parse();

fillExamples($('run-example'), runExamples, (script) => {
  $('run-script').value = pretty(script);
});
$('run-script').value = pretty(runExamples['tool call, then answer']);
$('run').addEventListener('click', runScript);

fillExamples($('tools-example'), toolExamples, (set) => {
  $('tools-input').value = pretty(set);
  checkToolSet();
});
$('tools-input').value = sharedToolSet() ?? pretty(toolExamples[Object.keys(toolExamples)[0]]);
$('tools-check').addEventListener('click', checkToolSet);
$('tools-share').addEventListener('click', shareToolSet);
$('tools-matrix').addEventListener('click', (event) => {
  const cell = event.target.closest('button.cell');
  if (cell) showCell(cell.dataset.tool, cell.dataset.mode);
});
checkToolSet();

$('http-script').value = 'tool get_weather {"city":"Oslo"}\ntext It is sunny in Oslo.';
for (const id of ['http-api', 'http-stream', 'http-refused']) $(id).addEventListener('change', fillHttpBody);
fillHttpBody();
$('http-send').addEventListener('click', () => void sendHttp());
document.body.dataset.ready = 'true';
