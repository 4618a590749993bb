/** A `.wasm` file imported as a module: Cloudflare Workers (workerd) compile it at load. */
declare module '*.wasm' {
  const compiled: WebAssembly.Module;
  export default compiled;
}
