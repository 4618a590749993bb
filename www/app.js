// The playground loads the web build through the package's browser entry (never raw bindings).
import { init, toStrictJsonSchema, StrictSchemaError } from '/pkg/esm/browser.js';

const $ = (id) => document.getElementById(id);

function convert() {
  const out = $('strict');
  const started = performance.now();
  try {
    const strict = toStrictJsonSchema(JSON.parse($('schema').value));
    out.className = '';
    out.textContent = JSON.stringify(strict, null, 2);
  } catch (error) {
    out.className = 'error';
    out.textContent = error instanceof StrictSchemaError ? `${error.name} (${error.reason} at ${error.pointer || '/'}): ${error.message}` : String(error);
  }
  out.dataset.ms = (performance.now() - started).toFixed(2);
}

await init();
await init(); // idempotent
$('status').textContent = 'engine ready';
$('convert').addEventListener('click', convert);
convert();
