/** Node CommonJS entry of `./realtime/testing`: loads the engine, then exports the transport. */
import './node-cjs.js';
export * from './realtime-testing.js';
