/**
 * Browser entry: `await init()` once before calling anything (it fetches and compiles the
 * engine; later calls return the same promise). `compileJsonSchema` needs the validator module
 * as well: `await init({ validator: true })`.
 */
import initWasm, * as wasm from '../../wasm/web/understudy.js';
import initValidatorWasm, * as validatorWasm from '../../wasm/web/understudy_validator.js';
import { installEngine, installValidator } from './channel.js';
import { nodeBuiltin } from './host.js';

import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

let ready: Promise<void> | undefined;
let validatorReady: Promise<void> | undefined;

const isOptions = (value: unknown): value is InitOptions =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * A module's bytes when the page is not served over the network but read from disk (Jest with
 * jsdom, which loads this browser entry under Node): `fetch` does not read `file:` URLs there.
 */
async function fromDisk(url: URL): Promise<BufferSource | undefined> {
  if (url.protocol !== 'file:') return undefined;
  return nodeBuiltin<typeof import('node:fs')>('node:fs')?.readFileSync(url);
}

// The URLs are written out whole (`new URL('literal', import.meta.url)`): bundlers (Vite,
// webpack) copy the file they name and rewrite the URL only in that form.
async function load(init: (source: { module_or_path: any } | undefined) => Promise<unknown>, source: WasmSource | undefined, url: URL): Promise<void> {
  const bytes = source === undefined ? await fromDisk(url) : undefined;
  await init({ module_or_path: source ?? bytes ?? url });
}

/**
 * Loads the engine (and, with `{ validator: true }`, the validator module). Idempotent: every
 * call returns a promise for what it asked for, and each module loads once. A `WasmSource`
 * instead of options says where the engine's `.wasm` comes from.
 */
export function init(options?: InitOptions | WasmSource): Promise<void> {
  const opts: InitOptions = options === undefined ? {} : isOptions(options) ? options : { wasm: options };
  ready ??= load(initWasm, opts.wasm, new URL('../../wasm/understudy_bg.wasm', import.meta.url)).then(() => installEngine(wasm));
  if (!opts.validator) return ready;
  validatorReady ??= load(initValidatorWasm, opts.validatorWasm, new URL('../../wasm/understudy_validator_bg.wasm', import.meta.url)).then(() => installValidator(validatorWasm));
  return Promise.all([ready, validatorReady]).then(() => undefined);
}

