/**
 * What the repairing wrappers share (`repairingModel`, `repairingMiddleware`): their options and
 * reports, the engine's decision for one text, and which texts of an answer to read
 * (src/sap/targets.rs). What counts as broken, what the repaired value is and which fixes were
 * made are the engine's answers; this module finds the texts in the SDK's own shapes and puts
 * the engine's answer back.
 */
import { describeValue, expectKnownOptions } from '../engine/args.js';
import type { CutInside, ParseFixKind, RepairRefusalReason } from '../engine/codes.js';
import { RepairPolicy, type LiveOutput } from './policy.js';
import { call } from '../engine/channel.js';
import type { RepairFix } from '../engine/engine-types.js';

/** One repair a repairing wrapper ({@link repairingModel}, {@link repairingMiddleware}) made. */
export interface RepairReport {
  /** `tool_arguments`: a tool call's arguments; `output`: the final output. */
  kind: 'tool_arguments' | 'output';
  /** The tool, for `tool_arguments`. */
  toolName?: string;
  /** The tool call's id, for `tool_arguments`. */
  callId?: string;
  /**
   * What was repaired, one entry per kind (`kind`, `count`, and each JSON Pointer into the value
   * and each detail once): ten curly-quoted strings are one `curly_quotes` entry, not ten.
   */
  fixes: RepairFix[];
}

/**
 * A text a repairing wrapper left as it came, and why: it ends inside a value (`truncated`,
 * with where), the response says it was cut off (`response_truncated`), or no reading fits the
 * schema (`unreadable`). The SDK then raises its usual error for it, as without the wrapper.
 */
export interface RepairRefusal {
  kind: 'tool_arguments' | 'output';
  toolName?: string;
  callId?: string;
  reason: RepairRefusalReason;
  /** JSON Pointer of the value the text ended inside (for a cut-off text). */
  pointer?: string;
  /** What the text ended inside of (for a cut-off text). */
  inside?: CutInside;
  message: string;
  /**
   * `true` for a tool call of a response that says it was cut off (`length`, `max_tokens`, a
   * content filter) whose arguments are whole JSON: the call is not passed on, so no tool runs
   * on what may be half a call (unless `completeTruncated` names the tool).
   */
  withheld?: true;
  /** The withheld call's arguments as they came. */
  input?: string;
}

/** @internal What {@link Repairs.handle} answers for a call that is not passed on. */
export const WITHHELD: unique symbol = Symbol('withheld');

/** Options of {@link repairingModel} and {@link repairingMiddleware}. Unknown keys are refused. */
export interface RepairingModelOptions {
  /** Called once per repaired text, after the repair. */
  onRepair?: (report: RepairReport) => void;
  /** Called once per text left as it came because it was cut off or could not be read. */
  onRefusal?: (refusal: RepairRefusal) => void;
  /** Accept only these repairs (as in `parseStructured`); a text needing another is left as it was. */
  allowFixes?: readonly ParseFixKind[];
  /**
   * Complete values the reply was cut off inside of: **the rest of such a value is invented**
   * (a cut path `/home/user/tm` stays `/home/user/tm`; open objects are closed without their
   * missing keys). Off by default: a cut-off tool call or final output is left as it came, so
   * the SDK raises its usual error. `true` completes every tool call and the final output; an
   * array completes the calls of the tools it names only (read-only tools, say).
   */
  completeTruncated?: boolean | readonly string[];
}

/** @internal An object of an SDK's shape, read loosely. */
export type Item = Record<string, any>;

/** @internal What a response says of its own end: `[status, finish reason]`. */
export type End = [string | undefined, string | undefined];

/** @internal What the response says of its own end, as it carries it. */
export function responseEnd(data: unknown): End {
  if (typeof data !== 'object' || data === null) return [undefined, undefined];
  const d = data as Item;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const reason =
    text(d.incomplete_details?.reason) ??
    text(Array.isArray(d.choices) ? d.choices[0]?.finish_reason : undefined) ??
    text(d.finish_reason) ??
    text(d.finishReason) ??
    text(d.stop_reason);
  return [text(d.status), reason];
}

