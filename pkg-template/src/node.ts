/**
 * Node entry (ES module): the engine loads synchronously at import, so nothing needs awaiting;
 * the validator module loads synchronously on the first `compileJsonSchema`.
 */
import { createRequire } from 'node:module';
import { installEngine, installValidatorLoader } from './core.js';
import { installReadableFromWeb } from './repair.js';
import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

const require = createRequire(import.meta.url);
installEngine(require('../wasm/node/understudy.js'));
installValidatorLoader(() => require('../wasm/node/understudy_validator.js'));
installReadableFromWeb((stream) => require('node:stream').Readable.fromWeb(stream));

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(_options?: InitOptions | WasmSource): Promise<void> {
  return Promise.resolve();
}

export * from './entry-exports.js';
