/** The options of every entry's `init` (one type, so isomorphic code type-checks anywhere). */

/** Where a module's `.wasm` comes from: a URL to fetch, its bytes, a response or a compiled module. */
export type WasmSource = string | URL | Request | Response | BufferSource | WebAssembly.Module;

/**
 * Options of `init`. In Node (and Deno, Bun) nothing needs loading: `init` resolves at once and
 * the validator loads on the first `compileJsonSchema`. In Workers the engine is loaded at
 * import and only `validator` matters.
 */
export interface InitOptions {
  /** Also load the validator module (`compileJsonSchema`). Default `false`. */
  validator?: boolean;
  /** Where the engine's `.wasm` comes from (by default next to the package's web build). */
  wasm?: WasmSource;
  /** Where the validator's `.wasm` comes from (by default next to the package's web build). */
  validatorWasm?: WasmSource;
}
