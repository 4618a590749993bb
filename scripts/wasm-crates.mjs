// What each crate contributes to a wasm module: the code bytes of its functions, by the name
// section rustc's linker writes (mangled names such as `_ZN10jsonschema8keywords…`), plus the
// data segments. Run on the module cargo built, before wasm-opt and wasm-bindgen drop names:
//   node scripts/wasm-crates.mjs target/wasm-modules/understudy.wasm
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function reader(bytes) {
  let at = 0;
  const r = {
    get at() {
      return at;
    },
    set at(v) {
      at = v;
    },
    u8: () => bytes[at++],
    u32() {
      let result = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++];
        result += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return result;
        shift += 7;
      }
    },
    /** A table's or memory's limits: flags, minimum, and a maximum when flag 1 says so. */
    limits() {
      const flags = r.u8();
      r.u32();
      if (flags & 1) r.u32();
    },
    name() {
      const n = r.u32();
      const text = new TextDecoder().decode(bytes.subarray(at, at + n));
      at += n;
      return text;
    },
  };
  return r;
}

/** The path segments of a legacy-mangled Rust symbol (`_ZN10jsonschema8keywords…E`). */
function segments(symbol) {
  const out = [];
  let at = 3;
  while (at < symbol.length && symbol[at] !== 'E') {
    const digits = symbol.slice(at).match(/^\d+/);
    if (!digits) break;
    at += digits[0].length;
    out.push(symbol.slice(at, at + Number(digits[0])));
    at += Number(digits[0]);
  }
  return out;
}

/** The crate of a path as the mangling spells it, after `<`, `&`, `*const ` and the like. */
function leadingCrate(text) {
  const t = text
    .replace(/\$LT\$/g, '<')
    .replace(/\$GT\$/g, '>')
    .replace(/\$RF\$/g, '&')
    .replace(/\$BP\$/g, '*')
    .replace(/\$u20\$/g, ' ')
    .replace(/\.\./g, '::')
    .replace(/^_/, '')
    .replace(/^(?:[<&*(\[ ]|mut |const |dyn )+/, '');
  return t.match(/^([A-Za-z_][A-Za-z0-9_]*)/)?.[1];
}

/**
 * The crate a function belongs to: the type's crate for a trait impl (`<jsonschema::X as
 * core::fmt::Debug>::fmt`) and for a drop (`core::ptr::drop_in_place<regex::Regex>`).
 */
export function crateOf(symbol) {
  // v0 mangling (the prebuilt standard library): the first crate root, `C[s<hash>_]<len><name>`.
  if (symbol.startsWith('_R')) {
    const m = symbol.match(/C(?:s[0-9A-Za-z]*_)?(\d+)/);
    if (!m) return '(other)';
    const start = m.index + m[0].length;
    return symbol.slice(start, start + Number(m[1])).replace(/^_+/, '') || '(other)';
  }
  // wasm-bindgen's export shims (`compileSchema_1db3…`) wrap our functions.
  if (/^[A-Za-z][A-Za-z0-9]*_[0-9a-f]{16}$/.test(symbol)) return 'understudy (ours)';
  if (!symbol.startsWith('_ZN')) return '(other)';
  const parts = segments(symbol);
  if (parts.length === 0) return '(other)';
  let crate = leadingCrate(parts[0]);
  if (crate === 'core' && parts[1] === 'ptr' && parts[2]?.startsWith('drop_in_place')) {
    crate = leadingCrate(parts[2].slice('drop_in_place'.length)) ?? crate;
  }
  if (crate === undefined || crate === 'T') return '(generic)';
  return crate === 'understudy' ? 'understudy (ours)' : crate;
}

/** Bytes by crate: `{ crate: bytes }`, with `(data)` for data segments. */
export function crateSizes(bytes) {
  const r = reader(bytes);
  r.at = 8;
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let data = 0;
  while (r.at < bytes.length) {
    const id = r.u8();
    const size = r.u32();
    const end = r.at + size;
    if (id === 2) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        r.name();
        r.name();
        const kind = r.u8();
        if (kind === 0) {
          r.u32();
          imported++;
        } else if (kind === 1) {
          r.u8(); // the table's element type
          r.limits();
        } else if (kind === 2) {
          r.limits();
        } else if (kind === 3) {
          r.u8();
          r.u8();
        } else {
          r.u8();
          r.u32();
        }
      }
    } else if (id === 10) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        const len = r.u32();
        bodies.push(len);
        r.at += len;
      }
    } else if (id === 11) {
      data += size;
    } else if (id === 0 && r.name() === 'name') {
      while (r.at < end) {
        const sub = r.u8();
        const subSize = r.u32();
        const subEnd = r.at + subSize;
        if (sub === 1) {
          const count = r.u32();
          for (let i = 0; i < count; i++) {
            const index = r.u32();
            names.set(index, r.name());
          }
        }
        r.at = subEnd;
      }
    }
    r.at = end;
  }
  const sizes = { '(data)': data };
  bodies.forEach((len, i) => {
    const name = names.get(imported + i);
    const crate = name === undefined ? '(unnamed)' : crateOf(name);
    sizes[crate] = (sizes[crate] ?? 0) + len;
  });
  return sizes;
}

/** A table of the crates, largest first; small ones are summed into one line. */
export function formatCrateSizes(sizes, min = 8 * 1024) {
  const entries = Object.entries(sizes).sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const kib = (n) => `${(n / 1024).toFixed(1).padStart(8)} KiB`;
  const lines = [];
  let rest = 0;
  let restCount = 0;
  for (const [crate, n] of entries) {
    if (n < min) {
      rest += n;
      restCount++;
    } else {
      lines.push(`  ${crate.padEnd(24)}${kib(n)}  ${((100 * n) / total).toFixed(1).padStart(5)}%`);
    }
  }
  if (restCount) lines.push(`  ${`(${restCount} more)`.padEnd(24)}${kib(rest)}  ${((100 * rest) / total).toFixed(1).padStart(5)}%`);
  lines.push(`  ${'total'.padEnd(24)}${kib(total)}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) console.log(`${file}\n${formatCrateSizes(crateSizes(readFileSync(file)))}`);
}
