// The limits of student code, the same in both hosts and on both sides of the wire. A leaf: it imports
// nothing, so every room (core, wire, hosts, the guests inside the sandbox) can read it.

export const LIMITS = Object.freeze({
  memoryMb: 512, // student code's memory budget for a whole run, in either host
  replyBytes: 32 * 2 ** 20, // one reply, as the host reads it (bytes in Node, UTF-16 units in a page)
  elements: 2 ** 22, // numbers in one returned value, all arrays together
  depth: 32, // nesting of lists (and dimensions of an array)
  string: 200, // a returned string: only its start is ever shown
  message: 2000, // an error message
  output: 20000, // what one request printed
  wallFactor: 10, // a limit in CPU time is backed by the wall clock at this multiple (a stalled sandbox)
  workBackstop: 6, // a track whose guest counts work (grader/tracks/work.mjs) is stopped by the host's clock only at this multiple of a request's limit
  releaseMs: 5000, // the runtime's own clean-up after a request (a request of its own, never the student's time)
  cpuBackstopS: 7200, // the kernel's CPU limit of a Node sandbox child (RLIMIT_CPU, its whole life): above the longest --deadline-ms the CLI accepts (1 h)
  sourceBytes: 2 ** 20, // a submission file, as the CLI's grade and grade-batch read it (a larger one is refused, never read)
});
