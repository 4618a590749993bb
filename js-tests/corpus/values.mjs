// Values for the schema corpus: one that satisfies a schema, and its variants with one change
// each (shared by the validation tests and bench/).

/** A value that satisfies simple schemas (enough to exercise every keyword of the corpus). */
export function sample(schema, root = schema, depth = 0) {
  if (depth > 8 || typeof schema !== 'object' || schema === null) return null;
  if (schema.$ref) {
    const target = schema.$ref === '#' ? root : schema.$ref.slice(2).split('/').map(decodeURIComponent).reduce((n, t) => n?.[t.replaceAll('~1', '/').replaceAll('~0', '~')], root);
    return sample(target, root, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out = {};
      for (const [k, s] of Object.entries(schema.properties ?? {})) out[k] = sample(s, root, depth + 1);
      return out;
    }
    case 'array':
      return Array.isArray(schema.items) ? schema.items.map((s) => sample(s, root, depth + 1)) : schema.items ? [sample(schema.items, root, depth + 1), sample(schema.items, root, depth + 1)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x'.repeat(Math.max(3, schema.minLength ?? 0));
  }
}


/** `value` with one change at a time: every member and item swapped for values of other kinds, removed, or joined by an extra key. */
export function variants(value) {
  const out = [];
  const others = [null, true, 0, -7, 1.5, 2.0, '', 'x'.repeat(40), [], {}, [1, 'a'], { k: null }];
  const walk = (v, replace) => {
    for (const o of others) out.push(replace(o));
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, (x) => replace(v.map((y, j) => (j === i ? x : y)))));
      out.push(replace([...v, v[0] ?? null]), replace(v.slice(1)));
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        walk(v[k], (x) => replace({ ...v, [k]: x }));
        const { [k]: _, ...rest } = v;
        out.push(replace(rest));
      }
      out.push(replace({ ...v, extra: 1 }));
    }
  };
  walk(value, (x) => x);
  return out;
}
