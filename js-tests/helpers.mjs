// Small helpers shared by the suites.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `{ ok: true, value }` or `{ ok: false, error }`: what running `run` did. */
export function outcome(run) {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The value `run` throws; fails the test when it returns. */
export function thrown(run) {
  const result = outcome(run);
  if (result.ok) assert.fail('did not throw');
  return result.error;
}

/** What an error looks like to a differential test: class, name, message and own fields in order. */
export function errorShape(error) {
  if (!(error instanceof Error)) return { thrownValue: error };
  const fields = {};
  for (const key of Object.keys(error)) fields[key] = error[key];
  return {
    class: error.constructor.name,
    name: error.name,
    message: error.message,
    keys: Object.keys(error),
    fields,
    // How it was built: own names (`stack`, `message`) in order, the class's own prototype,
    // which lists are frozen, and the stack's first line.
    ownNames: Object.getOwnPropertyNames(error),
    ownPrototype: Object.getPrototypeOf(error) === error.constructor.prototype,
    frozenLists: Object.keys(error).filter((key) => Array.isArray(error[key]) && Object.isFrozen(error[key])),
    stackHead: String(error.stack).split('\n')[0],
  };
}

/**
 * `same(scenario)` for a differential suite: runs `scenario(T, trace)` against the reference
 * module and ours, turning a throw (sync or async) into its `errorShape`, and asserts both
 * outcomes and traces are deeply equal. Returns ours.
 */
export function differential(reference, ours) {
  async function run(scenario, T) {
    const trace = [];
    try {
      return { value: await scenario(T, trace), trace };
    } catch (error) {
      return { threw: errorShape(error), trace };
    }
  }
  return async function same(scenario) {
    const expected = await run(scenario, reference);
    const actual = await run(scenario, ours);
    assert.deepStrictEqual(actual, expected);
    return actual;
  };
}

/** The first line `child` prints. */
export async function firstLine(child) {
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) return out.split('\n')[0];
  }
  throw new Error(`the command printed no line; stderr: ${child.stderr.read()}`);
}

/** Runs the built `understudy serve …args` in a child process (port 0); resolves to it and its URL. */
export async function serveCommand(args) {
  const bin = fileURLToPath(new URL('../build/npm/esm-node/cli.js', import.meta.url));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const server = spawn(process.execPath, [bin, 'serve', ...args, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.setEncoding('utf8');
  return { server, url: await firstLine(server) };
}
