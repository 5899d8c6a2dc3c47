// np's errors, by NumPy's names (ValueError, AxisError, IndexError; MemoryError for an array larger than
// the run's memory budget), and alloc, which allocates array data and refuses such an array.
import { formatShape } from './format.mjs';
import { LIMITS } from '../limits.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { round: mround } = Math;

// One array larger than the whole memory budget of a run can never fit: it is refused when it is asked
// for, whatever the machine's speed (not found later by a watchdog racing the clock), and the sandbox
// reports it as `memory` with the shape and the student's line.
const MAX_BYTES = LIMITS.memoryMb * 2 ** 20;
const MAX_SIZE = MAX_BYTES / 8; // elements of float64 (index tables are checked against this too)
const TOO_LARGE = new WeakSet(); // the ArrayTooLarge errors np threw: a brand read without running any code of the value
/** The error of an array too large for the memory budget: a RangeError whose name is MemoryError. */
export class ArrayTooLarge extends RangeError {
  constructor(n, bytes, shape) {
    const what = shape ? `an array of shape ${formatShape(shape)}` : `an array of ${n} elements`;
    super(
      `${what} needs ${mround(bytes / 2 ** 20)} MiB, more than the ${LIMITS.memoryMb} MiB memory limit of the whole run`,
    );
    this.name = 'MemoryError';
    this.shape = shape ? shape.slice() : null;
    TOO_LARGE.add(this);
  }
}
/** Whether `e` is an ArrayTooLarge np threw (never a trap or getter of `e`: student code may throw anything). */
export const isArrayTooLarge = (e) => TOO_LARGE.has(e);
function alloc(dtype, n, shape = null) {
  const bytes = n * (dtype === 'bool' ? 1 : 8);
  if (bytes > MAX_BYTES) throw new ArrayTooLarge(n, bytes, shape);
  return dtype === 'bool' ? new Uint8Array(n) : new Float64Array(n);
}

class ValueError extends Error {
  constructor(m) {
    super(m);
    this.name = 'ValueError';
  }
}
class AxisError extends ValueError {
  constructor(m) {
    super(m);
    this.name = 'AxisError';
  }
}
class IndexError extends Error {
  constructor(m) {
    super(m);
    this.name = 'IndexError';
  }
}

export { MAX_SIZE, alloc, ValueError, AxisError, IndexError };
