/** Node entry (CommonJS): the engine loads synchronously at `require`. */
import { installNode } from './node-install.js';

installNode(require);
export { init } from './node-install.js';
export type { InitOptions, WasmSource } from './node-install.js';
export * from './entry-exports.js';
