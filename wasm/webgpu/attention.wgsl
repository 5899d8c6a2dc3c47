// attention.wgsl — fused scaled dot-product attention, float32, the WebGPU backend of the fast path.
//
// For every (b, h) and query row i:
//   out[b,h,i,:] = sum_j w[i,j] * v[b,h,j,:],   w[i,:] = softmax_j(scale * q[b,h,i,:] . k[b,h,j,:])
// where, if `causal`, keys j > i are masked (top-left aligned, like the double reference with a
// causal_mask(Tq, Tk)-style mask). With the override WRITE_WEIGHTS = true it also writes
// w as (B, H, Tq, Tk); masked entries are written as exactly 0.0.
//
// Schedule: one workgroup = WG consecutive query rows of one (b, h); one invocation = one query
// row, which keeps its (pre-scaled) q row and its output accumulator in registers. Keys are walked
// in tiles of BK rows; each tile of K and V is staged in workgroup memory once and read by all WG
// rows. Under `causal`, tiles right of the workgroup's last row are never loaded. The softmax is
// online (running max m and running sum l, rescaling the accumulator when m grows), so no
// T x T score matrix exists unless WRITE_WEIGHTS asks for one; that variant then makes a second
// sweep over K to write w = exp(s - m) / l with the final m and l.
//
// Masked-score sentinel: WGSL has no -inf literal, and its float rules let a non-finite
// intermediate become any value, so -inf is never computed. MASKED = -0x1.fffffep+127f (-FLT_MAX,
// about -3.4028235e38) is only the running max before the first visible key. A masked key never
// reaches exp(): the key loop stops at the diagonal and the weights sweep *selects* 0.0 for it,
// hence exactly zero.
// Every live row sees key 0 (Tk >= 1), so m is finite and l >= 1 at the end.
//
// Inner loops run to DCAP4, a pipeline constant, not to d: drivers can unroll them and keep q and
// the accumulator in registers; the padding (staged columns past d or dv, q past d) is zero.
// Limits: d, dv <= 4 * D4_MAX = 128 (register arrays); the host (index.mjs) checks shapes and sets
// DCAP4 / BK so that the two staged tiles fit its TILE_BYTES of workgroup memory.
// Run: wasm/webgpu/index.mjs binds it; checked against the double reference by
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node --test tests/webgpu/node.test.mjs

override WG: u32 = 64u;           // query rows (= invocations) per workgroup
override BK: u32 = 32u;           // keys per staged K/V tile
override DCAP4: u32 = 16u;        // staged row capacity in vec4s, >= ceil(max(d, dv) / 4)
override WRITE_WEIGHTS: bool = false;

const D4_MAX: u32 = 32u;
const MASKED: f32 = -0x1.fffffep+127f;  // -FLT_MAX = -3.4028235e38

struct Shape {
  BH: u32, Tq: u32, Tk: u32, d: u32,
  dv: u32, causal: u32, scale: f32, qOff: u32,
  kOff: u32, vOff: u32, _p0: u32, _p1: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
// q, k and v packed into one buffer at qOff, kOff, vOff (in floats), each row-major (B, H, T, d).
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read_write> weights: array<f32>;

var<workgroup> kt: array<vec4<f32>, BK * DCAP4>;
var<workgroup> vt: array<vec4<f32>, BK * DCAP4>;

// Floats [4*c4, 4*c4 + 4) of the row starting at `base` of length n; zero past its end.
fn ld4(base: u32, n: u32, c4: u32) -> vec4<f32> {
  var r = vec4<f32>(0.0);
  for (var e = 0u; e < 4u; e++) {
    let c = 4u * c4 + e;
    if (c < n) { r[e] = qkv[base + c]; }
  }
  return r;
}

// All WG invocations copy keys [t0, t0 + BK) of K (and of V if withV) into workgroup memory.
fn stage(bh: u32, t0: u32, withV: bool, lid: u32) {
  for (var e = lid; e < BK * DCAP4; e += WG) {
    let r = e / DCAP4;
    let c4 = e % DCAP4;
    let j = t0 + r;
    if (j >= shape.Tk) { continue; }  // never read; columns past d / dv are written as zeros
    kt[e] = ld4(shape.kOff + (bh * shape.Tk + j) * shape.d, shape.d, c4);
    if (withV) { vt[e] = ld4(shape.vOff + (bh * shape.Tk + j) * shape.dv, shape.dv, c4); }
  }
}

fn score(q: ptr<function, array<vec4<f32>, D4_MAX>>, jj: u32) -> f32 {
  var s = 0.0;
  for (var c4 = 0u; c4 < DCAP4; c4++) { s += dot((*q)[c4], kt[jj * DCAP4 + c4]); }
  return s;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let bh = wid.y + wid.z * nwg.y;  // (b, h) over y and z: B*H may exceed 65535
  if (bh >= shape.BH) { return; }  // whole workgroup: barriers stay uniform
  let i0 = wid.x * WG;
  let i = i0 + lid;
  let live = i < shape.Tq;         // padding rows still join the staging and the barriers
  let causal = shape.causal != 0u;

  var q: array<vec4<f32>, D4_MAX>;
  var acc: array<vec4<f32>, D4_MAX>;
  if (live) {
    let qb = shape.qOff + (bh * shape.Tq + i) * shape.d;
    for (var c4 = 0u; c4 < DCAP4; c4++) { q[c4] = ld4(qb, shape.d, c4) * shape.scale; }
  }

  // Keys any row of this workgroup may see; under causal the rest are skipped tile by tile.
  var kEnd = shape.Tk;
  if (causal) { kEnd = min(kEnd, i0 + WG); }

  var m = MASKED;
  var l = 0.0;
  for (var t0 = 0u; t0 < kEnd; t0 += BK) {
    stage(bh, t0, true, lid);
    workgroupBarrier();
    if (live) {
      let n = min(BK, kEnd - t0);
      for (var jj = 0u; jj < n; jj++) {
        if (causal && t0 + jj > i) { break; }  // keys are visited in order: all later ones are masked
        let s = score(&q, jj);
        if (s > m) {
          let a = select(exp(m - s), 0.0, m == MASKED);  // nothing accumulated yet when m is the sentinel
          l *= a;
          for (var c4 = 0u; c4 < DCAP4; c4++) { acc[c4] *= a; }
          m = s;
        }
        let p = exp(s - m);
        l += p;
        for (var c4 = 0u; c4 < DCAP4; c4++) { acc[c4] += p * vt[jj * DCAP4 + c4]; }
      }
    }
    workgroupBarrier();
  }

  let inv = 1.0 / l;
  if (live) {
    let ob = (bh * shape.Tq + i) * shape.dv;
    for (var c = 0u; c < shape.dv; c++) { out[ob + c] = acc[c / 4u][c % 4u] * inv; }
  }

  if (WRITE_WEIGHTS) {
    let wb = (bh * shape.Tq + i) * shape.Tk;
    for (var t0 = 0u; t0 < shape.Tk; t0 += BK) {
      let visible = t0 < kEnd;  // workgroup-uniform
      if (visible) { stage(bh, t0, false, lid); workgroupBarrier(); }
      if (live) {
        let n = min(BK, shape.Tk - t0);
        for (var jj = 0u; jj < n; jj++) {
          let j = t0 + jj;
          var w = 0.0;
          if (visible && !(causal && j > i)) { w = exp(score(&q, jj) - m) * inv; }
          weights[wb + j] = w;
        }
      }
      if (visible) { workgroupBarrier(); }
    }
  }
}
