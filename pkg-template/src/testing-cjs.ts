/** Node CommonJS entry of `./testing`: loads the engine, then exports the doubles. */
import './node-cjs.js';
export * from './testing.js';
