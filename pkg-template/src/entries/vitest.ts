/**
 * `@understudy/agents/vitest`: add it to vitest's `setupFiles`. Its entry file loads the testing
 * entry first (scripts/entries.mjs); this module registers the `expect` matchers
 * `toHaveCalledTool` and `toHaveOfferedTools` and reports each test to the cassettes, so
 * `cassette(factory)` takes its name from the test.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { assertToolCalled, assertToolsOffered } from '../doubles/assertions.js';
import { setRunningTest } from '../doubles/test-names.js';

type Task = { name: string; suite?: Task; file?: { filepath: string }; filepath?: string };

/** `describe > … > test`: the task and its suites, without the file's own suite. */
function fullName(task: Task): string {
  const names: string[] = [];
  for (let t: Task | undefined = task; t !== undefined && t.filepath === undefined; t = t.suite) if (t.name) names.unshift(t.name);
  return names.join(' > ') || task.name;
}

beforeEach((context) => {
  const task = context.task as unknown as Task;
  const file = task.file?.filepath;
  if (file !== undefined) setRunningTest({ file, fullName: fullName(task) });
});
afterEach(() => setRunningTest(undefined));

function matcher(check: () => void, negated: string) {
  try {
    check();
    return { pass: true, message: () => negated };
  } catch (error) {
    if ((error as Error)?.name !== 'AssertionError') throw error;
    return { pass: false, message: () => (error as Error).message };
  }
}

expect.extend({
  toHaveCalledTool(model: object, name: string, args?: unknown) {
    return matcher(() => assertToolCalled(model, name, args), `Expected the model not to call tool "${name}"${args === undefined ? '' : ` with ${JSON.stringify(args)}`}, but it did.`);
  },
  toHaveOfferedTools(model: object, names: readonly string[]) {
    return matcher(() => assertToolsOffered(model, names), `Expected the model not to be offered exactly ${JSON.stringify(names)}, but it was.`);
  },
});

/**
 * The matchers' types, for `expect(model).toHaveCalledTool(…)`: vitest's `Matchers` is the
 * interface it merges into every assertion (its documented way to type custom matchers).
 */
declare module 'vitest' {
  interface Matchers<T = any> {
    /** The model called tool `name` (with `args`, compared as JSON, when given). */
    toHaveCalledTool(name: string, args?: unknown): T;
    /** The function tools offered to the model, over all its calls, are exactly `names`. */
    toHaveOfferedTools(names: readonly string[]): T;
  }
}
