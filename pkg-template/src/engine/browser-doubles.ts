/**
 * The doubles module in a browser, imported by the testing entries: `init()` loads it beside
 * the engine. Only the testing entries name its `.wasm`, so a bundle of the root entry leaves
 * it out.
 */
import initDoublesWasm, * as doublesWasm from '../../wasm/web/understudy_doubles.js';
import { load, wantDoubles } from './browser.js';
import { installDoubles } from './channel.js';

wantDoubles((source) => load(initDoublesWasm, source, new URL('../../wasm/understudy_doubles_bg.wasm', import.meta.url)).then(() => installDoubles(doublesWasm)));
