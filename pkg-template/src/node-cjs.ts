/**
 * Node entry (CommonJS): the engine loads synchronously at `require`; the validator module
 * synchronously on the first `compileJsonSchema`.
 */
import { installEngine, installValidatorLoader } from './core.js';
import { installReadableFromWeb } from './repair.js';
import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

installEngine(require('../wasm/node/understudy.js'));
installValidatorLoader(() => require('../wasm/node/understudy_validator.js'));
installReadableFromWeb((stream) => require('node:stream').Readable.fromWeb(stream));

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(_options?: InitOptions | WasmSource): Promise<void> {
  return Promise.resolve();
}

export * from './entry-exports.js';