/** @internal Checks and holds a wrapper's options; `handle` runs the engine's decision for one text. */
export class Repairs {
  readonly #policy: RepairPolicy;
  readonly #options: RepairingModelOptions;
  constructor(surface: string, options: RepairingModelOptions | undefined) {
    const checked = expectKnownOptions(surface, options, ['onRepair', 'onRefusal', 'allowFixes', 'completeTruncated']);
    for (const name of ['onRepair', 'onRefusal'] as const) {
      if (checked[name] !== undefined && typeof checked[name] !== 'function') {
        throw new TypeError(`${surface}: options.${name} must be a function, got ${describeValue(checked[name])}.`);
      }
    }
    // The engine reads completeTruncated and allowFixes now, not at the first broken reply.
    this.#policy = new RepairPolicy(surface, checked.completeTruncated, checked.allowFixes);
    this.#options = checked;
  }

  /**
   * The text to use instead of `text` (a tool call's arguments when `tool` is its name, else
   * the final output), `undefined` to leave it, or {@link WITHHELD} for a call not to pass on;
   * reports the decision.
   */
  handle(schema: unknown, text: unknown, tool: string | undefined, callId: unknown, end: End, sent = 0, refused?: RepairRefusal[], skip = 0): string | typeof WITHHELD | undefined {
    if (typeof text !== 'string' || typeof schema !== 'object' || schema === null) return undefined;
    const decision = this.#policy.decide(schema, text, tool, end[0], end[1], sent, skip);
    if (decision === undefined) return undefined;
    const kind = tool === undefined ? 'output' : 'tool_arguments';
    const who = tool === undefined ? {} : { toolName: tool, callId: typeof callId === 'string' ? callId : undefined };
    if (decision.refused === undefined) {
      this.#options.onRepair?.({ kind, ...who, fixes: decision.fixes });
      return decision.text;
    }
    const { pointer, inside, message, withheld } = decision;
    const refusal: RepairRefusal = { kind, ...who, reason: decision.refused, ...(pointer === undefined ? {} : { pointer, inside }), message, ...(withheld ? { withheld: true, input: text } : {}) };
    refused?.push(refusal);
    this.#options.onRefusal?.(refusal);
    return withheld ? WITHHELD : undefined;
  }

  /** A reader of a streamed JSON output: how much may be sent on as it arrives (`RepairPolicy.liveOutput`). */
  liveOutput(schema: object): LiveOutput {
    return this.#policy.liveOutput(schema);
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** @internal A text to read (src/sap/targets.rs): `[entry, tool]` for a call, `[entry, parts]` for the output. */
export type Target = [number, number] | [number | null, number[]];

/**
 * @internal The texts a repairing wrapper reads in `entries` (a response's output items, or an AI SDK
 * result's content parts) with `tools` offered and `json` asked for: the engine decides from
 * their shape, read here in one pass.
 */
export function targetsOf(source: 'agents' | 'aiSdk', entries: Item[], tools: Item[], json: boolean): Target[] {
  const shape = [
    source,
    json,
    entries.map((e: Item) => [
      text(e?.type),
      text(source === 'agents' ? e?.name : e?.toolName),
      text(e?.namespace),
      text(e?.role),
      Array.isArray(e?.content) ? e.content.map((part: Item) => text(part?.type)) : null,
      e?.providerExecuted === true,
    ]),
    tools.map((t: Item) => [text(t?.type), text(t?.name), text(t?.namespace)]),
  ];
  return JSON.parse(call((e) => e.repairTargets(JSON.stringify(shape))));
}

/** @internal `parts` with the first of `joined` holding `value` under `key` and the other joined ones dropped. */
export function joinInto(parts: Item[], joined: number[], key: string, value: string): Item[] {
  return parts.flatMap((part, i) => (i === joined[0] ? [{ ...part, [key]: value }] : joined.includes(i) ? [] : [part]));
}

