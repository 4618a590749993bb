/**
 * Browser entry: `await init()` once before calling anything (it fetches and compiles the
 * engine, and the doubles module once a testing entry is imported; later calls return the same
 * promise). `compileJsonSchema` needs the validator module
 * as well: `await init({ validator: true })`.
 */
import initWasm, * as wasm from '../../wasm/web/understudy.js';
import initValidatorWasm, * as validatorWasm from '../../wasm/web/understudy_validator.js';
import { installEngine, installValidator } from './channel.js';
import { nodeBuiltin } from './host.js';
import { isPlainObject } from './args.js';

import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

let ready: Promise<void> | undefined;
let validatorReady: Promise<void> | undefined;
let doublesReady: Promise<void> | undefined;
/** What `init` returned for each set of modules. */
const joined = new Map<string, Promise<void>>();
/** How the doubles module loads: set by the testing entries (`browser-doubles.ts`). */
let doublesLoader: ((source: WasmSource | undefined) => Promise<void>) | undefined;

/** @internal Called by the testing entries at import: `init()` loads the doubles module too. */
export function wantDoubles(loader: (source: WasmSource | undefined) => Promise<void>): void {
  doublesLoader = loader;
}

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
/** @internal Instantiates a module's glue from `source`, or from `url` (read from disk for `file:`). */
export async function load(init: (source: { module_or_path: any } | undefined) => Promise<unknown>, source: WasmSource | undefined, url: URL): Promise<void> {
  const bytes = source === undefined ? await fromDisk(url) : undefined;
  await init({ module_or_path: source ?? bytes ?? url });
}

/**
 * Loads the engine (with a testing entry imported, the doubles module too; with
 * `{ validator: true }`, the validator module). Idempotent: every call returns a promise for
 * what it asked for, and each module loads once. A `WasmSource` instead of options says where
 * the engine's `.wasm` comes from.
 */
export function init(options?: InitOptions | WasmSource): Promise<void> {
  const opts: InitOptions = options === undefined ? {} : isPlainObject(options) ? (options as InitOptions) : { wasm: options };
  ready ??= load(initWasm, opts.wasm, new URL('../../wasm/understudy_bg.wasm', import.meta.url)).then(() => installEngine(wasm));
  const doubles = doublesLoader === undefined ? undefined : (doublesReady ??= doublesLoader(opts.doublesWasm));
  const validator = !opts.validator
    ? undefined
    : (validatorReady ??= load(initValidatorWasm, opts.validatorWasm, new URL('../../wasm/understudy_validator_bg.wasm', import.meta.url)).then(() => installValidator(validatorWasm)));
  // The same promise for the same modules, call after call.
  const key = `${doubles !== undefined}:${validator !== undefined}`;
  let all = joined.get(key);
  if (all === undefined) {
    const waits = [ready, doubles, validator].filter((p) => p !== undefined);
    all = waits.length === 1 ? ready : Promise.all(waits).then(() => undefined);
    joined.set(key, all);
  }
  return all;
}
