/**
 * The Standard Schema call the engine runs in JavaScript (src/wasm/standard.rs), in one
 * crossing: `validate` called as the reference calls it, its issues read in the reference's order.
 * It decides nothing; the engine decides what the result means.
 */
import { StandardOutcome } from './codes.js';

let standardPayload: unknown;

/**
 * Runs the reference's own expression (so a wrong schema gets its TypeError word for word) and
 * reads the result as a {@link StandardOutcome}; the value, the thenable or the issues wait for
 * {@link takeStandardPayload}.
 */
export function standardCall(schema: any, value: unknown): number {
  const result = schema['~standard'].validate(value);
  if ((typeof result === 'object' || typeof result === 'function') && result !== null && typeof result.then === 'function') {
    standardPayload = result;
    return StandardOutcome.Thenable;
  }
  const issues = result.issues;
  if (issues) {
    standardPayload = issues;
    return StandardOutcome.Issues;
  }
  standardPayload = result.value;
  return StandardOutcome.Value;
}

export function takeStandardPayload(): unknown {
  const payload = standardPayload;
  standardPayload = undefined;
  return payload;
}

/**
 * The texts of a Standard Schema's issues, read in one pass as the reference reads them (in
 * its order: each issue's `path`, a segment object's `key`, then its `message`, each as
 * `String()` gives it), encoded for the engine, which builds the message from them
 * (src/wasm/standard.rs `issue_texts`): per issue a field with the number of path segments
 * (empty without a path; `!` appended when the message was nullish), the segments, and the
 * message, each field `<length>:<text>`. Not an array of issues, a nullish issue or a `path`
 * that is not an array throw the reference's TypeErrors; what user code throws passes through.
 */
export function issueTexts(issues: unknown): string {
  if (!Array.isArray(issues)) throw new TypeError('result.issues.map is not a function');
  const field = (text: string) => `${text.length}:${text}`;
  let out = '';
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i];
    // Reading a property of a nullish issue throws the TypeError the reference's read throws.
    const path: unknown = issue.path;
    let segments = '';
    let count = '';
    if (path !== null && path !== undefined) {
      if (!Array.isArray(path)) throw new TypeError('issue.path.map is not a function');
      count = String(path.length);
      for (let j = 0; j < path.length; j++) {
        const segment: unknown = path[j];
        segments += field(String(typeof segment === 'object' && segment !== null ? (segment as { key?: unknown }).key : segment));
      }
    }
    const message: unknown = issue.message;
    out += field(message === null || message === undefined ? `${count}!` : count) + segments + field(String(message));
  }
  return out;
}

/** @internal What a caught exception says: an Error's message, or the value as a string. */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

