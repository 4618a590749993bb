/**
 * A model wrapper for `@openai/agents` runs that repairs tool arguments and the final output as
 * they arrive (`repairingModel`). Only types come from `@openai/agents-core`: no runtime
 * dependency.
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { describeValue } from '../engine/args.js';
import { call } from '../engine/channel.js';
import { Repairs, WITHHELD, joinInto, responseEnd, targetsOf, type Item, type RepairingModelOptions } from './repairs.js';

/**
 * The output items with repaired texts, or `output` itself when nothing changed: each function
 * call against its tool's parameters, and the final output against the output type's schema.
 */
function repairOutput(output: unknown, providerData: unknown, request: ModelRequest, repairs: Repairs): unknown {
  // Without a request object (the inner model accepted one anyway) there are no schemas.
  if (!Array.isArray(output) || typeof request !== 'object' || request === null) return output;
  const tools: Item[] = Array.isArray(request.tools) ? request.tools : [];
  const outputType = request.outputType as Item | string | undefined;
  const json = typeof outputType === 'object' && outputType?.type === 'json_schema';
  const end = responseEnd(providerData);
  let copy: Item[] | undefined;
  const withheld = new Set<number>();
  for (const [entry, where] of targetsOf('agents', output, tools, json)) {
    const item: Item = output[entry!];
    if (typeof where === 'number') {
      const repaired = repairs.handle(tools[where].parameters, item.arguments, item.name, item.callId, end);
      if (repaired === WITHHELD) withheld.add(entry!);
      else if (repaired !== undefined) (copy ??= [...output])[entry!] = { ...item, arguments: repaired };
      continue;
    }
    const repaired = repairs.handle((outputType as Item).schema, where.map((i) => item.content[i].text).join(''), undefined, undefined, end);
    if (typeof repaired === 'string') (copy ??= [...output])[entry!] = { ...item, content: joinInto(item.content, where, 'text', repaired) };
  }
  // A withheld call is not passed on (its arguments are in its refusal).
  if (withheld.size > 0) return (copy ?? output).filter((_, i) => !withheld.has(i));
  return copy ?? output;
}

/**
 * An `@openai/agents` `Model`, by the methods the wrapper calls (typed here by their shape, so
 * the root entry's types need no `@openai/agents`).
 */
export interface AgentsModel {
  getResponse(request: any): Promise<any>;
  getStreamedResponse(request: any): AsyncIterable<any>;
  getRetryAdvice?(request: any): unknown;
}

/** What {@link repairingModel} returns for a model of type `M`: a `Model` with `M`'s methods (`getRetryAdvice` where `M` has it). */
export type RepairedModel<M extends AgentsModel> = Pick<M, Extract<keyof M, 'getResponse' | 'getStreamedResponse' | 'getRetryAdvice'>>;

class RepairingModel implements Model {
  readonly #model: Model;
  readonly #repairs: Repairs;
  constructor(model: Model, repairs: Repairs) {
    this.#model = model;
    this.#repairs = repairs;
    if (typeof model.getRetryAdvice === 'function') {
      Object.defineProperty(this, 'getRetryAdvice', { value: model.getRetryAdvice.bind(model), enumerable: false });
    }
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.#model.getResponse(request);
    const output = repairOutput(response?.output, response?.providerData, request, this.#repairs);
    return output === response?.output ? response : { ...response, output: output as ModelResponse['output'] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.#model.getStreamedResponse(request)) {
      if ((event as Item)?.type !== 'response_done') {
        yield event;
        continue;
      }
      const done = event as Item;
      const output = repairOutput(done.response?.output, done.response?.providerData, request, this.#repairs);
      yield (output === done.response?.output ? event : { ...done, response: { ...done.response, output } }) as StreamEvent;
    }
  }
}

/**
 * A `Model` that forwards every call to `model` and repairs what comes back against the schemas
 * the request carries: a function call's `arguments` that are not JSON conforming to that
 * tool's `parameters`, and, when the request's output type is a JSON schema, the final assistant
 * message's text, become the JSON text of the value `parseStructured` reads. It wraps any
 * `Model`: OpenAI's, a `ScriptedModel`, or `aisdk(...)` of `@openai/agents-extensions`.
 *
 * A text the reply was cut off inside of (the arguments end inside a string, number, literal or
 * open container), and every text of a response that says it was cut off (`status:
 * 'incomplete'`, a finish reason `length`), is left as it came, so the SDK raises its usual
 * error instead of running a tool on an invented value; `options.completeTruncated` opts in.
 * Streamed calls pass their deltas through and repair the `response_done` event. Clean outputs
 * pass untouched. Every repair goes to `options.onRepair`, every text left as it came to
 * `options.onRefusal`.
 *
 * @throws {TypeError} `model` is not a `Model` (no `getResponse` / `getStreamedResponse`), or an option has the wrong type.
 * @throws {UserError} an unknown repair kind in `options.allowFixes`, or a `completeTruncated` that is not `true`, `false` or tool names.
 */
export function repairingModel<M extends AgentsModel>(model: M, options?: RepairingModelOptions): RepairedModel<M> {
  const given = model as unknown as Model;
  if (typeof given !== 'object' || given === null || typeof given.getResponse !== 'function' || typeof given.getStreamedResponse !== 'function') {
    throw new TypeError(`repairingModel: model must be a Model (with getResponse and getStreamedResponse), got ${describeValue(model)}.`);
  }
  return new RepairingModel(given, new Repairs('repairingModel', options)) as unknown as RepairedModel<M>;
}

