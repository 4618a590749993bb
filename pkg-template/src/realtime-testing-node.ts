/** Node ESM entry of `./realtime/testing`: loads the engine, then exports the transport. */
import './node.js';
export * from './realtime-testing.js';
