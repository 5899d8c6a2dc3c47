// Measuring one call into student code, inside the sandbox realm (both guests): a 'call' request with
// `measure: { limit }` runs the function while np's hooks (grader/np/index.mjs watchArrays) watch it,
// and the reply carries
//   measured: { arrays, bytes, largest: { shape, dtype, bytes, line } | null,
//               kept: { np, typed, lists, heap } }   (each { bytes, line }; np also { loaded })
// arrays/bytes: how many new buffers np created and their bytes together (views, which share a buffer,
// and the call's arguments are not counted); largest: the first of the arrays with the most elements,
// with the student's source line that built it where the track can tell.
//
// kept: the most memory the call held at once, by what held it (grader/README.md, Measurement):
// - np: np arrays alive at once, at their peak. An array is alive from the moment it is made (or, for
//   one made before the call, such as at load time, from the call's start) to the last moment np is
//   handed it or runs one of its methods (np's use hook): arrays kept for later use count, temporaries
//   dropped after their last use do not, whatever the garbage collector does. `line`: the line that
//   built most of those bytes (the JavaScript track; null on Python or where most were made before the
//   call); `loaded`: the bytes among them of arrays made before the call (np only).
// - typed (JavaScript): the largest typed array or ArrayBuffer the call made outside np (the guest's
//   counting constructors call noteBuffer), with its line.
// - lists (JavaScript): the largest plain array structure the call grew (an array and the arrays it
//   holds, 8 bytes a slot), measured when the call returns; an array is followed once it reaches
//   LIST_MIN elements through push, fill, Array.from or Array.of (the guest's wrappers call noteList),
//   with the line where it did.
// - heap (Python): the interpreter's heap at its highest during the call, above where it started
//   (lists, numbers, objects; the runtime samples it at every call into numpy), no line.
//
// The line of `largest`: the JavaScript guest reads it from a stack trace when a new largest array
// appears (`lineOf`). Where that gives nothing (the Python track: MicroPython's frames are not on the
// JS stack) and the largest array has more than `limit` elements, the call is run a second time and
// stopped by the hook at the first array of that many elements, the same array (the computation is
// deterministic: the same inputs build the same arrays; counting sizes, not positions, keeps a cache
// filled by the first run, such as the bridge's view positions, from shifting the count); the error
// then carries the line of the student's frame, as any error does. The second run's output is
// dropped, so the student sees what one call printed.
import { watchArrays } from '../np/index.mjs';

/** What the hook throws to stop the second run at the array being looked for. */
export class MeasureStop extends Error {}
MeasureStop.prototype.name = 'MeasureStop';

/** A plain array is followed (kept.lists) once it holds this many elements. */
export const LIST_MIN = 256;
const LIST_WALK = 2 ** 24; // slots walked at most when a call returns

let onBuffer = null,
  onList = null;
/** The JavaScript guest's counting constructors: `obj` (a typed array or ArrayBuffer) was just made. */
export function noteBuffer(obj) {
  if (onBuffer !== null) onBuffer(obj);
}
/** The JavaScript guest's array wrappers: plain array `a` has just reached LIST_MIN elements or more. */
export function noteList(a) {
  if (onList !== null) onList(a);
}

/**
 * np arrays alive at once (see above): peak bytes, the line that built most of them (null: arrays made
 * before the call, or no lines), and `loaded`, the bytes of those made before the call.
 */
