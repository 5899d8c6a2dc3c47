// What every track's guest shares inside the sandbox realm: the capped output buffer and the request
// loop (`handle(requestJson) → responseJson`: decode the request, run the op, attach what was printed,
// encode the reply within LIMITS.replyBytes). The track's guest supplies the ops (load, call), how an
// array is built in its realm, and how an exception becomes { message, line, column }.
// Evaluated in the realm before any student code, so the intrinsics captured here are the originals.
import { decodeRequest } from '../wire/codec.mjs';
import { LIMITS } from '../limits.mjs';
import { WorkStop } from './work.mjs';

const { stringify } = JSON;
const { apply } = Reflect;
const stringSlice = (s, a, b) => apply(String.prototype.slice, s, [a, b]);

/** What one request printed, cut at LIMITS.output with a mark: { write(text), take() → text (and reset) }. */
export function createOutput() {
  let out = '',
    truncated = false;
  return {
    write(s) {
      if (truncated) return;
      if (out.length + s.length > LIMITS.output) {
        out += stringSlice(s, 0, LIMITS.output - out.length) + '\n…';
        truncated = true;
      } else out += s;
    },
    get full() {
      return truncated;
    },
    take() {
      const s = out;
      out = '';
      truncated = false;
      return s;
    },
  };
}

/** An error message cut to LIMITS.message (+1, so the host adds its mark). */
export const capMessage = (message) =>
  message.length > LIMITS.message ? stringSlice(message, 0, LIMITS.message + 1) : message;

/**
 * The request loop. ops: { load(req), call(req) } returning a response object; makeArray({ dtype,
 * shape, data }) builds an argument array; errorInfo(e) → { message, line, column } for an exception
 * that escaped an op; output: createOutput()'s buffer. `before()` and `after()` run around each op.
 * `release()`: the runtime's clean-up after a load or call, which the host asks for as a request of
 * its own ({ op: 'release' } → { ok: true, value: null }), so that its time is never the student's.
 * `work`: the realm's counter (./work.mjs createWork); a load or call request's `limitMs` × `workPerMs`
 * is its budget (none where either is missing), and its reply carries `work`, the units it spent (at
 * most the budget); a request that spent its budget is answered { kind: 'timeout' }, as a host's clock
 * answers, whatever the student's code made of the stop.
 */
export function createHandle({
  ops,
  makeArray,
  errorInfo,
  output,
  before = () => {},
  after = () => {},
  release = () => {},
  work = null,
  workPerMs = 0,
}) {
  ops = {
    ...ops,
    release() {
      release();
      return { ok: true, value: null };
    },
  };
  // One request at a time: a request's code that calls the handle again (the JavaScript realm's
  // `__attnlab_handle` is a global student code can reach) is answered this refusal and changes nothing,
  // so it can neither restart the work count of the request it runs in nor take its output.
  let busy = false;
  const BUSY = stringify({ ok: false, kind: 'error', message: 'a request is already running', output: '' });
  return function handle(requestJson) {
    if (busy) return BUSY;
    busy = true;
    try {
      return handleOne(requestJson);
    } finally {
      busy = false;
    }
  };
  function handleOne(requestJson) {
    output.take();
    before();
    let res,
      budget = 0; // 0: no work counted (a release)
    try {
      const req = decodeRequest(requestJson, makeArray);
      if (work && req.op !== 'release') {
        const limitMs = req.limitMs;
        budget =
          typeof limitMs === 'number' && limitMs > 0 && workPerMs > 0 ? Math.ceil(limitMs * workPerMs) : Infinity;
        work.start(budget);
      }
      res = ops[req.op](req);
    } catch (e) {
      res = e instanceof WorkStop ? { ok: false } : { ok: false, kind: 'error', ...errorInfo(e) };
    }
    try {
      after();
    } catch (e) {
      if (res.ok) res = { ok: false, kind: 'error', ...errorInfo(e) };
    }
    if (budget) {
      const over = work.over(),
        spent = work.end();
      if (over) res = { ok: false, kind: 'timeout', message: 'timeout' };
      res.work = Math.min(spent, budget);
    }
    const printed = output.take();
    res.output = printed;
    let json;
    try {
      json = stringify(res);
    } catch (e) {
      json = stringify({
        ok: false,
        kind: 'error',
        message: `the result could not be read: ${errorInfo(e).message}`,
        output: printed,
      });
    }
    if (json.length > LIMITS.replyBytes)
      json = stringify({ ok: false, kind: 'invalid', reason: 'too_big', detail: json.length, output: '' });
    return json;
  }
}

/** Deletes `name` from `obj` and every object on its prototype chain, then pins it to undefined. */
export function removeEverywhere(obj, name) {
  const { getOwnPropertyDescriptor, getPrototypeOf, defineProperty } = Object;
  for (let o = obj; o !== null; o = getPrototypeOf(o)) {
    const d = getOwnPropertyDescriptor(o, name);
    if (d && d.configurable) delete o[name];
  }
  try {
    defineProperty(obj, name, { value: undefined, writable: false, configurable: false });
  } catch {
    /* not ours to pin */
  }
}
