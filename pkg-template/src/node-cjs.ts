/**
 * Node entry (CommonJS): the engine loads synchronously at `require`.
 */
import { installEngine } from './core.js';

installEngine(require('../wasm/node/understudy.js'));

/** Already initialized in Node; provided so isomorphic code can always `await init()`. */
export function init(): Promise<void> {
  return Promise.resolve();
}

export * from './entry-exports.js';
