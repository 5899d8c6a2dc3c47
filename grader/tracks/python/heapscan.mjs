// Which array handles the Python side may still reach, read from the interpreter's memory while a
// call runs (./bridge.mjs frees the others, so that a loop of many small operations keeps only what it
// uses). Why here and not by Python's garbage collector: MicroPython's WebAssembly build (the pyscript
// variant, MICROPY_GC_SPLIT_HEAP_AUTO) never collects while a call from JavaScript runs: gc.collect()
// only marks a collection as pending, done when the call returns to JavaScript, and a full heap grows
// instead. No finaliser (JsProxy's `__del__` included) can therefore run during one call.
//
// What this does instead is the marking half of MicroPython's own collector, read-only, in JavaScript,
// over the wasm memory: from the roots (the interpreter's state, the Python stack of frames, which holds
// every frame's locals and operands, and the C shadow stack), every word that points at the first block
// of an allocation in the heap marks that allocation and its words are followed in turn (the same
// conservative rule as MicroPython's: a word is a pointer if it is one). A handle is reachable when its
// Python small int ((h << 1) | 1) is a word of the roots or of a marked allocation: an ndarray's `_h` in
// its instance dict, a handle in a tuple or a local. Nothing is written, so a wrong guess costs at most
// an array kept (a word that happens to equal a handle) or one freed too early (a value that only a
// wasm local of a C function holds, such as `sum(…)`'s running total: ./bridge.mjs frees a handle only
// when two scans in a row missed it and nothing used it in between).
//
// The layout (where the state, the Python stack and the heap's first area are) is found once, from
// addresses Python gives (`id(sys.modules)`, the state's dict of modules; `id()` of an object in the
// heap) and checked; a layout that does not check out turns the scan off (`null`), and arrays then live
// until the runtime's release walk, as before.

const BLOCK = 16; // MicroPython's bytes per GC block (32-bit)
const AREA_WORDS = 8; // next, alloc table, its byte length, finaliser table, pool start, pool end, …
const HEAD = 1,
  TAIL = 2;

/**
 * Finds the layout: `modules` = id(sys.modules) (inside the interpreter's state), `probe` = id() of an
 * object in the heap, `pystackBytes` the Python stack's size. → a scanner, or null.
 */
export function findLayout(memory, { modules, probe, pystackBytes }) {
  const H = new Uint32Array(memory.buffer);
  const at = modules >>> 2;
  let pystack = -1,
    area = -1;
  // Indexed reads, no destructuring: this runs once per interpreter, before anything is optimised, and
  // destructuring through the iterator protocol made these 2048 steps cost ~8 ms there.
  for (let i = Math.max(0, at - 1024); i < Math.min(H.length - AREA_WORDS, at + 1024); i++) {
    // the Python stack: start, end, current
    const start = H[i],
      stop = H[i + 1],
      current = H[i + 2];
    if (pystack < 0 && stop - start === pystackBytes && start <= current && current <= stop && start > 0) pystack = i;
    // a heap area: next, alloc table start, its byte length, finaliser table, pool start, pool end
    const atb = H[i + 1],
      len = H[i + 2],
      pool = H[i + 4],
      end = H[i + 5];
    if (area < 0 && len > 0 && end - pool === len * 4 * BLOCK && atb < pool && pool <= probe && probe < end) area = i;
  }
  if (pystack < 0 || area < 0 || pystack > area) return null;
  return { pystack, area, roots: [Math.max(0, pystack - 64), area + AREA_WORDS] };
}

/**
 * The handles in `candidates` (an iterable of numbers) that the roots and the heap reach, as a Set whose
 * `read` is the bytes read. `stack`: [current, base] of the C shadow stack.
 */
export function reachable(memory, layout, stack, candidates) {
  const H = new Uint32Array(memory.buffer),
    B = new Uint8Array(memory.buffer);
  const wanted = new Set();
  for (const h of candidates) wanted.add(h * 2 + 1);
  /** @type {Set<number> & { read?: number }} */
  const found = new Set();
  // the heap's areas: the first is in the state, the others chained by `next`
  const areas = [];
  for (let p = layout.area * 4, n = 0; p && n < 64; n++) {
    const w = p >>> 2;
    areas.push({ atb: H[w + 1], pool: H[w + 4], end: H[w + 5], marks: new Uint8Array((H[w + 5] - H[w + 4]) / BLOCK) });
    p = H[w];
  }
  const work = [];
  const word = (v) => {
    if (v & 1) {
      if (wanted.has(v)) found.add((v - 1) / 2);
      return;
    }
    if (v & (BLOCK - 1)) return;
    for (const a of areas) {
      if (v < a.pool || v >= a.end) continue;
      const b = (v - a.pool) / BLOCK;
      if (a.marks[b] || ((B[a.atb + (b >>> 2)] >>> ((b & 3) * 2)) & 3) !== HEAD) return;
      a.marks[b] = 1;
      work.push(a, b);
      return;
    }
  };
  let read = 0;
  const range = (from, to) => {
    if (to > from) read += to - from;
    for (let i = from >>> 2; i < to >>> 2; i++) word(H[i]);
  };
  range(layout.roots[0] * 4, layout.roots[1] * 4);
  const ps = layout.pystack;
  range(H[ps], H[ps + 2]); // the Python stack: start … current
  range(stack[0], stack[1]);
  while (work.length) {
    const b0 = work.pop(),
      a = work.pop();
    let b = b0 + 1;
    const n = a.marks.length;
    while (b < n && ((B[a.atb + (b >>> 2)] >>> ((b & 3) * 2)) & 3) === TAIL) b++;
    range(a.pool + b0 * BLOCK, a.pool + b * BLOCK);
  }
  found.read = read;
  return found;
}
