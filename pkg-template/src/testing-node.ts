/** Node ESM entry of `./testing`: loads the engine, then exports the doubles. */
import './node.js';
import './peers-node.js';
import { watchNodeTest } from './test-names.js';

watchNodeTest();
export * from './testing.js';
