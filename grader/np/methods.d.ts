// For `tsc` only (tsconfig.json): the methods of NDArray that index.mjs installs on its prototype at
// load (np functions as methods: a.reshape(…), .T, a.sum(…), …), which the class in ndarray.mjs does not
// declare. Only those that typed code calls are listed here.
import type { NDArray as _NDArray } from './ndarray.mjs';

declare module './ndarray.mjs' {
  interface NDArray {
    /** np.reshape(a, ...shape): a new shape (one entry may be -1), the same data. */
    reshape(...shape: any[]): _NDArray;
    /** All axes reversed (np.transpose(a)). */
    readonly T: _NDArray;
  }
}
