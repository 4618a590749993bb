/**
 * `@understudy/agents/vitest`: add it to vitest's `setupFiles`. It registers the `expect`
 * matchers `toHaveCalledTool`, `toHaveCalledToolTimes`, `toHaveOfferedTools` and
 * `toBeAcceptedBy` and reports each test to the cassettes, so `cassette(factory)` takes its
 * name from the test. It loads the package's root entry (the engine, for `toBeAcceptedBy`;
 * in vitest's browser mode `await init()` first), never the doubles or `@openai/agents`: a
 * project with only the AI SDK (or no test double at all) can set it up for every test file.
 */
import { afterEach, beforeEach, expect } from 'vitest';
// The root entry of the runtime vitest runs in (its export conditions): it loads the engine.
import '@understudy/agents';
import type { SchemaProviderName } from '../engine/codes.js';
import type { ToolSetLike } from '../schema/tools.js';
import { assertToolCalled, assertToolCalledTimes, assertToolsAccepted, assertToolsOffered, toolCallArguments } from '../doubles/assertions.js';
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

/** JSON text as its value, else the text. */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether `value` holds one of vitest's asymmetric matchers (`expect.any(…)`, …), each object looked at once, 32 levels down at most. */
function hasMatcher(value: unknown, depth = 0, seen = new WeakSet<object>()): boolean {
  if (typeof value !== 'object' || value === null || depth > 32 || seen.has(value)) return false;
  seen.add(value);
  if (typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function') return true;
  return Object.values(value).some((v) => hasMatcher(v, depth + 1, seen));
}

/** The message of an assertion that fails, or `undefined` when it passes. */
function failure(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if ((error as Error)?.name !== 'AssertionError') throw error;
    return (error as Error).message;
  }
}

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
  /** Arguments compare with vitest's own equality, so asymmetric matchers (`expect.objectContaining`, `expect.any`) work. */
  toHaveCalledTool(model: object, name: string, args?: unknown) {
    if (args === undefined || (typeof args === 'object' && args !== null && '~standard' in args)) {
      return matcher(() => assertToolCalled(model, name, args), `Expected the model not to call tool "${name}", but it did.`);
    }
    const calls = toolCallArguments('toHaveCalledTool', model, name);
    const wanted = typeof args === 'string' ? parsedOr(args) : args;
    const pass = calls.some((call) => this.equals(call, wanted));
    const printed = this.utils.printExpected(wanted);
    return {
      pass,
      message: () =>
        pass
          ? `Expected the model not to call tool "${name}" with ${printed}, but it did.`
          : calls.length === 0 || !hasMatcher(wanted)
            ? (failure(() => assertToolCalled(model, name, args)) ?? `Expected the model to call tool "${name}" with ${printed}.`)
            : `Expected the model to call tool "${name}" with ${printed}; its calls of "${name}" had:\n${calls.map((c) => `  ${this.utils.printReceived(c)}`).join('\n')}`,
    };
  },
  toHaveCalledToolTimes(model: object, name: string, times: number) {
    return matcher(() => assertToolCalledTimes(model, name, times), `Expected the model not to call tool "${name}" ${times} time${times === 1 ? '' : 's'}, but it did.`);
  },
  toHaveOfferedTools(model: object, names: readonly string[]) {
    return matcher(() => assertToolsOffered(model, names), `Expected the model not to be offered exactly ${JSON.stringify(names)}, but it was.`);
  },
  toBeAcceptedBy(tools: ToolSetLike, providers?: SchemaProviderName | readonly SchemaProviderName[]) {
    return matcher(() => assertToolsAccepted(tools, providers), `Expected a provider to refuse a tool of the set, but ${JSON.stringify(providers ?? ['openai', 'anthropic', 'gemini'])} accept every one.`);
  },
});

/**
 * The matchers' types, for `expect(model).toHaveCalledTool(…)`. vitest's `Matchers` interface
 * changed its type parameters between majors (`Matchers<T>` up to 4, `Matchers<R, T>` from 5),
 * and an augmentation must repeat them exactly, so one declaration cannot serve both. Every
 * vitest assertion is built from Chai's `Assertion` (`VitestAssertion<Chai.Assertion, …>`),
 * whose methods it passes through as they are, and as promises under `.resolves` / `.rejects`:
 * declared there, the matchers return what vitest's own do, in vitest 3, 4 and 5.
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    interface Assertion {
      /**
       * The model (or an AI SDK result's steps) called tool `name`; with `args`, with arguments
       * equal to them by vitest's equality (asymmetric matchers work).
       */
      toHaveCalledTool(name: string, args?: unknown): void;
      /** The model (or an AI SDK result's steps) called tool `name` exactly `times` times. */
      toHaveCalledToolTimes(name: string, times: number): void;
      /** The function tools offered to the model, over all its calls, are exactly `names`. */
      toHaveOfferedTools(names: readonly string[]): void;
      /**
       * Every tool of the set (any form `checkTools` reads) goes to each of `providers`
       * (default: `'openai'`, `'anthropic'`, `'gemini'`, each in the mode its tools declare,
       * else its default; or a mode named, `'anthropic:strict'`): none refused, the set within
       * their request limits.
       */
      toBeAcceptedBy(providers?: SchemaProviderName | readonly SchemaProviderName[]): void;
    }
  }
}
