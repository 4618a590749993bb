/**
 * What both Node entries do at load, given their `require`: the engine loads synchronously,
 * the validator module on the first `compileJsonSchema`.
 */
import { installEngine, installValidatorLoader } from './core.js';
import { installReadableFromWeb } from './repair.js';
import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

/** Loads the engine with `require` (ES modules pass one from `createRequire`). */
export function installNode(require: NodeJS.Require): void {
  installEngine(require('../wasm/node/understudy.js'));
  installValidatorLoader(() => require('../wasm/node/understudy_validator.js'));
  installReadableFromWeb((stream) => require('node:stream').Readable.fromWeb(stream));
}

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(_options?: InitOptions | WasmSource): Promise<void> {
  return Promise.resolve();
}
