/**
 * The engine's decisions for a repairing wrapper (src/sap/repair.rs): whether a text is left,
 * repaired, or refused because the reply was cut off, and how much of a stream may be sent on.
 */
import type { RepairFix } from '../engine/engine-types.js';
import type { CutInside, RepairRefusalReason } from '../engine/codes.js';
import { EngineOwner, call, input } from '../engine/channel.js';
import { structuredParser, type BoundParser } from './parse.js';
import type { JsonSchema } from '../schema/argument.js';
type RepairerHandle = import('../../wasm/node/understudy.js').Repairer;
type LiveOutputHandle = import('../../wasm/node/understudy.js').LiveOutput;

/**
 * @internal One streamed JSON output, read by the engine as its deltas arrive
 * (src/sap/stream/live.rs): each delta crosses once, and the work per delta stays proportional
 * to it. Free it when the stream ends.
 */
export class LiveOutput extends EngineOwner<LiveOutputHandle> {
  /** Appends `delta`; answers how much of the text so far (UTF-16 code units) may be sent on. */
  push(delta: string): number {
    return call(() => this.live().pushInput(input(delta)));
  }
  /** Where what may be sent begins (UTF-16 code units): after a leading code fence's first line, else 0. */
  skip(): number {
    return this.live().skip();
  }
}

/**
 * @internal What a repairing wrapper does with a text (src/sap/repair.rs `decision_text`):
 * replace it (`text`, `fixes`) or leave it and say why (`refused`).
 */
export type RepairDecision =
  | { text: string; fixes: RepairFix[]; refused?: undefined }
  | { refused: RepairRefusalReason; pointer?: string; inside?: CutInside; message: string; withheld?: true };

/**
 * @internal The engine's decisions for a repairing wrapper under its options: whether a text is
 * left, repaired, or refused because the reply was cut off.
 */
export class RepairPolicy extends EngineOwner<RepairerHandle> {
  /** Parsers by schema object: the SDKs hand the same schemas turn after turn. */
  readonly #parsers = new WeakMap<object, BoundParser<unknown>>();
  readonly #surface: string;
  constructor(surface: string, completeTruncated: unknown, allowFixes: unknown) {
    super(call((e) => new e.Repairer(surface, completeTruncated, allowFixes)), 'repair policy');
    this.#surface = surface;
  }
  /**
   * `undefined` to leave `text` as it is. `tool`: the tool whose arguments these are
   * (`undefined`: a final output); `status` / `reason`: what the response says of its end.
   */
  decide(schema: object, text: string, tool: string | undefined, status: string | undefined, reason: string | undefined, sent = 0, skip = 0): RepairDecision | undefined {
    const handle = this.#parser(schema).engineHandle();
    const answer = call(() => this.live().decideInput(handle, input(text), tool, status, reason, sent, skip));
    return answer === undefined ? undefined : JSON.parse(answer);
  }
  /**
   * A reader of a streamed JSON output against `schema`: how much of it may be sent on as it
   * arrives, a prefix that needs no repair, cut where the repaired value can continue it.
   */
  liveOutput(schema: object): LiveOutput {
    const handle = this.#parser(schema).engineHandle();
    return new LiveOutput(call(() => this.live().liveOutput(handle)), 'streamed output reader');
  }
  #parser(schema: object): BoundParser<unknown> {
    let parser = this.#parsers.get(schema);
    if (parser === undefined) {
      parser = structuredParser(schema as JsonSchema, this.#surface) as BoundParser<unknown>;
      this.#parsers.set(schema, parser);
    }
    return parser;
  }
}

