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

/** What this package uses of `@ai-sdk/provider` where it loads: its error class. */
export interface AiSdkProviderModule {
  APICallError?: new (init: Record<string, unknown>) => Error;
}

/** How the user's `@ai-sdk/provider` loads (the Node entries install it); other runtimes have none. */
let loadAiSdkProvider: (() => Promise<unknown>) | undefined;
let aiSdkProviderModule: Promise<AiSdkProviderModule | undefined> | undefined;

/** Installs how `@ai-sdk/provider` is imported (engine/node.ts): once, on first use. */
export function installAiSdkProvider(load: () => Promise<unknown>): void {
  loadAiSdkProvider = load;
}

/** The user's `@ai-sdk/provider`, imported once where it can be; `undefined` where it is missing. */
export function aiSdkProvider(): Promise<AiSdkProviderModule | undefined> {
  aiSdkProviderModule ??= loadAiSdkProvider === undefined ? Promise.resolve(undefined) : loadAiSdkProvider().then((m) => m as AiSdkProviderModule, () => undefined);
  return aiSdkProviderModule;
}
