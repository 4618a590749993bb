/**
 * Node entry (ES module): the engine loads synchronously at import, so nothing needs awaiting.
 */
import { createRequire } from 'node:module';
import { installEngine } from './core.js';

installEngine(createRequire(import.meta.url)('../wasm/node/understudy.js'));

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(): Promise<void> {
  return Promise.resolve();
}

export * from './entry-exports.js';
