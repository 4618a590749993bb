/**
 * The host's Node built-in modules, where there are any (Node, Deno, Bun, Jest's environments
 * under Node), through `process.getBuiltinModule`: no import, so bundlers for browsers see none.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(id) as T | undefined;
}

/** The host's `TextEncoder` or `TextDecoder`: jsdom (Jest's browser environment) has no global one; Node's util does. */
export function textCodec<K extends 'TextEncoder' | 'TextDecoder'>(name: K): (typeof globalThis)[K] {
  return globalThis[name] ?? nodeBuiltin<typeof import('node:util')>('node:util')![name];
}

/** Node's `Readable.fromWeb`, installed by the Node entries; other runtimes have none. */
let readableFromWeb: ((stream: ReadableStream<string>) => unknown) | undefined;

/** Installs Node's `Readable.fromWeb` (engine/node.ts), which `partialOutput`'s `toTextStream({ compatibleWithNodeStreams: true })` returns through. */
export function installReadableFromWeb(fromWeb: (stream: ReadableStream<string>) => unknown): void {
  readableFromWeb = fromWeb;
}

/** Node's `Readable.fromWeb` where a Node entry installed it. */
export function hostReadableFromWeb(): ((stream: ReadableStream<string>) => unknown) | undefined {
  return readableFromWeb;
}