function livePeak(records) {
  const events = [];
  for (const r of records) events.push([r.from, r.bytes], [r.to + 1, -r.bytes]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0,
    peak = 0,
    at = -1;
  for (const [t, b] of events) {
    now += b;
    if (now > peak) {
      peak = now;
      at = t;
    }
  }
  const byLine = new Map(); // null: made before the call, or on a track without lines
  let loaded = 0;
  for (const r of records)
    if (r.from <= at && at <= r.to) {
      byLine.set(r.line, (byLine.get(r.line) ?? 0) + r.bytes);
      if (r.from === 0) loaded += r.bytes;
    }
  let line = null,
    most = 0;
  for (const [l, b] of byLine)
    if (b > most) {
      most = b;
      line = l;
    }
  return { bytes: peak, line, loaded };
}

/** Slots of the plain array structure under `a` (nested plain arrays followed, each once). */
function slotsOf(a, seen, budget) {
  let slots = 0;
  const stack = [a];
  while (stack.length && budget.left > 0) {
    const v = stack.pop();
    if (seen.has(v)) continue;
    seen.add(v);
    try {
      const n = v.length >>> 0;
      slots += n;
      budget.left -= n;
      for (let i = 0; i < n && budget.left > 0; i++) {
        const x = v[i];
        if (Array.isArray(x)) stack.push(x);
      }
    } catch {
      /* a student's getter or proxy trap threw: what was counted stays */
    }
  }
  return slots;
}

function recorder(known, lineOf, stopSize) {
  const seen = new WeakSet();
  for (const data of known) seen.add(data.buffer);
  let count = 0,
    bytes = 0,
    largest = null,
    stopped = false,
    clock = 1;
  // buffer → { bytes, from, to, line }, held weakly (an array the call dropped is freed during it, as
  // out of measurement), and every record in `records`
  const live = new WeakMap(),
    records = [];
  const record = (buffer, r) => {
    live.set(buffer, r);
    records.push(r);
  };
  const use = (data) => {
    const buffer = data.buffer;
    const r = live.get(buffer);
    if (r) r.to = clock++;
    else if (!seen.has(buffer)) record(buffer, { bytes: buffer.byteLength, from: 0, to: clock++, line: null }); // made before the call
  };
  const hook = (data, shape, dtype) => {
    const buffer = data.buffer;
    if (seen.has(buffer) || live.has(buffer)) return use(data); // a view of an array counted, of an argument, or of one made before
    seen.add(buffer);
    if (data.length === stopSize) {
      stopped = true;
      throw new MeasureStop(`stopped at an array of ${stopSize} elements`);
    }
    const line = lineOf ? lineOf() : null;
    record(buffer, { bytes: buffer.byteLength, from: clock, to: clock, line });
    clock++;
    bytes += data.byteLength;
    if (largest === null || data.length > largest.size)
      largest = { size: data.length, shape: [...shape], dtype, bytes: data.byteLength, line };
    count++;
  };
  // Typed arrays and ArrayBuffers made during the call (np's own among them, told apart at the end).
  const typed = [];
  let typedMost = 0;
  const buffer = (obj) => {
    const b = obj.byteLength;
    typed.push({ buffer: obj.buffer ?? obj, bytes: b, line: b > typedMost && lineOf ? lineOf() : null });
    if (b > typedMost) typedMost = b;
  };
  const lists = new Map(); // plain array → the line where it was first noted
  const list = (a) => {
    if (!lists.has(a)) lists.set(a, lineOf ? lineOf() : null);
  };
  const report = () => {
    let t = { bytes: 0, line: null };
    for (const x of typed) if (!live.has(x.buffer) && !seen.has(x.buffer) && x.bytes > t.bytes) t = x;
    let l = { bytes: 0, line: null };
    const budget = { left: LIST_WALK };
    for (const [a, line] of lists) {
      const b = 8 * slotsOf(a, new Set(), budget);
      if (b > l.bytes) l = { bytes: b, line };
    }
    return {
      arrays: count,
      bytes,
      largest,
      kept: {
        np: livePeak(records),
        typed: { bytes: t.bytes, line: t.line },
        lists: l,
        heap: { bytes: 0, line: null },
      },
    };
  };
  return { hook, use, buffer, list, report, stopped: () => stopped };
}

/** Runs `fn` with the recorder's hooks on: np's, and the guest's counting constructors and wrappers. */
function watched(rec, fn) {
  const outer = [onBuffer, onList];
  onBuffer = rec.buffer;
  onList = rec.list;
  try {
    return watchArrays(rec.hook, fn, rec.use);
  } finally {
    [onBuffer, onList] = outer;
  }
}

/**
 * Runs `run()` (the guest's call: → its reply object) under measurement and adds `measured` to a
 * successful reply. `args`: the call's arguments (arrays among them are not counted); `isReal`: np's
 * brand check (NDArray.parts); `lineOf()`: the student's current line, or null; `output`: the guest's
 * output buffer (createOutput), so that a second run prints nothing; `heap()`: the Python guest's
 * kept.heap bytes of the run that just ended (0 where there is none).
 */
export function measureCall(run, { limit = 0, args = [], isReal, lineOf = null, output, heap = () => 0 }) {
  const known = [];
  const collect = (v, depth) => {
    const parts = isReal(v);
    if (parts) known.push(parts.data);
    else if (Array.isArray(v) && depth < 4) for (const x of v) collect(x, depth + 1);
  };
  collect(args, 0);
  const first = recorder(known, lineOf, -1);
  const res = watched(first, run);
  if (!res.ok) return res;
  const { arrays, bytes, largest, kept } = first.report();
  kept.heap.bytes = heap();
  if (largest && largest.line === null && limit > 0 && largest.size > limit) {
    const printed = output.take();
    const again = recorder(known, null, largest.size);
    const res2 = watched(again, run);
    output.take();
    output.write(printed);
    if (again.stopped() && !res2.ok && res2.line) largest.line = res2.line;
  }
  return {
    ...res,
    measured: {
      arrays,
      bytes,
      largest: largest && { shape: largest.shape, dtype: largest.dtype, bytes: largest.bytes, line: largest.line },
      kept,
    },
  };
}
