/**
 * The test that is running, for cassettes that take their name from it. A test framework
 * adapter reports each test as it starts (node:test through a top-level `beforeEach` the Node
 * testing entry registers under `node --test`; vitest through `@understudy/agents/vitest`).
 */

/** The running test: its file and its full name (`suite > test`). */
export interface RunningTest {
  file: string;
  fullName: string;
}

/**
 * The running test and the cassettes it made so far (for `-2`, `-3`, …), kept on the global
 * object: a test runner may load this package twice (vitest's setup file and a test file can
 * get separate module instances), and both must see the same test.
 */
const state: { running: RunningTest | undefined; made: number } = ((globalThis as any)[Symbol.for('@understudy/agents.running-test')] ??= {
  running: undefined,
  made: 0,
});

/** @internal A test starts (`undefined`: none is running). */
export function setRunningTest(test: RunningTest | undefined): void {
  state.running = test;
  state.made = 0;
}

/** @internal The running test and how many cassettes it made before this one. */
export function takeCassetteSlot(): { test: RunningTest; index: number } | undefined {
  if (state.running === undefined) return undefined;
  return { test: state.running, index: state.made++ };
}

/**
 * Node's default test file patterns (`*.test.mjs`, `*-test.js`, `*_test.cjs`, `test-*.js`,
 * `test.js`, files under a `test` folder), TypeScript extensions included.
 */
const TEST_FILE = /(?:^|[\\/])(?:[^\\/]*[.\-_]test|test-[^\\/]*|test)\.[cm]?[jt]sx?$|[\\/]test[\\/]/;

/**
 * Registers the node:test hook, only in a test file's process under `node --test`
 * (`NODE_TEST_CONTEXT` set, and the main script named as a test file: processes that a test
 * starts inherit the variable, and a hook there would start a test run of their own).
 */
export function watchNodeTest(): void {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined>; argv?: string[]; getBuiltinModule?: (id: string) => unknown } }).process;
  if (proc?.env?.NODE_TEST_CONTEXT === undefined || typeof proc.getBuiltinModule !== 'function') return;
  if (!TEST_FILE.test(proc.argv?.[1] ?? '')) return;
  const nodeTest = proc.getBuiltinModule('node:test') as
    | { beforeEach?: (fn: (t: { name: string; fullName?: string }) => void) => void; afterEach?: (fn: () => void) => void }
    | undefined;
  const file = proc.argv?.[1];
  if (typeof nodeTest?.beforeEach !== 'function' || file === undefined) return;
  nodeTest.beforeEach((t) => setRunningTest({ file, fullName: t.fullName ?? t.name }));
  nodeTest.afterEach?.(() => setRunningTest(undefined));
}
