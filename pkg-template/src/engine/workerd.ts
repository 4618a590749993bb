/// <reference path="./wasm-modules.d.ts" />
/**
 * Cloudflare Workers entry (export condition `workerd`): the engine's `.wasm` is imported
 * statically, so the platform compiles it with the Worker, and it is instantiated synchronously
 * at import: nothing needs awaiting. `compileJsonSchema` needs the validator module as well:
 * `await init({ validator: true })` (a module of its own, imported then).
 */
import * as wasm from '../../wasm/web/understudy.js';
import engineModule from '../../wasm/understudy_bg.wasm';
import { installEngine } from './channel.js';
import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

wasm.initSync({ module: engineModule });
installEngine(wasm);

let validatorReady: Promise<void> | undefined;

/** Loads the validator module with `{ validator: true }`; the engine is already loaded. */
export function init(options?: InitOptions | WasmSource): Promise<void> {
  if (!(typeof options === 'object' && options !== null && (options as InitOptions).validator)) return Promise.resolve();
  validatorReady ??= import('./workerd-validator.js').then(() => undefined);
  return validatorReady;
}

