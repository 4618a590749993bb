/** Node ESM entry of `./testing`: loads the engine, then exports the doubles. */
import './node.js';
export * from './testing.js';
