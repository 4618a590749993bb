/** Node CommonJS entry of `./testing`: loads the engine, then exports the doubles. */
import './node-cjs.js';
import './peers-cjs.js';
import { watchNodeTest } from './test-names.js';

watchNodeTest();
export * from './testing.js';
