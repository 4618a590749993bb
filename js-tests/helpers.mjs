// Small helpers shared by the suites.
import assert from 'node:assert/strict';

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
