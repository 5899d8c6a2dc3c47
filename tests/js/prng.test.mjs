// grader/core/prng.mjs and its log/cos (detmath.mjs) against golden values computed by the C++ twin
// (wasm/include/attnlab/prng.hpp, the reference): the literals below were printed by
// tests/cpp/golden/prng-golden.cpp and are the same as in tests/cpp/test_prng.cpp (checked below); the JS must
// reproduce them. Then an outside check of the ports against V8 (within 1 ulp of Math.log /
// Math.cos) and a statistical sanity check; and the core's normals (the Rng's kernel for larger draws)
// against the JS loop, in every flavour.
//   node --test tests/js/prng.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Rng, deriveSeed, mulberry32 } from '../../grader/core/prng.mjs';
import { FLAVOURS, enableRelaxedSimd, loadCore } from '../../wasm/index.mjs';
import * as detmath from '../../grader/core/detmath.mjs';

// --- golden values (tests/cpp/golden/prng-golden.cpp; the same literals in tests/cpp/test_prng.cpp) ---
// The first 8 of next() and of normal(), each from a fresh Rng(seed), as the double's bits in hex.
const GOLDEN = [
  {
    seed: 2017,
    uniforms: [
      '3fe8b6d22ea00000',
      '3f8c0d8188000000',
      '3fecf31bb0c00000',
      '3fda85d9f3400000',
      '3fcc8204a3800000',
      '3fe467a815200000',
      '3fe85d23b0400000',
      '3fe143e4b3400000',
    ],
    normals: [
      '3ffb6c784a881ee0',
      'bffdcb8e8cb1f7f9',
      'bfdd78cc1c1ae41c',
      'bffa40fa6cc9338e',
      'bff06eabe1879e12',
      '3fe1b9d4f31350e1',
      'c00399262d4ffc5e',
      'bfe7ae8ca01ceaf0',
    ],
  },
  {
    seed: 7,
    uniforms: [
      '3f87f8a960000000',
      '3fafb8fe24000000',
      '3fef42d3cbc00000',
      '3fe65e7172c00000',
      '3fe0afadfce00000',
      '3fd9f4113d000000',
      '3fddd6c165400000',
      '3fceb5de55800000',
    ],
    normals: [
      '3fc22c1659b8a025',
      'bfeba7f5f5a98bf6',
      'bff01a13931c78f6',
      '3fb2257b4714c5e4',
      'bfc48c39a137da8f',
      '3fdb88fa1ac250bb',
      'bffb030a233fadd0',
      'bfdca239d5d35e4a',
    ],
  },
];
// FNV-1a (64-bit) over the bytes (least significant first) of the first 1,000,000 normals of Rng(2017).
const NORMALS_HASH_2017 = 'f669d4898883f67f';
// deriveSeed(seed, key); the C++ file spells "emoji/" + U+1F600 as its UTF-8 bytes.
const DERIVED = [
  [2017, '', 0xc1b9a2fe],
  [2017, 'sdpa/causal_mask', 0x4b104e93],
  [2017, 'sdpa/softmax', 0xb204212c],
  [2017, 'ru/тест', 0x67f84443],
  [2017, 'emoji/\u{1F600}', 0x2ca8ad58],
  [7, '', 0x61a3f9bd],
  [7, 'sdpa/causal_mask', 0x16b5c3f2],
  [7, 'sdpa/softmax', 0xe0d2c8ba],
  [7, 'ru/тест', 0x6d681533],
  [7, 'emoji/\u{1F600}', 0x8c931b87],
  [0, 'sdpa/softmax', 0x7a5ac8d8],
  [4294967295, 'ru/тест', 0x422b4b2f],
];

const view = new DataView(new ArrayBuffer(8));
const bits = (x) => {
  view.setFloat64(0, x);
  return view.getBigUint64(0);
};
const hex = (x) => bits(x).toString(16).padStart(16, '0');
const fromWords = (hi, lo) => {
  view.setUint32(0, hi >>> 0);
  view.setUint32(4, lo >>> 0);
  return view.getFloat64(0);
};
const fromBits = (b) => {
  view.setBigUint64(0, BigInt.asUintN(64, b));
  return view.getFloat64(0);
};

