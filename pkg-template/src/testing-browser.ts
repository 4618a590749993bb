/** Browser entry of `./testing` (and the default): the SDK's classes, then the doubles. */
import './peers-bundled.js';
export * from './testing.js';
