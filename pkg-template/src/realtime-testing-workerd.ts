/** Cloudflare Workers entry of `./realtime/testing`: loads the engine, then exports the transport. */
import './workerd.js';
export * from './realtime-testing.js';
