/** Cloudflare Workers entry of `./testing`: loads the engine, then exports the doubles. */
import './workerd.js';
import './peers-bundled.js';
export * from './testing.js';
