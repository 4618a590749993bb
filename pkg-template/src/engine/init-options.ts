/** The options of every entry's `init` (one type, so isomorphic code type-checks anywhere). */

/**
 * Where a module's `.wasm` comes from: a URL to fetch (a string or a `URL`), its bytes (an
 * `ArrayBuffer` or a view), a `Request` or `Response`, or a compiled `WebAssembly.Module`. Written
 * without DOM types, so the declarations compile in a Node project whose `lib` has none.
 */
export type WasmSource = string | ArrayBuffer | ArrayBufferView | object;

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
  /** Where the doubles module's `.wasm` comes from, once a testing entry is imported (by default next to the package's web build). */
  doublesWasm?: WasmSource;
  /** Where the validator's `.wasm` comes from (by default next to the package's web build). */
  validatorWasm?: WasmSource;
}
