// Builds the ONNX model that the onnxruntime peers run: scaled dot-product attention from standard
// opset-17 operators, as an exporter would emit it:
//   out = MatMul(Softmax(MatMul(Q * scale, Transpose(K)) + mask), V)
// mask is a (T, T) float initializer, 0 where a query may attend and -inf where the causal mask
// hides the key (omitted when not causal). Inputs Q, K, V: float32 (B, H, T, d); output out.
// A ModelProto is a handful of protobuf messages, so they are encoded here by hand (field numbers
// from onnx/onnx.proto) instead of pulling in an ONNX/protobuf toolchain.

const enc = new TextEncoder();

function varint(n) {
  const out = [];
  let x = BigInt.asUintN(64, BigInt(n)); // negative int64: two's complement, 10 bytes
  do {
    let byte = Number(x & 0x7fn);
    x >>= 7n;
    if (x) byte |= 0x80;
    out.push(byte);
  } while (x);
  return new Uint8Array(out);
}

// An encoded message is a list of Uint8Array parts (a mask initializer is T*T*4 bytes: it is
// never copied into a JS array). field(number, value): value is a number (varint), a string,
// a Uint8Array (bytes) or an array of encoded parts (a nested message).
const parts = (v) => (typeof v === 'string' ? [enc.encode(v)] : v instanceof Uint8Array ? [v] : v.flat(Infinity));
const size = (ps) => ps.reduce((n, p) => n + p.length, 0);
function field(num, value) {
  if (typeof value === 'number') return [varint((num << 3) | 0), varint(value)];
  const body = parts(value);
  return [varint((num << 3) | 2), varint(size(body)), ...body];
}

const FLOAT = 1; // TensorProto.DataType.FLOAT
const tensorType = (name, dims) =>
  field(2, [
    field(1, [
      field(1, FLOAT),
      field(
        2,
        dims.map((d) => field(1, [field(1, d)])),
      ),
    ]),
  ]);
const valueInfo = (name, dims) => [field(1, name), tensorType(name, dims)];
const initializer = (name, dims, data) => [
  dims.map((d) => field(1, d)),
  field(2, FLOAT),
  field(8, name),
  field(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
];
const node = (op, inputs, outputs, attrs = []) => [
  inputs.map((i) => field(1, i)),
  outputs.map((o) => field(2, o)),
  field(3, `${op}_${outputs[0]}`),
  field(4, op),
  attrs,
];
const attrInt = (name, i) => field(5, [field(1, name), field(20, 2), field(3, i)]);
const attrInts = (name, ints) => field(5, [field(1, name), field(20, 7), ints.map((i) => field(8, i))]);

/** ONNX model bytes for attention on (B, H, T, d) float32 inputs. */
export function attentionModel({ B, H, T, d, causal, scale = 1 / Math.sqrt(d) }) {
  const inits = [initializer('scale', [], new Float32Array([scale]))];
  const nodes = [
    node('Mul', ['Q', 'scale'], ['Qs']),
    node('Transpose', ['K'], ['Kt'], [attrInts('perm', [0, 1, 3, 2])]),
    node('MatMul', ['Qs', 'Kt'], ['S']),
  ];
  let scores = 'S';
  if (causal) {
    const mask = new Float32Array(T * T);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) mask[i * T + j] = -Infinity;
    inits.push(initializer('mask', [T, T], mask));
    nodes.push(node('Add', ['S', 'mask'], ['Sm']));
    scores = 'Sm';
  }
  nodes.push(node('Softmax', [scores], ['P'], [attrInt('axis', -1)]), node('MatMul', ['P', 'V'], ['out']));
  const shape = [B, H, T, d];
  const graph = [
    nodes.map((n) => field(1, n)),
    field(2, 'attention'),
    inits.map((t) => field(5, t)),
    ['Q', 'K', 'V'].map((n) => field(11, valueInfo(n, shape))),
    field(12, valueInfo('out', shape)),
  ];
  const model = [field(1, 8), field(2, 'attnlab-bench'), field(7, graph), field(8, [field(1, ''), field(2, 17)])];
  const all = model.flat(Infinity),
    out = new Uint8Array(size(all));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
