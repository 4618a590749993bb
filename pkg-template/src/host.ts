/**
 * The host's Node built-in modules, where there are any (Node, Deno, Bun, Jest's environments
 * under Node), through `process.getBuiltinModule`: no import, so bundlers for browsers see none.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(id) as T | undefined;
}
