/**
 * What both Node root entries do at load, given their `require`: the engine loads
 * synchronously, the doubles module on a double's first call, the validator module on the
 * first `compileJsonSchema`. The glue's paths are
 * resolved by the caller's `require`, so they are relative to the root entry file (`esm/`,
 * `cjs/`, or the bundle's `esm-node/`), one folder below the package root.
 */
import { installDoublesLoader, installEngine, installValidatorLoader } from './channel.js';
import { installAiSdkProvider, installReadableFromWeb } from './host.js';
import type { InitOptions, WasmSource } from './init-options.js';

export type { InitOptions, WasmSource } from './init-options.js';

/** Loads the engine with `require` (ES modules pass one from `createRequire`). */
export function installNode(require: NodeJS.Require): void {
  installEngine(require('../wasm/node/understudy.js'));
  installDoublesLoader(() => require('../wasm/node/understudy_doubles.js'));
  installValidatorLoader(() => require('../wasm/node/understudy_validator.js'));
  installReadableFromWeb((stream) => require('node:stream').Readable.fromWeb(stream));
  // Types only at build time: an optional peer, imported where the user has it (the AI SDK
  // double throws its APICallError class then).
  installAiSdkProvider(() => import('@ai-sdk/provider' as string));
}

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(_options?: InitOptions | WasmSource): Promise<void> {
  return Promise.resolve();
}
