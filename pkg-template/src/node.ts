/** Node entry (ES module): the engine loads synchronously at import, so nothing needs awaiting. */
import { createRequire } from 'node:module';
import { installNode } from './node-install.js';

installNode(createRequire(import.meta.url));
export { init } from './node-install.js';
export type { InitOptions, WasmSource } from './node-install.js';
export * from './entry-exports.js';
