/** The base of the library's configuration errors, and how a generated class takes its fields. */
import { expectFields } from './args.js';

/** A configuration problem: a schema or option the library cannot use. */
export class UserError extends Error {
  /** Kept for parity with `@openai/agents-core`'s `UserError`. */
  state?: unknown;
  constructor(message: string, state?: unknown) {
    super(message);
    this.name = new.target.name;
    this.state = state;
  }
}

/** @internal Puts an error's fields (an object, else a `TypeError` naming the class) on it. */
export function adopt(error: Error, name: string, fields: object): void {
  Object.assign(error, expectFields(name, fields));
}