// FNV-1a (64-bit) in two 32-bit halves: h * (2^40 + 0x1b3) = h * 0x1b3 + (h << 40), mod 2^64.
class Fnv1a64 {
  hi = 0xcbf29ce4;
  lo = 0x84222325;
  byte(b) {
    const lo = (this.lo ^ (b & 0xff)) >>> 0;
    const p = lo * 0x1b3; // < 2^41: exact
    this.hi = (Math.imul(this.hi, 0x1b3) + Math.floor(p / 4294967296) + (lo << 8)) >>> 0;
    this.lo = p >>> 0;
  }
  doubleBits(x) {
    view.setFloat64(0, x, true);
    for (let k = 0; k < 8; k++) this.byte(view.getUint8(k));
  }
  hex() {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}

// Distance in ulps between two doubles of the same sign (0 for +0 vs -0).
function ulps(a, b) {
  const ordered = (x) => {
    const u = bits(x);
    return u >> 63n ? -(u & 0x7fffffffffffffffn) : u;
  };
  const d = ordered(a) - ordered(b);
  return d < 0n ? -d : d;
}

const u32 = (rng) => rng.next() * 4294967296;

function compareAll(xs, ours, ref) {
  const r = { n: 0, exact: 0, worst: 0n, worstAt: 0 };
  for (const x of xs) {
    const a = ours(x),
      b = ref(x);
    r.n++;
    if (Number.isNaN(a) || Number.isNaN(b)) {
      assert.ok(Number.isNaN(a) && Number.isNaN(b), `x = ${hex(x)}: ours ${a}, V8 ${b}`);
      continue;
    }
    const sameSign = Math.sign(a) === Math.sign(b) || (a === 0 && b === 0);
    const d = sameSign ? ulps(a, b) : 1n << 62n;
    if (d === 0n) r.exact++;
    if (d > r.worst) {
      r.worst = d;
      r.worstAt = x;
    }
  }
  return r;
}

// Adds x and its neighbours up to `span` ulps either side.
function around(xs, x, span) {
  const b = bits(x);
  for (let j = -span; j <= span; j++) xs.push(fromBits(b + BigInt(j)));
}

test('the golden literals are the same as in tests/cpp/test_prng.cpp', () => {
  const cpp = readFileSync(new URL('../cpp/test_prng.cpp', import.meta.url), 'utf8');
  for (const g of GOLDEN)
    for (const h of [...g.uniforms, ...g.normals])
      assert.ok(cpp.includes(`"${h}"`), `${h} (seed ${g.seed}) not in test_prng.cpp`);
  assert.ok(cpp.includes(`"${NORMALS_HASH_2017}"`));
  for (const [seed, , want] of DERIVED) {
    const lit = `0x${want.toString(16).padStart(8, '0')}`;
    assert.ok(
      cpp.includes(`{${seed}, `) && cpp.includes(lit),
      `derive_seed golden ${lit} (seed ${seed}) not in test_prng.cpp`,
    );
  }
});

test('uniforms and normals match the golden bit patterns (seeds 2017 and 7)', () => {
  for (const g of GOLDEN) {
    const u = new Rng(g.seed),
      n = new Rng(g.seed),
      m = mulberry32(g.seed);
    for (let i = 0; i < 8; i++) {
      assert.equal(hex(u.next()), g.uniforms[i], `seed ${g.seed}, uniform ${i}`);
      assert.equal(hex(m()), g.uniforms[i], `seed ${g.seed}, mulberry32 ${i}`);
      assert.equal(hex(n.normal()), g.normals[i], `seed ${g.seed}, normal ${i}`);
    }
  }
});

test('the first 1,000,000 normals of seed 2017 hash to the golden FNV-1a 64', () => {
  const check = new Fnv1a64();
  check.byte(0x61);
  assert.equal(check.hex(), 'af63dc4c8601ec8c'); // FNV-1a 64 of "a" (published test vector)
  const rng = new Rng(2017),
    h = new Fnv1a64();
  for (let i = 0; i < 1000000; i++) h.doubleBits(rng.normal());
  assert.equal(h.hex(), NORMALS_HASH_2017, 'seed 2017');
});

test('normals(n, scale) is normal() times scale, in order', () => {
  const a = new Rng(11),
    b = new Rng(11);
  for (const x of a.normals(5, 0.5)) assert.equal(hex(x), hex(b.normal() * 0.5));
});

test("the core's normals (Rng's kernel for larger draws) are this file's, bit for bit, and leave the stream where it would be, in every flavour", async () => {
  assert.ok(await enableRelaxedSimd(), 'this Node cannot run relaxed SIMD');
  for (const [flavour] of Object.entries(FLAVOURS).filter(([, b]) => !b.threaded)) {
    const core = await loadCore({ flavour });
    const kernel = { normals: (...a) => core.rngNormals(...a) };
    let used = 0;
    const counted = { normals: (...a) => (used++, kernel.normals(...a)) };
    for (const seed of [0, 1, 7, 2017, 0xffffffff, deriveSeed(2017, 'sdpa/hidden_batch')]) {
      const plain = new Rng(seed),
        fast = new Rng(seed, counted);
      // Draws of every kind, interleaved, with sizes below and above the kernel's threshold and scales
      // that round: the two streams must stay in step.
      for (const [n, scale] of [
        [3, 1],
        [64, 1],
        [1536, 0.5],
        [63, 3.7],
        [1000, -2],
        [65, 1e-3],
        [4096, 1],
      ]) {
        assert.deepEqual(
          [...fast.normals(n, scale)].map(hex),
          [...plain.normals(n, scale)].map(hex),
          `${flavour}: seed ${seed}, normals(${n}, ${scale})`,
        );
        assert.equal(hex(fast.uniform(-1, 1)), hex(plain.uniform(-1, 1)), `${flavour}: the stream after normals(${n})`);
        assert.equal(hex(fast.normal()), hex(plain.normal()));
        assert.equal(fast.next(), plain.next());
      }
    }
    assert.ok(used > 0, `${flavour}: the kernel was used`);
    assert.throws(() => core.rngNormals(-1, 4), /uint32/);
    assert.throws(() => core.rngNormals(1, 2.5), /non-negative integer/);
  }
});

test('deriveSeed matches the golden values (ASCII and non-ASCII keys)', () => {
  for (const [seed, key, want] of DERIVED)
    assert.equal(deriveSeed(seed, key), want, `deriveSeed(${seed}, ${JSON.stringify(key)})`);
  assert.notEqual(deriveSeed(2017, 'sdpa/softmax'), deriveSeed(2018, 'sdpa/softmax'));
});

test('deriveSeed encodes keys as TextEncoder does (random strings, lone surrogates included)', () => {
  const reference = (seed, key) => {
    let h = 0x811c9dc5;
    for (const b of [
      seed & 0xff,
      (seed >>> 8) & 0xff,
      (seed >>> 16) & 0xff,
      seed >>> 24,
      ...new TextEncoder().encode(key),
    ])
      h = Math.imul(h ^ b, 0x01000193);
    let t = (h + 0x6d2b79f5) >>> 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const rng = new Rng(303);
  const pick = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0x444, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
  for (let i = 0; i < 2000; i++) {
    const units = Array.from({ length: Math.floor(rng.next() * 8) }, () =>
      rng.next() < 0.5 ? pick[Math.floor(rng.next() * pick.length)] : Math.floor(rng.next() * 0x10000),
    );
    const key = String.fromCharCode(...units),
      seed = u32(rng);
    assert.equal(deriveSeed(seed, key), reference(seed, key), `key units ${units.map((c) => c.toString(16))}`);
  }
});

test('detmath.log is within 1 ulp of Math.log (random, subnormal, near 1, large) and exact on specials', () => {
  const rng = new Rng(101);
  const xs = [];
  for (let i = 0; i < 50000; i++) xs.push(fromWords(u32(rng) % 0x7ff00000, u32(rng))); // any positive finite double
  for (let i = 0; i < 2000; i++) xs.push(fromWords(u32(rng) & 0xfffff, (u32(rng) | 1) >>> 0)); // subnormals
  for (let i = 0; i < 40000; i++) xs.push(1 - rng.next()); // what normal() feeds it
  around(xs, 1, 2000); // 1 and its neighbours
  for (let i = 0; i < 10000; i++) xs.push(1 + (rng.next() - 0.5) * 2 ** -18); // |f| ~ 2^-20 branch
  for (const hx of [0x6147a, 0x6b851, 0x6a09e]) {
    // branch points, sqrt(2)
    for (let e = -1022; e <= 1023; e += 73)
      for (let j = -3; j <= 3; j++) xs.push(fromWords(((e + 1023) << 20) | (hx + j), u32(rng)));
  }
  for (let e = -1074; e <= 1023; e++)
    xs.push(e >= -1022 ? fromWords((e + 1023) << 20, 0) : fromBits(1n << BigInt(e + 1074))); // powers of two
  xs.push(
    Number.MIN_VALUE,
    fromBits(0x000fffffffffffffn),
    2 ** -1022,
    Number.MAX_VALUE,
    2,
    0.5,
    Math.E,
    10,
    1e300,
    1e-300,
  );

  const r = compareAll(xs, detmath.log, Math.log);
  console.log(`log: ${r.n} inputs, ${r.exact} equal to Math.log, worst ${r.worst} ulp at ${hex(r.worstAt)}`);
  assert.ok(r.worst <= 1n, `worst ${r.worst} ulp at x = ${hex(r.worstAt)}`);
  assert.ok(r.n > 100000);

  assert.equal(detmath.log(0), -Infinity);
  assert.equal(detmath.log(-0), -Infinity);
  assert.equal(detmath.log(Infinity), Infinity);
  assert.ok(Number.isNaN(detmath.log(-1)));
  assert.ok(Number.isNaN(detmath.log(-Infinity)));
  assert.ok(Number.isNaN(detmath.log(NaN)));
  assert.ok(Object.is(detmath.log(1), 0)); // +0, exactly
});

test('detmath.cos is within 1 ulp of Math.cos on [0, 2 pi) (and on its medium range)', () => {
  const twoPi = 6.283185307179586,
    halfPi = 1.5707963267948966;
  const rng = new Rng(202);
  const xs = [];
  for (let i = 0; i < 65000; i++) xs.push(twoPi * rng.next()); // what normal() feeds it
  for (let i = 0; i < 25000; i++) {
    // full 53-bit mantissas
    const hi = Math.floor(u32(rng) / 32),
      lo = Math.floor(u32(rng) / 64);
    xs.push(twoPi * ((hi * 67108864 + lo) / 9007199254740992));
  }
  for (let n = 1; n <= 4; n++) around(xs, n * halfPi, 300); // zeros and extrema: cancellation
  for (let n = 1; n <= 7; n += 2) around(xs, (n * halfPi) / 2, 50); // octant boundaries (pi/4, 3pi/4, ...)
  around(xs, fromWords(0x3fe921fb, 0), 20); // the no-reduction threshold
  around(xs, fromWords(0x3e46a09e, 0), 20); // the cos = 1 threshold
  xs.push(0, -0, 2 ** -30, 1e-10, 1, 3, 6);
  for (let i = 0; i < 10000; i++) xs.push((rng.next() - 0.5) * 2e6); // |x| < 2^20 pi/2, both signs

  const r = compareAll(xs, detmath.cos, Math.cos);
  console.log(`cos: ${r.n} inputs, ${r.exact} equal to Math.cos, worst ${r.worst} ulp at ${hex(r.worstAt)}`);
  assert.ok(r.worst <= 1n, `worst ${r.worst} ulp at x = ${hex(r.worstAt)}`);
  assert.ok(r.n > 100000);

  // Outside the documented domain: NaN rather than a wrong value.
  assert.ok(Number.isNaN(detmath.cos(Infinity)));
  assert.ok(Number.isNaN(detmath.cos(NaN)));
  assert.ok(Number.isNaN(detmath.cos(2 ** 21)));
});

test('normals look standard normal (mean ~ 0, variance ~ 1 over 1e5 draws)', () => {
  for (const seed of [2017, 7]) {
    const x = new Rng(seed).normals(100000);
    let sum = 0,
      sum2 = 0,
      within1 = 0;
    for (const v of x) {
      assert.ok(Number.isFinite(v));
      sum += v;
      sum2 += v * v;
      within1 += Math.abs(v) < 1;
    }
    const n = x.length,
      mean = sum / n,
      variance = sum2 / n - mean * mean,
      p1 = within1 / n;
    const at = `seed ${seed}: mean ${mean}, variance ${variance}, P(|x| < 1) ${p1}`;
    assert.ok(Math.abs(mean) < 0.02, at); // sd of the mean: 0.003
    assert.ok(Math.abs(variance - 1) < 0.03, at); // sd of the variance: 0.0045
    assert.ok(Math.abs(p1 - 0.6827) < 0.01, at);
  }
});
