// The assembled np (grader/np/index.mjs): its public surface, and np frozen as the sandbox freezes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as module from '../../grader/np/index.mjs';
import { close } from './np-assert.mjs';

const np = module.default;

// What submissions, the tracks and the grader reach, pinned: a name that comes or goes is a decision
// (README.md beside np documents them), never the side effect of moving code between np's modules.
const SURFACE = {
  exports: 'ArrayTooLarge Ellipsis NDArray Slice default isArrayTooLarge np touchArray watchArrays',
  np:
    'Ellipsis Inf NINF PINF Slice abs absolute add all allclose amax amin any arange argmax argmin ' +
    'argpartition argsort around array array_equal array_split asarray bool bool_ broadcast_arrays ' +
    'broadcast_to ceil clip column_stack concatenate copy cos cumprod cumsum divide dot e einsum empty ' +
    'equal erf exp expand_dims expm1 eye float32 float64 floor floor_divide full full_like getitem ' +
    'greater greater_equal hstack inf infty int64 isclose isfinite isinf isnan less less_equal linalg ' +
    'linspace log log1p logaddexp logical_and logical_not logical_or logical_xor matmul max maximum mean ' +
    'meshgrid min minimum mod multiply nan nan_to_num ndarray ndim negative newaxis nonzero not_equal ' +
    'ones ones_like partition pi power prod random remainder repeat reshape round setitem shape sign sin ' +
    'size slice sort split sqrt square squeeze stack std subtract sum swapaxes take_along_axis tanh tile ' +
    'transpose tri tril tril_indices triu triu_indices var vstack where zeros zeros_like',
  random: 'default_rng',
  linalg: 'norm',
  methods:
    '_offset _select abs absolute add all allclose any argmax argmin argsort astype at ceil clip ' +
    'constructor copy cos cumprod cumsum div divide dot eq equal exp expm1 flatten floor floor_divide ge ' +
    'get getitem greater greater_equal gt isclose isfinite isinf isnan item le less less_equal log log1p ' +
    'logical_and logical_not logical_or logical_xor lt matmul max maximum mean min minimum mod mul ' +
    'multiply ne neg negative nonzero not_equal pow power prod ravel remainder repeat reshape round set ' +
    'setitem sign sin sqrt square squeeze std sub subtract sum swapaxes tanh toJSON toString tolist ' +
    'transpose valueOf var',
  getters: 'T ndim size',
  generator: '_fill choice constructor integers normal random standard_normal uniform',
};

test("np's surface: the module's exports, np's names, np.random's and np.linalg's, NDArray's methods and getters", () => {
  const own = (o) => Object.getOwnPropertyNames(o).sort();
  const proto = module.NDArray.prototype;
  const kinds = (get) => own(proto).filter((k) => 'get' in Object.getOwnPropertyDescriptor(proto, k) === get);
  const actual = {
    exports: Object.keys(module).sort(),
    np: own(np),
    random: own(np.random),
    linalg: own(np.linalg),
    methods: kinds(false),
    getters: kinds(true),
    generator: own(Object.getPrototypeOf(np.random.default_rng(1))),
  };
  for (const [k, names] of Object.entries(SURFACE)) assert.deepEqual(actual[k], names.split(' ').sort(), k);
  for (const k of kinds(false).filter((k) => k !== 'constructor'))
    assert.equal(typeof proto[k], 'function', `NDArray.prototype.${k}`);
  const a = np.arange(6).reshape(2, 3); // methods installed by index.mjs work as their functions
  assert.deepEqual(a.T.tolist(), np.transpose(a).tolist());
  assert.deepEqual(a.ravel().tolist(), [0, 1, 2, 3, 4, 5]);
  assert.equal(a.ravel().data, a.data);
  assert.deepEqual(a.swapaxes(0, 1).shape, [3, 2]);
  assert.deepEqual(a.reshape(1, 6).squeeze().shape, [6]);
  assert.deepEqual(a.transpose(1, 0).tolist(), a.T.tolist());
  assert.deepEqual(a.flatten().shape, [6]);
});

// Last: the sandbox deep-freezes the realm's built-ins and `np` before student code runs.
test('np keeps working after everything it exposes is frozen', () => {
  const seen = new Set();
  const freeze = (o) => {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if ('value' in d) freeze(d.value);
      else {
        freeze(d.get);
        freeze(d.set);
      }
    }
    freeze(Object.getPrototypeOf(o));
  };
  freeze(np);
  const x = np.random.default_rng(3).standard_normal([2, 4, 4]);
  const s = np.where(np.tril(np.ones([4, 4], 'bool')), np.matmul(x, np.swapaxes(x, -1, -2)), -np.inf);
  const e = np.exp(s.sub(s.max(-1, true)));
  close(
    np.sum(e.div(e.sum(-1, true)), -1).tolist(),
    [
      [1, 1, 1, 1],
      [1, 1, 1, 1],
    ],
    1e-12,
  );
  const z = np.zeros([2, 2]).set(0, 0, 1);
  assert.equal(z.get(0, 0), 1);
  assert.equal(z.toString(), '[[1. 0.]\n [0. 0.]]');
});
