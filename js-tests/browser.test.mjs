// The browser entry in real headless Chromium: the page loads the web build through the
// facade, init() is idempotent, strict schemas and refusals work, and nothing logs an error.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../www/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
let browser;
let server;
let url;

before(async () => {
  assert.ok(existsSync(CHROMIUM), 'Chromium is missing: scripts/test.mjs installs Debian chromium');
  ({ server, url } = await serve(0));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

const shots = join(root, 'www', 'screenshots');

/** A fresh page on the playground that records console errors and page errors. */
async function open() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const wasm = [];
  page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url().split('/').pop()));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await page.textContent('#status'), 'engine ready');
  return { page, problems, wasm };
}

async function shoot(page, panel) {
  mkdirSync(shots, { recursive: true });
  await page.locator(`#panel-${panel}`).screenshot({ path: join(shots, `${panel}.png`) });
}

test('strict schema panel: examples, diff, and a refusal highlighted by its pointer', async () => {
  const { page, problems } = await open();
  const strict = JSON.parse(await page.textContent('#strict'));
  assert.deepStrictEqual(strict.required, ['action', 'id', 'fields']);
  assert.equal(strict.additionalProperties, false);
  assert.match(await page.textContent('#strict-diff'), /\+ {3}"additionalProperties": false/);
  assert.match(await page.textContent('#strict-time'), /^engine: \d+\.\d\d ms$/);

  await page.selectOption('#strict-example', 'recursive tree');
  assert.equal(JSON.parse(await page.textContent('#strict')).properties.root.$ref, '#/$defs/node');

  await page.selectOption('#strict-example', 'refused (oneOf)');
  assert.equal(await page.isVisible('#strict-refusal'), true);
  assert.match(await page.textContent('#strict-error'), /^StrictSchemaError \(unsupported_keyword\) at \/properties\/payment\/properties\/method: /);
  const marked = JSON.parse(await page.textContent('#strict-mark'));
  assert.deepStrictEqual(marked, { oneOf: [{ const: 'card' }, { const: 'cash' }] }, 'the node at the pointer is the one highlighted');
  await page.locator('#strict-mark').scrollIntoViewIfNeeded();
  await shoot(page, 'strict');

  // Typed input: a broken schema is reported, then a fixed one converts.
  await page.fill('#schema', '{ "type": "object", ');
  await page.click('#convert');
  assert.match(await page.textContent('#strict-error'), /^The schema is not JSON/);
  await page.fill('#schema', JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }));
  await page.click('#convert');
  assert.deepStrictEqual(JSON.parse(await page.textContent('#strict')).properties.a, { anyOf: [{ type: 'string' }, { type: 'null' }] });
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('strict schema panel: a provider selector shows each provider\'s schema, what moved into descriptions, and its refusals', async () => {
  const { page, problems } = await open();
  await page.selectOption('#strict-example', 'bounded tool (try Anthropic, Gemini)');
  assert.equal(await page.isVisible('#strict-changes-box'), false, 'OpenAI keeps every constraint');
  await page.selectOption('#strict-provider', 'gemini');
  const gemini = JSON.parse(await page.textContent('#strict'));
  assert.deepStrictEqual(gemini.properties.stars, { type: 'integer', maximum: 5, minimum: 1 });
  assert.deepStrictEqual(gemini.properties.note, { type: 'string', nullable: true });
  assert.match(await page.textContent('#strict-diff'), /\+ +"nullable": true/);
  assert.match(await page.textContent('#strict-changes'), /\/properties\/email format: in email format/);
  await page.selectOption('#strict-provider', 'anthropic');
  const anthropic = JSON.parse(await page.textContent('#strict'));
  assert.equal(anthropic.properties.stars.description, 'Must be at least 1, at most 5.');
  assert.equal(anthropic.additionalProperties, false);
  assert.match(await page.textContent('#strict-changes'), /\/properties\/tags minItems: at least 2 items/);
  // A refusal names the provider and is highlighted at its pointer.
  await page.selectOption('#strict-example', 'recursive tree');
  assert.equal(await page.isVisible('#strict-refusal'), true);
  assert.match(await page.textContent('#strict-error'), /^StrictSchemaError \(recursive\) at \/\$defs\/node\/properties\/children\/items: Anthropic cannot take this schema/);
  assert.deepStrictEqual(JSON.parse(await page.textContent('#strict-mark')), { $ref: '#/$defs/node' });
  await page.selectOption('#strict-provider', 'openai');
  assert.equal(await page.isVisible('#strict-refusal'), false, 'OpenAI takes recursion');
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('validate panel: issues with instancePath, updating as you type', async () => {
  const { page, problems, wasm } = await open();
  // The engine first, then the doubles module (the page imports a testing entry, so init()
  // loads it); the validator module is fetched by init({ validator: true }) after them.
  await page.waitForFunction(() => document.querySelector('#validate-verdict').textContent !== 'loading the validator…');
  assert.deepEqual(wasm, ['understudy_bg.wasm', 'understudy_doubles_bg.wasm', 'understudy_validator_bg.wasm']);
  assert.equal(await page.textContent('#validate-verdict'), 'invalid: 2 issues');
  const issues = await page.locator('#validate-issues li').allTextContents();
  assert.match(issues[0], /^\/qty 0 is less than the minimum of 1 \(minimum\)$/);
  assert.match(issues[1], /^\/sku /);
  await page.fill('#validate-value', '{ "qty": 2, "sku": "ABC-12" }');
  assert.equal(await page.textContent('#validate-verdict'), 'valid');
  assert.equal(await page.locator('#validate-issues li').count(), 0);
  await page.fill('#validate-value', '{ "qty": 2, "sku": ');
  assert.match(await page.textContent('#validate-issues'), /\(json\)/, 'malformed text is an issue with its keyword');
  await page.fill('#validate-value', '{ "qty": 1.5 }');
  assert.equal(await page.textContent('#validate-verdict'), 'invalid: 2 issues');
  assert.match(await page.textContent('#validate-time'), /^engine: \d+\.\d\d ms$/);
  await shoot(page, 'validate');
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('parse panel: value and fixes, and a streamed replay through partialOutput', async () => {
  const { page, problems } = await open();
  assert.deepStrictEqual(JSON.parse(await page.textContent('#sap-value')), { title: 'Fix the login redirect', priority: 'high', estimate: 3, tags: ['auth'] });
  const fixes = (await page.locator('#sap-fixes li code:first-child').allTextContents()).join(' ');
  for (const kind of ['fence_stripped', 'prose_skipped', 'enum_case', 'string_to_number', 'single_to_array', 'extra_key_dropped', 'trailing_comma_removed']) {
    assert.ok(fixes.includes(kind), `${kind} listed`);
  }
  await page.check('#sap-stream');
  await page.click('#sap-parse');
  const growth = [];
  await page.waitForFunction(() => document.getElementById('sap-value').dataset.frames !== '0');
  growth.push(await page.textContent('#sap-value'));
  await page.waitForFunction(() => document.getElementById('sap-value').dataset.done === 'true');
  const frames = Number(await page.getAttribute('#sap-value', 'data-frames'));
  assert.ok(frames > 10, `${frames} frames`);
  assert.notEqual(growth[0], await page.textContent('#sap-value'), 'the value grew while streaming');
  assert.deepStrictEqual(JSON.parse(await page.textContent('#sap-value')).estimate, 3);
  assert.match(await page.textContent('#sap-time'), /^partialOutput: \d+\.\d\d ms over \d+ values$/);
  assert.equal(await page.textContent('#sap-state'), '(complete)', 'the last value is the complete one');

  await page.uncheck('#sap-stream');
  await page.selectOption('#sap-example', 'truncated stream');
  assert.deepStrictEqual(JSON.parse(await page.textContent('#sap-value')).tags, ['sap', 'stre']);
  assert.match(await page.textContent('#sap-fixes'), /closed_at_end/, 'a cut-off reply is closed, and the fix says so');
  await page.fill('#sap-text', 'I could not find any ticket in that message.');
  await page.click('#sap-parse');
  assert.match(await page.textContent('#sap-error'), /^StructuredParseError \(no_json\)/);
  // A refusal shows no value, and the heading says so (not that the reply was cut off).
  assert.equal(await page.textContent('#sap-value'), '—');
  assert.equal(await page.textContent('#sap-state'), '(no value: the reply is refused; see the error below)');
  assert.equal(await page.locator('#sap-fixes li').count(), 0);
  await page.selectOption('#sap-example', 'Python literals');
  assert.deepStrictEqual(JSON.parse(await page.textContent('#sap-value')), { ok: true, reason: null, scores: [0.5, 1, 2.5] });
  await shoot(page, 'sap');
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('scripted run panel: the real Runner against ScriptedModel, and its typed errors', async () => {
  const { page, problems } = await open();
  const run = async () => {
    await page.evaluate(() => {
      document.getElementById('run-time').textContent = '';
    });
    await page.click('#run');
    await page.waitForFunction(() => document.getElementById('run-time').textContent !== '');
  };
  await run();
  assert.equal(await page.textContent('#run-output'), 'It is sunny in Tokyo, 21°C.');
  assert.equal(await page.textContent('#run-error'), '');
  const calls = await page.locator('#run-calls li').allTextContents();
  assert.equal(calls.length, 2);
  assert.match(calls[1], /message, function_call, function_call_result; tools: get_weather$/);
  assert.deepStrictEqual(await page.locator('#run-tools li').allTextContents(), ['get_weather({"city":"Tokyo"}) → Tokyo: sunny, 21°C']);
  assert.match(await page.textContent('#run-time'), /^run: \d+\.\d\d ms/);
  await shoot(page, 'run');

  await page.selectOption('#run-example', 'missing step (extra call)');
  await run();
  assert.equal(await page.getAttribute('#run-error', 'data-name'), 'UnexpectedModelCallError');
  assert.match(await page.textContent('#run-error'), /received unexpected non-streaming call #2; no scripted steps remain\.\n\{ callIndex: 1, streamed: false \}/);

  await page.selectOption('#run-example', 'unused step');
  await run();
  assert.equal(await page.textContent('#run-output'), 'No tool needed.');
  assert.equal(await page.getAttribute('#run-error', 'data-name'), 'UnconsumedModelStepsError');
  assert.equal(await page.getAttribute('#run-error', 'data-remaining'), '1');

  await page.selectOption('#run-example', 'model error');
  await run();
  assert.match(await page.textContent('#run-error'), /^Error: 429 rate limited/);

  await page.fill('#run-script', '[{ "type": "reply" }]');
  await run();
  assert.match(await page.textContent('#run-error'), /Step #1 needs "type"/);
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('the browser entry used directly: init() is idempotent and errors are real classes', async () => {
  const { page, problems } = await open();
  const direct = await page.evaluate(async () => {
    const lib = await import('/pkg/esm/browser.js');
    const same = lib.init() === lib.init();
    await lib.init();
    // The validator module is the page's to load too, but this test does not wait on the page.
    await lib.init({ validator: true });
    const v = lib.compileJsonSchema({ type: 'integer' });
    const result = v.validateJson('"x"');
    v.free();
    let depth;
    const cyclic = { type: 'object', properties: {} };
    cyclic.properties.self = cyclic;
    try { lib.toStrictJsonSchema(cyclic); } catch (e) { depth = e instanceof lib.SchemaDepthError && e instanceof lib.UserError; }
    const rt = await import('/pkg/esm/realtime-testing-browser.js');
    const transport = new rt.ScriptedRealtimeTransport();
    transport.sendEvent({ type: 'x' });
    const call = await transport.expectCall('sendEvent');
    // A streamed run watched by partialOutput: without Node streams, compatibleWithNodeStreams
    // is refused before the text stream is taken, and the web stream still reads.
    const run = {
      toStream: () => new ReadableStream({
        start(c) {
          for (const delta of ['{"a":', ' 1}']) c.enqueue({ type: 'raw_model_stream_event', data: { type: 'output_text_delta', delta } });
          c.close();
        },
      }),
    };
    const partials = lib.partialOutput(run, { type: 'object' });
    let nodeStreams;
    try { run.toTextStream({ compatibleWithNodeStreams: true }); } catch (e) { nodeStreams = e instanceof TypeError && /needs Node streams/.test(e.message); }
    const reader = run.toTextStream().getReader();
    let text = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    let last;
    for await (const p of partials) last = p;
    return { same, valid: result.valid, keyword: result.issues[0].keyword, depth, realtime: call.method, nodeStreams, text, last: last.value };
  });
  assert.deepStrictEqual(direct, { same: true, valid: false, keyword: 'type', depth: true, realtime: 'sendEvent', nodeStreams: true, text: '{"a": 1}', last: { a: 1 } });
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('the HTTP double in the page: scriptedFetch answers, streams, refuses, and a wire cassette recorded there replays', async () => {
  const { page, problems } = await open();
  const got = await page.evaluate(async () => {
    const t = await import('/pkg/esm/ai-sdk-testing-browser.js');
    const post = (f, url, body) => f(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-proj-Q2x9TLm4Rk8Vw1Yz7Hb3Nc5Pd0Fg6Js2Ka' }, body: JSON.stringify(body) });
    const steps = () => [[t.toolCall('weather', { city: 'Oslo' })], t.textStep('Sunny in Oslo.'), t.textStep('Hello, Claude here.')];
    const tools = [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }];
    const run = async (f) => {
      const first = await (await post(f, 'https://api.openai.com/v1/responses', { model: 'gpt-5', input: 'weather?', tools })).json();
      const streamed = await (await post(f, 'https://api.openai.com/v1/responses', { model: 'gpt-5', input: 'again', stream: true })).text();
      const deltas = streamed.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
      const claude = await (await post(f, 'https://api.anthropic.com/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).json();
      return { call: [first.output[0].name, JSON.parse(first.output[0].arguments)], deltas, claude: claude.content[0].text };
    };
    const live = t.scriptedFetch(steps(), { deltaSize: 4 });
    const direct = await run(live);
    live.assertComplete();
    const refused = await post(t.scriptedFetch([]), 'https://api.openai.com/v1/responses', { model: 'gpt-5', input: 'x', tools: [{ type: 'function', name: 'loose', parameters: { type: 'object', properties: { a: { type: 'string' } } } }] });
    const recorder = t.recordingFetch(t.scriptedFetch(steps(), { deltaSize: 4 }));
    const recorded = await run(recorder);
    const cassette = recorder.toScript();
    const replayed = await run(t.scriptedFetch({ cassette, match: 'request' }));
    return { direct, recorded, replayed, refused: [refused.status, (await refused.json()).error.message.includes('loose')], leaked: JSON.stringify(cassette).includes('sk-proj-'), steps: cassette.steps.length };
  });
  const expected = { call: ['weather', { city: 'Oslo' }], deltas: 'Sunny in Oslo.', claude: 'Hello, Claude here.' };
  assert.deepStrictEqual(got, { direct: expected, recorded: expected, replayed: expected, refused: [400, true], leaked: false, steps: 3 });
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('tool-set panel: a matrix of tools by provider mode; a refused cell shows its pointer and fix, a converted one what it loses; 30 tools in under a second; a link shares the set', async () => {
  const { page, problems } = await open();
  // The default example: a real listing, every tool a row, every mode a column.
  assert.equal(await page.locator('#tools-matrix tbody tr').count(), 19);
  assert.deepStrictEqual(await page.locator('#tools-matrix thead th').allTextContents(), ['tool', 'openai:strict', 'openai:standard', 'anthropic:standard', 'anthropic:strict', 'gemini:openapi', 'gemini:json']);
  assert.match(await page.textContent('#tools-time'), /^engine: \d+\.\d\d ms$/);

  await page.selectOption('#tools-example', 'recursive schema, format: uri, open map');
  await page.click('button.cell[data-tool="fetch_page"][data-mode="openai:strict"]');
  assert.match(await page.textContent('#tools-detail-title'), /^fetch_page · openai:strict: refused$/);
  assert.match(await page.textContent('#tools-detail-text'), /at \/properties\/url: .*uri/);
  assert.match(await page.textContent('#tools-detail-fix'), /^Fix: /);
  assert.deepStrictEqual(JSON.parse(await page.textContent('#tools-mark')), { type: 'string', format: 'uri' }, 'the node at the pointer is highlighted');
  assert.equal(await page.textContent('#tools-sent'), '(refused: nothing is sent)');
  // A converted cell says what the conversion loses and shows the schema as sent.
  const converted = page.locator('button.cell.converted').first();
  await converted.click();
  assert.match(await page.textContent('#tools-detail-text'), /^Converted; loses (none|annotations|validation)\./);
  assert.ok(JSON.parse(await page.textContent('#tools-sent')), 'the converted schema');
  await page.locator('#tools-matrix').scrollIntoViewIfNeeded();
  await shoot(page, 'tools');

  // A pasted 30-tool listing renders within a second.
  const corpus = JSON.parse(readFileSync(join(root, 'js-tests', 'corpus', 'mcp-tools.json'), 'utf8')).tools.slice(0, 30);
  const listing = JSON.stringify({ tools: corpus.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) });
  await page.fill('#tools-input', listing);
  const ms = await page.evaluate(() => {
    const started = performance.now();
    document.getElementById('tools-check').click();
    return performance.now() - started;
  });
  assert.equal(await page.locator('#tools-matrix tbody tr').count(), 30);
  assert.ok(ms < 1000, `${ms} ms`);

  // A set over a provider's request limits lists the breach.
  const many = { tools: Array.from({ length: 130 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: {}, additionalProperties: false } })) };
  await page.fill('#tools-input', JSON.stringify(many));
  await page.click('#tools-check');
  assert.match(await page.textContent('#tools-limits'), /anthropic:strict: .*at most 20 strict tools.*130/s);
  await page.fill('#tools-input', listing);
  await page.click('#tools-check');

  // The link holds the set: a new page opened on it shows the same set.
  await page.click('#tools-share');
  const shared = page.url();
  assert.match(shared, /#tools=[\w-]+$/);
  const other = await browser.newPage();
  await other.goto(shared);
  await other.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.deepStrictEqual(JSON.parse(await other.inputValue('#tools-input')), JSON.parse(listing));
  assert.equal(await other.locator('#tools-matrix tbody tr').count(), 30);
  await other.close();
  assert.deepStrictEqual(problems, []);
  await page.close();
});

test('HTTP double panel: JSON, an event stream shown event by event, and the provider\'s 400 for a refused tool', async () => {
  const { page, problems } = await open();
  await page.click('#http-send');
  await page.waitForFunction(() => document.getElementById('http-status').textContent !== '');
  assert.equal(await page.textContent('#http-status'), '200');
  assert.equal(JSON.parse(await page.textContent('#http-response')).output[0].name, 'get_weather');
  assert.match(await page.textContent('#http-time'), /^engine: \d+\.\d\d ms/);

  // Streamed: the events appear one by one (the double paces them 40 ms apart).
  await page.selectOption('#http-api', 'anthropic.messages');
  await page.check('#http-stream');
  assert.equal(JSON.parse(await page.inputValue('#http-body')).stream, true);
  await page.fill('#http-script', 'text It is sunny in Oslo today.');
  await page.click('#http-send');
  await page.waitForFunction(() => document.querySelectorAll('#http-events li').length >= 1);
  const early = await page.locator('#http-events li').count();
  await page.waitForFunction(() => /events$/.test(document.getElementById('http-response').textContent));
  const total = await page.locator('#http-events li').count();
  assert.ok(early < total, `${early} of ${total} events at first`);
  assert.match(await page.locator('#http-events li').first().textContent(), /^event: message_start\ndata: /);
  assert.match(await page.textContent('#http-headers'), /content-type: text\/event-stream/);
  await shoot(page, 'http');

  // A tool the provider refuses in the request's mode: its 400, naming the tool and the place.
  await page.check('#http-refused');
  await page.click('#http-send');
  await page.waitForFunction(() => document.getElementById('http-status').textContent.startsWith('400'));
  assert.match(JSON.parse(await page.textContent('#http-response')).error.message, /get_weather.*minimum.*\/properties\/days/);
  await page.selectOption('#http-api', 'gemini');
  await page.click('#http-send');
  await page.waitForFunction(() => document.getElementById('http-response').textContent.includes('exclusiveMinimum'));
  assert.equal(await page.textContent('#http-status'), '400');
  assert.deepStrictEqual(problems, []);
  await page.close();
});
