/**
 * Browser entry: `await init()` once before calling anything (it fetches and compiles the
 * wasm; later calls return the same promise).
 */
import initWasm, * as wasm from '../wasm/web/understudy.js';
import { installEngine } from './core.js';

let ready: Promise<void> | undefined;

/**
 * Loads the engine. Idempotent: every call returns the same promise. `wasmUrl` overrides where
 * the `.wasm` file is fetched from (by default next to the package's web build).
 */
export function init(wasmUrl?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void> {
  ready ??= initWasm(wasmUrl === undefined ? undefined : { module_or_path: wasmUrl }).then(() => installEngine(wasm));
  return ready;
}

export * from './entry-exports.js';
