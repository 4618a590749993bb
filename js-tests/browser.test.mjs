// The browser entry in real headless Chromium: the page loads the web build through the
// facade, init() is idempotent, strict schemas and refusals work, and nothing logs an error.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
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

test('the page loads the engine, converts, and reports a refusal with its pointer', async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'engine ready');
  const strict = JSON.parse(await page.textContent('#strict'));
  assert.deepStrictEqual(strict.required, ['city', 'unit']);
  assert.equal(strict.additionalProperties, false);

  await page.fill('#schema', JSON.stringify({ type: 'object', properties: { a: { allOf: [] } } }));
  await page.click('#convert');
  assert.match(await page.textContent('#strict'), /^StrictSchemaError \(unsupported_keyword at \/properties\/a\): Cannot convert a JSON schema using unsupported keyword `allOf`/);

  // The same module, used directly: init() returns one promise, errors are real classes.
  const direct = await page.evaluate(async () => {
    const lib = await import('/pkg/esm/browser.js');
    const same = lib.init() === lib.init();
    await lib.init();
    const v = lib.compileJsonSchema({ type: 'integer' });
    const result = v.validateJson('"x"');
    v.free();
    let depth;
    const cyclic = { type: 'object', properties: {} };
    cyclic.properties.self = cyclic;
    try { lib.toStrictJsonSchema(cyclic); } catch (e) { depth = e instanceof lib.SchemaDepthError && e instanceof lib.UserError; }
    return { same, valid: result.valid, keyword: result.issues[0].keyword, depth };
  });
  assert.deepStrictEqual(direct, { same: true, valid: false, keyword: 'type', depth: true });
  mkdirSync(join(root, 'www', 'screenshots'), { recursive: true });
  await page.screenshot({ path: join(root, 'www', 'screenshots', 'strict.png') });
  assert.deepStrictEqual(problems, []);
});
