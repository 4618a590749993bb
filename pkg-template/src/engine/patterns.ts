/**
 * The host's `RegExp` where the engine asks for it: cassette redaction patterns
 * (src/doubles/redaction/, `PatternHost`) and the validator's patterns (src/wasm/validator.rs,
 * `HostRegExps`).
 */
import { textCodec } from './host.js';
import { messageOf } from './standard-call.js';

// --- redaction patterns (src/doubles/cassette.rs `PatternHost`) --------------------------------

/** Compiled patterns by flags and source; bounded like the engine's native cache. */
const patternCache = new Map<string, RegExp>();

function pattern(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let re = patternCache.get(key);
  if (re === undefined) {
    if (patternCache.size >= 64) patternCache.clear();
    re = new RegExp(source, `g${flags}`);
    patternCache.set(key, re);
  }
  return re;
}

/** `undefined` when every pattern compiles, else `[index, message]` of the first that does not. */
export function checkPatterns(sources: string[], flags: string[]): [number, string] | undefined {
  for (let i = 0; i < sources.length; i++) {
    try {
      pattern(sources[i]!, flags[i]!);
    } catch (thrown) {
      return [i, messageOf(thrown)];
    }
  }
  return undefined;
}

/** Patterns as the engine hands them over: sources, flags, and whether groups 1 and 2 stay. */
type PatternSpec = [string[], string[], boolean[]];

/** Whether an `allow` pattern finds something in `text`. */
function allowedBy(allow: RegExp[], text: string): boolean {
  return allow.some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

/**
 * Each text with every match of every pattern replaced by `replacement` (literally: a function
 * replacer, so `$` in it means nothing; between groups 1 and 2 for a `keep` pattern), pattern
 * after pattern, except a match an `allow` pattern finds something in: `undefined` where
 * nothing was replaced, else `[replaced, ...taken]`, `taken` being what each replacement took
 * out (the engine takes it out wherever else it stands).
 */
export function redactTexts(texts: string[], [sources, flags, keeps]: PatternSpec, replacement: string, [allowSources, allowFlags]: PatternSpec): (string[] | undefined)[] {
  const res = sources.map((s, i) => pattern(s, flags[i]!));
  const allow = allowSources.map((s, i) => pattern(s, allowFlags[i]!));
  return texts.map((text) => {
    let out: string[] | undefined;
    res.forEach((re, i) => {
      re.lastIndex = 0;
      const current = out?.[0] ?? text;
      if (!re.test(current)) return;
      re.lastIndex = 0;
      const taken: string[] = [];
      const replaced = current.replace(re, (whole: string, ...groups: unknown[]) => {
        if (allow.length > 0 && allowedBy(allow, whole)) return whole;
        if (!keeps[i]) {
          taken.push(whole);
          return replacement;
        }
        const group = (g: unknown) => (typeof g === 'string' ? g : '');
        const [before, after] = [group(groups[0]), group(groups[1])];
        taken.push(whole.slice(before.length, whole.length - after.length));
        return `${before}${replacement}${after}`;
      });
      if (replaced !== current) out = [replaced, ...(out?.slice(1) ?? []), ...taken];
    });
    return out;
  });
}

/** `[text, pattern]` of the first match no `allow` pattern finds anything in; `undefined` for none. */
export function findSecret(texts: string[], [sources, flags]: PatternSpec, [allowSources, allowFlags]: PatternSpec): [number, number] | undefined {
  const res = sources.map((s, i) => pattern(s, flags[i]!));
  const allow = allowSources.map((s, i) => pattern(s, allowFlags[i]!));
  for (let t = 0; t < texts.length; t++) {
    for (let p = 0; p < res.length; p++) {
      const re = res[p]!;
      re.lastIndex = 0;
      for (let m = re.exec(texts[t]!); m !== null; m = re.exec(texts[t]!)) {
        if (!allowedBy(allow, m[0])) return [t, p];
        if (m[0] === '') re.lastIndex++;
      }
    }
  }
  return undefined;
}

// --- the validator's patterns (src/wasm/validator.rs, `HostRegExps`) ---------------------------

let utf8: TextDecoder | undefined;
/** The host's TextDecoder, made when first needed. */
function decoder(): TextDecoder {
  utf8 ??= new (textCodec('TextDecoder'))();
  return utf8;
}

/** The UTF-8 text at `ptr` when it is short and ASCII (no decoder call), else `undefined`. */
function shortAscii(bytes: Uint8Array, ptr: number, len: number): string | undefined {
  if (len > 64) return undefined;
  let text = '';
  for (let i = ptr, end = ptr + len; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return undefined;
    text += String.fromCharCode(b);
  }
  return text;
}

/**
 * The validator module's compiled patterns: the host's `RegExp`s at the handles the engine hands
 * out. The engine decides the flags and what a refusal or a failure means; this table compiles,
 * reads a tested text out of the module's memory (ASCII without a decoder call) and tests, so
 * a match crosses with three numbers. Nothing here throws into the engine: a failure answers
 * `false`, its message in `error`.
 */
export class PatternTable {
  error = '';
  readonly #regexps: (RegExp | undefined)[] = [];
  readonly #memory: WebAssembly.Memory;
  #bytes = new Uint8Array(0);

  constructor(memory: WebAssembly.Memory) {
    this.#memory = memory;
  }

  compile(handle: number, source: string, flags: string): boolean {
    try {
      this.#regexps[handle] = new RegExp(source, flags);
      return true;
    } catch (thrown) {
      this.error = messageOf(thrown);
      return false;
    }
  }

  test(handle: number, ptr: number, len: number): boolean {
    try {
      let bytes = this.#bytes;
      // A grown memory detaches the view.
      if (bytes.buffer !== this.#memory.buffer) bytes = this.#bytes = new Uint8Array(this.#memory.buffer);
      const text = shortAscii(bytes, ptr, len) ?? decoder().decode(bytes.subarray(ptr, ptr + len));
      return this.#regexps[handle]!.test(text);
    } catch (thrown) {
      this.error = messageOf(thrown);
      return false;
    }
  }

  release(handle: number): void {
    this.#regexps[handle] = undefined;
  }
}
