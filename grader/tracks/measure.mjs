// Measuring one call into student code, inside the sandbox realm (both guests): a 'call' request with
// `measure: { limit }` runs the function while np's creation hook (grader/np/index.mjs watchArrays)
// records every array built with a buffer of its own, and the reply carries
//   measured: { arrays, bytes, largest: { shape, dtype, bytes, line } | null }
// arrays/bytes: how many new buffers the call created and their bytes together (views, which share a
// buffer, and the call's arguments are not counted); largest: the first of the arrays with the most
// elements, with the student's source line that built it where the track can tell.
//
// The line: the JavaScript guest reads it from a stack trace when a new largest array appears
// (`lineOf`). Where that gives nothing (the Python track: MicroPython's frames are not on the JS stack)
// and the largest array has more than `limit` elements, the call is run a second time and stopped
// by the hook at the first array of that many elements, the same array (the computation is
// deterministic: the same inputs build the same arrays; counting sizes, not positions, keeps a cache
// filled by the first run, such as the bridge's view positions, from shifting the count); the error
// then carries the line of the student's frame, as any error does. The second run's output is
// dropped, so the student sees what one call printed.
import { watchArrays } from '../np/index.mjs';

/** What the hook throws to stop the second run at the array being looked for. */
export class MeasureStop extends Error {}
MeasureStop.prototype.name = 'MeasureStop';

function recorder(known, lineOf, stopSize) {
  const seen = new WeakSet();
  for (const data of known) seen.add(data.buffer);
  let count = 0,
    bytes = 0,
    largest = null,
    stopped = false;
  const hook = (data, shape, dtype) => {
    const buffer = data.buffer;
    if (seen.has(buffer)) return; // a view of an array already counted, or of an argument
    seen.add(buffer);
    if (data.length === stopSize) {
      stopped = true;
      throw new MeasureStop(`stopped at an array of ${stopSize} elements`);
    }
    bytes += data.byteLength;
    if (largest === null || data.length > largest.size)
      largest = { size: data.length, shape: [...shape], dtype, bytes: data.byteLength, line: lineOf ? lineOf() : null };
    count++;
  };
  return { hook, report: () => ({ arrays: count, bytes, largest }), stopped: () => stopped };
}

/**
 * Runs `run()` (the guest's call: → its reply object) under measurement and adds `measured` to a
 * successful reply. `args`: the call's arguments (arrays among them are not counted); `isReal`: np's
 * brand check (NDArray.parts); `lineOf()`: the student's current line, or null; `output`: the guest's
 * output buffer (createOutput), so that a second run prints nothing.
 */
export function measureCall(run, { limit = 0, args = [], isReal, lineOf = null, output }) {
  const known = [];
  const collect = (v, depth) => {
    const parts = isReal(v);
    if (parts) known.push(parts.data);
    else if (Array.isArray(v) && depth < 4) for (const x of v) collect(x, depth + 1);
  };
  collect(args, 0);
  const first = recorder(known, lineOf, -1);
  const res = watchArrays(first.hook, run);
  if (!res.ok) return res;
  const { arrays, bytes, largest } = first.report();
  if (largest && largest.line === null && limit > 0 && largest.size > limit) {
    const printed = output.take();
    const again = recorder(known, null, largest.size);
    const res2 = watchArrays(again.hook, run);
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
    },
  };
}
