// Shared helpers: time a function for a fixed wall-clock budget and report ops/s.
export function measure(fn, { ms = 400, warmup = 100 } = {}) {
  const warmEnd = performance.now() + warmup;
  let warmCalls = 0;
  while (performance.now() < warmEnd) {
    fn();
    warmCalls++;
  }
  // Calls between clock reads: 16, or one for a call slower than the warmup (a whole second of
  // jsonrepair on a megabyte would otherwise run 16 times per sample).
  const batch = warmCalls > 1 ? 16 : 1;
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) fn();
    ops += batch;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Runs each contender in alternation, `rounds` times, and returns the median ops/s of each. */
export function compare(contenders, options) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < (options?.rounds ?? 5); r++) {
    for (const [name, fn] of Object.entries(contenders)) samples[name].push(measure(fn, options));
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [name, s.sort((a, b) => a - b)[Math.floor(s.length / 2)]]),
  );
}

export const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
