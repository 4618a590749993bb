/// <reference path="./wasm-modules.d.ts" />
/** The doubles module for Cloudflare Workers, imported by the testing entries and instantiated at import. */
import * as doublesWasm from '../../wasm/web/understudy_doubles.js';
import doublesModule from '../../wasm/understudy_doubles_bg.wasm';
import { installDoubles } from './channel.js';

doublesWasm.initSync({ module: doublesModule });
installDoubles(doublesWasm);
