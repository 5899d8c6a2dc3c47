(() => {
  // grader/core/prng.mjs
  function mulberry32(seed) {
    let a = seed >>> 0;
    return function next() {
      a = a + 1831565813 >>> 0;
      let t = a;
      t = Math.imul(t ^ t >>> 15, t | 1);
      t ^= t + Math.imul(t ^ t >>> 7, t | 61);
      return ((t ^ t >>> 14) >>> 0) / 4294967296;
    };
  }
  var Rng = class {
    constructor(seed) {
      this.seed = seed >>> 0;
      this.next = mulberry32(seed);
    }
    uniform(lo = 0, hi = 1) {
      return lo + (hi - lo) * this.next();
    }
    normal() {
      const u1 = 1 - this.next();
      const u2 = this.next();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
    /** Float64Array of n standard normals times `scale`. */
    normals(n, scale = 1) {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = this.normal() * scale;
      return out;
    }
  };

  // grader/np/format.mjs
  var PRECISION = 8;
  var LINEWIDTH = 75;
  var THRESHOLD = 1e3;
  var EDGEITEMS = 3;
  var { abs, max } = Math;
  var formatShape = (shape) => `(${shape.join(",")}${shape.length === 1 ? "," : ""})`;
  function pyFloat(v) {
    if (v !== v) return "nan";
    if (v === Infinity || v === -Infinity) return v > 0 ? "inf" : "-inf";
    if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
    const [m, e] = v.toExponential().split("e");
    const ex = +e;
    if (ex < -4 || ex >= 16) return `${m}e${ex < 0 ? "-" : "+"}${String(abs(ex)).padStart(2, "0")}`;
    const s = String(v);
    return s.includes(".") ? s : `${s}.0`;
  }
  var scalarString = (v, dtype) => dtype === "bool" ? v ? "True" : "False" : dtype === "int64" ? String(v + 0) : pyFloat(v);
  function positional(v, prec) {
    const a = abs(v);
    let s = String(a);
    if (s.includes("e") || s.includes(".") && s.length - s.indexOf(".") - 1 > prec) s = a.toFixed(prec).replace(/0+$/, "");
    if (!s.includes(".")) s += ".";
    const [ip, fp] = s.split(".");
    return { ip: (v < 0 || Object.is(v, -0) ? "-" : "") + ip, fp };
  }
  function scientific(v, prec) {
    const a = abs(v);
    let [m, e] = a.toExponential().split("e");
    if (m.includes(".") && m.length - m.indexOf(".") - 1 > prec) {
      [m, e] = a.toExponential(prec).split("e");
      m = m.replace(/0+$/, "");
    }
    const [ip, fp = ""] = m.split(".");
    return { ip: (v < 0 || Object.is(v, -0) ? "-" : "") + ip, fp, exp: e[0] + e.slice(1).padStart(2, "0") };
  }
  function floatFormatter(vals) {
    const finite = vals.filter((v) => Number.isFinite(v));
    const nonzero2 = finite.filter((v) => v !== 0).map(abs);
    let expMode = false;
    if (nonzero2.length) {
      const mx = max(...nonzero2), mn = Math.min(...nonzero2);
      expMode = mx >= 1e8 || mn < 1e-4 || mx / mn > 1e3;
    }
    let padLeft = 0, padRight = 0, precision = 0, expSize = 0;
    if (finite.length) {
      if (expMode) {
        const parts = finite.map((v) => scientific(v, PRECISION));
        expSize = max(...parts.map((p) => p.exp.length)) - 1;
        precision = max(...parts.map((p) => p.fp.length));
        padLeft = max(...parts.map((p) => p.ip.length));
        padRight = expSize + 2 + precision;
      } else {
        const parts = finite.map((v) => positional(v, PRECISION));
        padLeft = max(...parts.map((p) => p.ip.length));
        padRight = max(...parts.map((p) => p.fp.length));
      }
    }
    if (finite.length !== vals.length) {
      const negInf = vals.some((v) => v === -Infinity);
      const offset = padRight + 1;
      padLeft = max(padLeft, 3 - offset, 3 + (negInf ? 1 : 0) - offset);
    }
    const width = padLeft + padRight + 1;
    return (v) => {
      if (!Number.isFinite(v)) return (v !== v ? "nan" : v > 0 ? "inf" : "-inf").padStart(width);
      if (expMode) {
        const p2 = scientific(v, PRECISION);
        return `${p2.ip.padStart(padLeft)}.${p2.fp.padEnd(precision, "0")}e${p2.exp[0]}${p2.exp.slice(1).padStart(expSize, "0")}`;
      }
      const p = positional(v, PRECISION);
      return `${p.ip.padStart(padLeft)}.${p.fp.padEnd(padRight)}`;
    };
  }
  function formatter(vals, dtype) {
    if (dtype === "bool") return (v) => v ? " True" : "False";
    if (dtype === "int64") {
      const w = max(...vals.map((v) => String(v + 0).length));
      return (v) => String(v + 0).padStart(w);
    }
    return floatFormatter(vals);
  }
  function arrayToString(data, shape, dtype) {
    if (shape.length === 0) return scalarString(data[0], dtype);
    if (data.length === 0) return "[]";
    const nd = shape.length, strides = new Array(nd);
    for (let i = nd - 1, s = 1; i >= 0; i--) {
      strides[i] = s;
      s *= shape[i];
    }
    const summary = data.length > THRESHOLD;
    const shown = (axis) => {
      const n = shape[axis];
      if (!summary || n <= 2 * EDGEITEMS) return { lead: [...Array(n).keys()], trail: [] };
      return { lead: [0, 1, 2].slice(0, EDGEITEMS), trail: [n - 3, n - 2, n - 1].slice(3 - EDGEITEMS) };
    };
    const vals = [];
    const collect = (off, axis) => {
      if (axis === nd) {
        vals.push(data[off]);
        return;
      }
      const { lead, trail } = shown(axis);
      for (const i of [...lead, ...trail]) collect(off + i * strides[axis], axis + 1);
    };
    collect(0, 0);
    const fmt = formatter(vals, dtype);
    const recurse = (off, axis, indent, width) => {
      const { lead, trail } = shown(axis);
      const axesLeft = nd - axis, nextIndent = indent + " ", nextWidth = width - 1;
      let s = "";
      if (axesLeft === 1) {
        const elemWidth = width - 1;
        let line = indent;
        const add = (word) => {
          if (line.length + word.length > elemWidth && line.length > indent.length) {
            s += line.trimEnd() + "\n";
            line = indent;
          }
          line += word;
        };
        const items = lead.map((i) => fmt(data[off + i * strides[axis]]));
        const tail = trail.map((i) => fmt(data[off + i * strides[axis]]));
        const words = trail.length ? [...items, "...", ...tail] : items;
        words.forEach((w, k) => {
          add(w);
          if (k < words.length - 1) line += " ";
        });
        s += line;
      } else {
        const sep = "\n".repeat(axesLeft - 1);
        const rows = lead.map((i) => recurse(off + i * strides[axis], axis + 1, nextIndent, nextWidth));
        if (trail.length) rows.push("...", ...trail.map((i) => recurse(off + i * strides[axis], axis + 1, nextIndent, nextWidth)));
        s = rows.map((r) => indent + r).join(sep);
      }
      return `[${s.slice(indent.length)}]`;
    };
    return recurse(0, 0, " ", LINEWIDTH);
  }

  // grader/np/index.mjs
  var { exp, log, sqrt, abs: abs2, tanh, sin, cos, floor, ceil, sign, trunc, round: mround, pow, max: mmax, min: mmin, log1p, expm1 } = Math;
  var { isInteger, isFinite } = Number;
  var isArray = Array.isArray;
  var isView = (v) => ArrayBuffer.isView(v) && typeof v.length === "number";
  var DTYPES = {
    float64: "float64",
    float: "float64",
    double: "float64",
    f8: "float64",
    int64: "int64",
    int: "int64",
    i8: "int64",
    bool: "bool",
    bool_: "bool",
    "?": "bool"
  };
  var RANK = { bool: 0, int64: 1, float64: 2 };
  var BY_RANK = ["bool", "int64", "float64"];
  function describe(v) {
    if (v === null || v === void 0) return String(v);
    if (typeof v === "string") return `a string (${JSON.stringify(v.length > 20 ? v.slice(0, 20) + "\u2026" : v)})`;
    if (typeof v === "function") return "a function";
    if (typeof v === "object") return v instanceof NDArray ? `an array of shape ${formatShape(v.shape)}` : "an object";
    return `${typeof v} ${String(v)}`;
  }
  function dtypeOf(dt, where2) {
    if (dt === void 0 || dt === null) return null;
    if (typeof dt === "function" && (dt.name === "Number" || dt.name === "Boolean")) return dt.name === "Number" ? "float64" : "bool";
    if (typeof dt === "string" && Object.hasOwn(DTYPES, dt)) return DTYPES[dt];
    throw new TypeError(`${where2}: unsupported dtype ${typeof dt === "string" ? `'${dt}'` : describe(dt)}; this np has 'float64', 'int64' and 'bool'`);
  }
  var sizeOf = (shape) => {
    let n = 1;
    for (const d of shape) n *= d;
    return n;
  };
  var MAX_SIZE = 2 ** 27;
  function alloc(dtype, n) {
    if (n > MAX_SIZE) throw new RangeError(`np: an array of ${n} elements is too big (the limit is ${MAX_SIZE}); check the shapes`);
    return dtype === "bool" ? new Uint8Array(n) : new Float64Array(n);
  }
  var sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
  function stridesOf(shape) {
    const st = new Array(shape.length);
    for (let i = shape.length - 1, s = 1; i >= 0; i--) {
      st[i] = s;
      s *= shape[i];
    }
    return st;
  }
  function castValue(v, dtype, where2) {
    if (dtype === "bool") return v !== 0 ? 1 : 0;
    if (dtype === "int64") {
      if (!isFinite(v)) throw new ValueError(`${where2}: cannot convert ${v} to int64`);
      return trunc(v) + 0;
    }
    return v;
  }
  function castData(data, from, to, where2) {
    const out = alloc(to, data.length);
    if (from === to || to === "float64" || from === "bool") out.set(data);
    else for (let i = 0; i < data.length; i++) out[i] = castValue(data[i], to, where2);
    return out;
  }
  var ValueError = class extends Error {
    constructor(m) {
      super(m);
      this.name = "ValueError";
    }
  };
  var AxisError = class extends ValueError {
    constructor(m) {
      super(m);
      this.name = "AxisError";
    }
  };
  var IndexError = class extends Error {
    constructor(m) {
      super(m);
      this.name = "IndexError";
    }
  };
  function normShape(shape, where2, allowUnknown = false) {
    const dims = typeof shape === "number" ? [shape] : shape instanceof NDArray ? shape.tolist() : shape;
    if (!isArray(dims) || !dims.every((d) => typeof d === "number" && isInteger(d)))
      throw new TypeError(`${where2}: a shape is an integer or an array of integers, got ${describe(shape)}`);
    if (dims.some((d) => d < (allowUnknown ? -1 : 0))) throw new ValueError(`${where2}: negative dimensions are not allowed (shape ${formatShape(dims)})`);
    return dims.slice();
  }
  function normAxis(axis, ndim, where2) {
    if (typeof axis !== "number" || !isInteger(axis)) throw new TypeError(`${where2}: axis must be an integer, got ${describe(axis)}`);
    if (axis < -ndim || axis >= ndim) throw new AxisError(`${where2}: axis ${axis} is out of bounds for array of dimension ${ndim}`);
    return axis < 0 ? axis + ndim : axis;
  }
  var isOptions = (x) => x !== null && typeof x === "object" && !isArray(x) && !isView(x) && !(x instanceof NDArray);
  function parseArgs(where2, args, names, defaults = {}) {
    const out = { ...defaults };
    let pos = args;
    if (args.length && isOptions(args[args.length - 1])) {
      const opts = args[args.length - 1];
      pos = args.slice(0, -1);
      for (const k of Object.keys(opts)) {
        if (!names.includes(k)) throw new TypeError(`${where2}: unknown option '${k}' (options: ${names.join(", ")})`);
        if (pos[names.indexOf(k)] !== void 0) throw new TypeError(`${where2}: got multiple values for '${k}'`);
        if (opts[k] !== void 0) out[k] = opts[k];
      }
    }
    if (pos.length > names.length)
      throw new TypeError(`${where2}: too many arguments; after the array it takes ${names.join(", ")} (or an options object {${names.join(", ")}})`);
    pos.forEach((v, i) => {
      if (v !== void 0) out[names[i]] = v;
    });
    return out;
  }
  function gatherIndex(shape, strides, base = 0) {
    const n = sizeOf(shape), nd = shape.length, idx = new Int32Array(n), counter = new Array(nd).fill(0);
    let off = base;
    for (let i = 0; i < n; i++) {
      idx[i] = off;
      for (let ax = nd - 1; ax >= 0; ax--) {
        off += strides[ax];
        if (++counter[ax] < shape[ax]) break;
        off -= strides[ax] * shape[ax];
        counter[ax] = 0;
      }
    }
    return idx;
  }
  function broadcastStrides(shape, outShape) {
    const off = outShape.length - shape.length, st = new Array(outShape.length).fill(0);
    for (let i = shape.length - 1, s = 1; i >= 0; i--) {
      st[i + off] = shape[i] === 1 ? 0 : s;
      s *= shape[i];
    }
    return st;
  }
  function broadcastShapes(where2, shapes) {
    const nd = mmax(...shapes.map((s) => s.length)), out = new Array(nd).fill(1);
    for (const s of shapes) {
      for (let i = 0; i < s.length; i++) {
        const j = nd - s.length + i, d = s[i];
        if (d === out[j] || d === 1) continue;
        if (out[j] !== 1) throw new ValueError(`${where2}: operands could not be broadcast together with shapes ${shapes.map(formatShape).join(" ")}`);
        out[j] = d;
      }
    }
    return out;
  }
  var expandIndex = (shape, outShape) => gatherIndex(outShape, broadcastStrides(shape, outShape));
  var broadcastRows = (outShape, shapes, row) => stridedRows(outShape, shapes.map((s) => broadcastStrides(s, outShape)), row);
  function stridedRows(outShape, st, row) {
    const nd = outShape.length;
    const n = nd ? outShape[nd - 1] : 1, inner = st.map((s) => nd ? s[nd - 1] : 0);
    const rows = n === 0 ? 0 : sizeOf(outShape) / n, q = st.length;
    const offs = new Array(q).fill(0), counter = new Array(nd).fill(0);
    for (let r = 0; r < rows; r++) {
      row(r * n, offs, inner, n);
      for (let ax = nd - 2; ax >= 0; ax--) {
        for (let i = 0; i < q; i++) offs[i] += st[i][ax];
        if (++counter[ax] < outShape[ax]) break;
        for (let i = 0; i < q; i++) offs[i] -= st[i][ax] * outShape[ax];
        counter[ax] = 0;
      }
    }
  }
  function take(a, idx, shape) {
    const out = alloc(a.dtype, idx.length), d = a.data;
    for (let i = 0; i < idx.length; i++) out[i] = d[idx[i]];
    return new NDArray(out, shape, a.dtype);
  }
  var scalarOut = (v, dtype) => dtype === "bool" ? v !== 0 : v;
  var isScalar = (x) => typeof x === "number" || typeof x === "boolean";
  function fromNested(x, dtype, where2) {
    const shape = [];
    for (let v = x; ; ) {
      if (v instanceof NDArray) {
        shape.push(...v.shape);
        break;
      }
      if (!isArray(v) && !isView(v)) break;
      shape.push(v.length);
      if (v.length === 0) break;
      v = v[0];
    }
    const data = new Float64Array(sizeOf(shape));
    let k = 0, rank = -1;
    const ragged = (depth) => new ValueError(`${where2}: setting an array element with a sequence. The requested array has an inhomogeneous shape after ${depth} dimensions. The detected shape was ${formatShape(shape.slice(0, depth))} + inhomogeneous part.`);
    const fill = (v, depth, path) => {
      if (v instanceof NDArray) {
        if (!sameShape(v.shape, shape.slice(depth))) throw ragged(depth);
        data.set(v.data, k);
        k += v.size;
        rank = mmax(rank, RANK[v.dtype]);
      } else if (depth === shape.length) {
        if (typeof v === "number") rank = 2;
        else if (typeof v === "boolean") rank = mmax(rank, 0);
        else if (isArray(v) || isView(v)) throw ragged(depth);
        else throw new TypeError(`${where2}: element ${path || "(the value)"} is ${describe(v)}; expected a number or a boolean`);
        data[k++] = +v;
      } else {
        if (!isArray(v) && !isView(v) || v.length !== shape[depth]) throw ragged(depth);
        for (let i = 0; i < v.length; i++) fill(v[i], depth + 1, `${path}[${i}]`);
      }
    };
    fill(x, 0, "");
    const natural = rank < 0 ? "float64" : BY_RANK[rank];
    const dt = dtype || natural;
    return new NDArray(dt === "float64" ? data : castData(data, "float64", dt, where2), shape, dt);
  }
  function asarray(x, dtype, where2 = "asarray") {
    const dt = dtypeOf(dtype, where2);
    if (x instanceof NDArray) return !dt || dt === x.dtype ? x : x.astype(dt);
    if (typeof x === "number" || typeof x === "boolean") {
      const natural = typeof x === "boolean" ? "bool" : "float64", d = dt || natural;
      const out = alloc(d, 1);
      out[0] = castValue(+x, d, where2);
      return new NDArray(out, [], d);
    }
    if (isArray(x) || isView(x)) return fromNested(x, dt, where2);
    throw new TypeError(`${where2}: expected an array, a nested JS array or a number, got ${describe(x)}`);
  }
  function array(x, ...args) {
    const { dtype } = parseArgs("array", args, ["dtype"]);
    const a = asarray(x, dtype, "array");
    return a === x ? a.copy() : a;
  }
  function operand(x, where2) {
    if (typeof x === "number") return { data: [x], shape: [], dtype: isInteger(x) ? "int64" : "float64", scalar: true };
    if (typeof x === "boolean") return { data: [+x], shape: [], dtype: "bool", scalar: true };
    const a = asarray(x, null, where2);
    return { data: a.data, shape: a.shape, dtype: a.dtype, scalar: false };
  }
  var NDArray = class _NDArray {
    constructor(data, shape, dtype = data instanceof Uint8Array ? "bool" : "float64") {
      if (!Object.hasOwn(RANK, dtype) || dtype === "bool" !== data instanceof Uint8Array)
        throw new TypeError(`NDArray: dtype ${describe(dtype)} does not fit its data`);
      if (sizeOf(shape) !== data.length) throw new ValueError(`NDArray: shape ${formatShape(shape)} needs ${sizeOf(shape)} elements, data has ${data.length}`);
      this.data = data;
      this.shape = Object.freeze(shape.slice());
      this.dtype = dtype;
    }
    get ndim() {
      return this.shape.length;
    }
    get size() {
      return this.data.length;
    }
    /** All axes reversed, as in NumPy: (B, T, d).T is (d, T, B). */
    get T() {
      return transpose(this);
    }
    tolist() {
      const { data, shape, dtype } = this;
      const conv = dtype === "bool" ? (v) => v !== 0 : (v) => v;
      let k = 0;
      const build = (axis) => {
        if (axis === shape.length) return conv(data[k++]);
        const row = new Array(shape[axis]);
        for (let i = 0; i < row.length; i++) row[i] = build(axis + 1);
        return row;
      };
      return build(0);
    }
    item(...idx) {
      if (idx.length === 0) {
        if (this.size !== 1) throw new ValueError(`item: can only convert an array of size 1 to a scalar (this one has shape ${formatShape(this.shape)})`);
        return scalarOut(this.data[0], this.dtype);
      }
      if (idx.length === 1) {
        const i = idx[0];
        if (!isInteger(i) || i < -this.size || i >= this.size) throw new IndexError(`item: index ${i} is out of bounds for size ${this.size}`);
        return scalarOut(this.data[i < 0 ? i + this.size : i], this.dtype);
      }
      return this.get(...idx);
    }
    toString() {
      return arrayToString(this.data, this.shape, this.dtype);
    }
    [/* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom")]() {
      return this.toString();
    }
    toJSON() {
      return this.tolist();
    }
    // JS has no operator overloading: `a + 1` would silently concatenate strings. Refuse it.
    [Symbol.toPrimitive](hint) {
      if (hint === "string") return this.toString();
      if (this.size === 1) return this.data[0];
      throw new TypeError(`use np.add(a, b) / a.add(b): JavaScript operators do not work on arrays (this one has shape ${formatShape(this.shape)}; to print it use String(a) or print(a))`);
    }
    valueOf() {
      return this[Symbol.toPrimitive]("number");
    }
    *[Symbol.iterator]() {
      if (this.ndim === 0) throw new TypeError("iteration over a 0-d array");
      for (let i = 0; i < this.shape[0]; i++) yield this.get(i);
    }
    // Integer indices (negative count from the end) or null for a whole axis; missing trailing indices
    // mean whole axes. All axes given as integers → a JS scalar, otherwise a new array (a copy).
    _select(idx, where2) {
      const { shape } = this, st = stridesOf(shape);
      if (idx.length > shape.length) throw new IndexError(`${where2}: too many indices for array: array is ${shape.length}-dimensional, but ${idx.length} were indexed`);
      let base = 0;
      const outShape = [], outStrides = [];
      for (let ax = 0; ax < shape.length; ax++) {
        const i = idx[ax];
        if (ax >= idx.length || i === null) {
          outShape.push(shape[ax]);
          outStrides.push(st[ax]);
          continue;
        }
        if (typeof i !== "number" || !isInteger(i)) throw new IndexError(`${where2}: index for axis ${ax} must be an integer or null (the whole axis), got ${describe(i)}`);
        if (i < -shape[ax] || i >= shape[ax]) throw new IndexError(`${where2}: index ${i} is out of bounds for axis ${ax} with size ${shape[ax]}`);
        base += (i < 0 ? i + shape[ax] : i) * st[ax];
      }
      return { base, outShape, outStrides };
    }
    get(...idx) {
      const { base, outShape, outStrides } = this._select(idx, "get");
      if (outShape.length === 0) return scalarOut(this.data[base], this.dtype);
      return take(this, gatherIndex(outShape, outStrides, base), outShape);
    }
    at(i) {
      return this.get(i);
    }
    /** a.set(i, j, value), a.set(i, null, rowValues), or a.set(boolMask, value). Returns a. */
    set(...args) {
      if (args.length === 0) throw new TypeError("set: expected indices and a value");
      const value = args.pop();
      const cast = (v2) => castValue(v2, this.dtype, "set");
      if (args.length === 1 && (args[0] instanceof _NDArray || isArray(args[0]))) {
        const mask = asarray(args[0], null, "set");
        if (mask.dtype !== "bool") throw new IndexError(`set: an array index must be a boolean mask (got dtype ${mask.dtype}); use integer indices for single elements`);
        if (!sameShape(mask.shape, this.shape)) throw new IndexError(`set: boolean mask of shape ${formatShape(mask.shape)} does not match the array's shape ${formatShape(this.shape)}`);
        const v2 = asarray(value, null, "set"), count = mask.data.reduce((s, m) => s + m, 0);
        if (v2.size !== 1 && v2.size !== count) throw new ValueError(`set: ${v2.size} values cannot be assigned to the ${count} positions the mask selects`);
        for (let i = 0, k = 0; i < mask.size; i++) if (mask.data[i]) this.data[i] = cast(v2.data[v2.size === 1 ? 0 : k++]);
        return this;
      }
      const { base, outShape, outStrides } = this._select(args, "set");
      const target = gatherIndex(outShape, outStrides, base), v = asarray(value, null, "set");
      let fits = v.ndim <= outShape.length;
      try {
        fits = fits && sameShape(broadcastShapes("set", [v.shape, outShape]), outShape);
      } catch {
        fits = false;
      }
      if (!fits)
        throw new ValueError(`set: could not broadcast input array from shape ${formatShape(v.shape)} into shape ${formatShape(outShape)}`);
      const src = expandIndex(v.shape, outShape);
      for (let i = 0; i < target.length; i++) this.data[target[i]] = cast(v.data[src[i]]);
      return this;
    }
    astype(dtype) {
      const dt = dtypeOf(dtype, "astype") || "float64";
      return new _NDArray(castData(this.data, this.dtype, dt, "astype"), this.shape, dt);
    }
    copy() {
      return new _NDArray(this.data.slice(), this.shape, this.dtype);
    }
    reshape(...shape) {
      return reshape(this, ...shape);
    }
    flatten() {
      return this.copy().reshape(-1);
    }
    ravel() {
      return reshape(this, -1);
    }
    transpose(...axes) {
      return transpose(this, ...axes);
    }
    swapaxes(a1, a2) {
      return swapaxes(this, a1, a2);
    }
    squeeze(...args) {
      return squeeze(this, ...args);
    }
  };
  function binary(name, x, y, f, kind) {
    const a = operand(x, name), b = operand(y, name);
    const shape = sameShape(a.shape, b.shape) ? a.shape : broadcastShapes(name, [a.shape, b.shape]);
    const inType = BY_RANK[mmax(RANK[a.dtype], RANK[b.dtype])];
    const outType = kind === "cmp" || kind === "logic" ? "bool" : kind === "div" ? "float64" : inType === "bool" && kind !== "minmax" ? "int64" : inType;
    if (name === "power" && outType === "int64" && b.data.some((v) => v < 0))
      throw new ValueError('power: Integers to negative integer powers are not allowed (make the base a float, e.g. np.power(a.astype("float64"), b))');
    const n = sizeOf(shape), out = alloc(outType, n), ad = a.data, bd = b.data;
    if (sameShape(a.shape, shape) && sameShape(b.shape, shape)) for (let i = 0; i < n; i++) out[i] = f(ad[i], bd[i]);
    else if (bd.length === 1 && sameShape(a.shape, shape)) {
      const v = bd[0];
      for (let i = 0; i < n; i++) out[i] = f(ad[i], v);
    } else if (ad.length === 1 && sameShape(b.shape, shape)) {
      const v = ad[0];
      for (let i = 0; i < n; i++) out[i] = f(v, bd[i]);
    } else {
      broadcastRows(shape, [a.shape, b.shape], (o, offs, inner, len) => {
        const sa = inner[0], sb = inner[1];
        for (let j = 0, pa = offs[0], pb = offs[1]; j < len; j++, pa += sa, pb += sb) out[o + j] = f(ad[pa], bd[pb]);
      });
    }
    return a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
  }
  var cpow = (x, y) => x === 1 || x === -1 && (y === Infinity || y === -Infinity) ? 1 : pow(x, y);
  var truthy = (v) => v !== 0;
  var BINARY = {
    add: [(x, y) => x + y, "arith"],
    subtract: [(x, y) => x - y, "arith"],
    multiply: [(x, y) => x * y, "arith"],
    divide: [(x, y) => x / y, "div"],
    power: [cpow, "arith"],
    maximum: [mmax, "minmax"],
    minimum: [mmin, "minmax"],
    equal: [(x, y) => x === y, "cmp"],
    not_equal: [(x, y) => x !== y, "cmp"],
    less: [(x, y) => x < y, "cmp"],
    less_equal: [(x, y) => x <= y, "cmp"],
    greater: [(x, y) => x > y, "cmp"],
    greater_equal: [(x, y) => x >= y, "cmp"],
    logical_and: [(x, y) => truthy(x) && truthy(y), "logic"],
    logical_or: [(x, y) => truthy(x) || truthy(y), "logic"],
    logical_xor: [(x, y) => truthy(x) !== truthy(y), "logic"]
  };
  function unary(name, x, f, kind) {
    const a = operand(x, name);
    if (name === "negative" && a.dtype === "bool")
      throw new TypeError("negative: the boolean negative is not supported, use np.logical_not instead");
    const outType = kind === "float" ? "float64" : kind === "pred" ? "bool" : a.dtype === "bool" && name !== "absolute" ? "int64" : a.dtype;
    const d = a.data, out = alloc(outType, d.length);
    for (let i = 0; i < d.length; i++) out[i] = f(d[i]);
    return a.scalar ? scalarOut(out[0], outType) : new NDArray(out, a.shape, outType);
  }
  var UNARY = {
    exp: [exp, "float"],
    log: [log, "float"],
    sqrt: [sqrt, "float"],
    tanh: [tanh, "float"],
    sin: [sin, "float"],
    cos: [cos, "float"],
    log1p: [log1p, "float"],
    expm1: [expm1, "float"],
    absolute: [abs2, "keep"],
    negative: [(v) => -v, "keep"],
    square: [(v) => v * v, "keep"],
    sign: [(v) => v !== v ? NaN : sign(v) + 0, "keep"],
    floor: [floor, "keep"],
    ceil: [ceil, "keep"],
    isnan: [(v) => v !== v, "pred"],
    isinf: [(v) => v === Infinity || v === -Infinity, "pred"],
    isfinite: [isFinite, "pred"],
    logical_not: [(v) => v === 0, "pred"]
  };
  function rint(x) {
    const r = mround(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function round(x, ...args) {
    const { decimals } = parseArgs("round", args, ["decimals"], { decimals: 0 });
    if (!isInteger(decimals)) throw new TypeError(`round: decimals must be an integer, got ${describe(decimals)}`);
    const a = operand(x, "round");
    if (a.dtype !== "float64" && decimals >= 0) return a.scalar ? x : asarray(x).copy();
    const p = pow(10, abs2(decimals));
    const f = decimals >= 0 ? (v) => rint(v * p) / p : (v) => rint(v / p) * p;
    return unary("round", x, f, "keep");
  }
  function where(cond, ...xy) {
    if (xy.length === 0) return nonzero(cond);
    if (xy.length !== 2) throw new TypeError("where: takes (condition) or (condition, x, y)");
    const c = operand(cond, "where"), a = operand(xy[0], "where"), b = operand(xy[1], "where");
    const shape = broadcastShapes("where", [c.shape, a.shape, b.shape]);
    const outType = BY_RANK[mmax(RANK[a.dtype], RANK[b.dtype])];
    const n = sizeOf(shape), out = alloc(outType, n);
    const cd = c.data, ad = a.data, bd = b.data;
    broadcastRows(shape, [c.shape, a.shape, b.shape], (o, offs, inner, len) => {
      const [sc, sa, sb] = inner;
      for (let j = 0, pc = offs[0], pa = offs[1], pb = offs[2]; j < len; j++, pc += sc, pa += sa, pb += sb) out[o + j] = cd[pc] !== 0 ? ad[pa] : bd[pb];
    });
    return c.scalar && a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
  }
  function nonzero(x) {
    const a = asarray(x, null, "nonzero");
    if (a.ndim === 0) throw new ValueError("nonzero: calling nonzero on 0d arrays is not allowed; reshape it to 1-D first");
    const st = stridesOf(a.shape), hits = [];
    for (let i = 0; i < a.size; i++) if (a.data[i] !== 0) hits.push(i);
    return a.shape.map((n, ax) => new NDArray(Float64Array.from(hits, (i) => floor(i / st[ax]) % n), [hits.length], "int64"));
  }
  function clip(x, lo, hi) {
    return minimum(maximum(x, lo), hi);
  }
  var { maximum, minimum } = Object.fromEntries(["maximum", "minimum"].map((k) => [k, (x, y) => binary(k, x, y, ...BINARY[k])]));
  var REDUCERS = {
    sum: { dtype: (t) => t === "float64" ? t : "int64", row: (d, b, n) => {
      let s = 0;
      for (let i = b; i < b + n; i++) s += d[i];
      return s;
    } },
    prod: { dtype: (t) => t === "float64" ? t : "int64", row: (d, b, n) => {
      let s = 1;
      for (let i = b; i < b + n; i++) s *= d[i];
      return s;
    } },
    mean: { dtype: () => "float64", row: (d, b, n) => REDUCERS.sum.row(d, b, n) / n },
    max: { dtype: (t) => t, empty: "maximum", row: (d, b, n) => {
      let m = d[b];
      for (let i = b + 1; i < b + n && m === m; i++) if (d[i] > m || d[i] !== d[i]) m = d[i];
      return m;
    } },
    min: { dtype: (t) => t, empty: "minimum", row: (d, b, n) => {
      let m = d[b];
      for (let i = b + 1; i < b + n && m === m; i++) if (d[i] < m || d[i] !== d[i]) m = d[i];
      return m;
    } },
    argmax: { dtype: () => "int64", single: true, emptyMsg: "attempt to get argmax of an empty sequence", row: (d, b, n) => {
      let k = 0;
      for (let i = 1; i < n && d[b + k] === d[b + k]; i++) if (d[b + i] > d[b + k] || d[b + i] !== d[b + i]) k = i;
      return k;
    } },
    argmin: { dtype: () => "int64", single: true, emptyMsg: "attempt to get argmin of an empty sequence", row: (d, b, n) => {
      let k = 0;
      for (let i = 1; i < n && d[b + k] === d[b + k]; i++) if (d[b + i] < d[b + k] || d[b + i] !== d[b + i]) k = i;
      return k;
    } },
    any: { dtype: () => "bool", row: (d, b, n) => {
      for (let i = b; i < b + n; i++) if (d[i] !== 0) return 1;
      return 0;
    } },
    all: { dtype: () => "bool", row: (d, b, n) => {
      for (let i = b; i < b + n; i++) if (d[i] === 0) return 0;
      return 1;
    } },
    var: { dtype: () => "float64", ddof: true, row: (d, b, n, ddof) => {
      const m = REDUCERS.sum.row(d, b, n) / n;
      let s = 0;
      for (let i = b; i < b + n; i++) s += (d[i] - m) * (d[i] - m);
      return s / (n - ddof);
    } },
    std: { dtype: () => "float64", ddof: true, row: (d, b, n, ddof) => sqrt(REDUCERS.var.row(d, b, n, ddof)) }
  };
  function reduce(name, x, args) {
    const spec = REDUCERS[name];
    const names = spec.ddof ? ["axis", "keepdims", "ddof"] : ["axis", "keepdims"];
    const { axis, keepdims, ddof } = parseArgs(name, args, names, { axis: null, keepdims: false, ddof: 0 });
    const a = asarray(x, null, name), nd = a.ndim;
    let axes;
    if (axis === null) axes = [...Array(nd).keys()];
    else if (isArray(axis) && !spec.single) axes = axis.map((ax) => normAxis(ax, nd, name)).sort((p, q) => p - q);
    else axes = [normAxis(axis, nd, name)];
    if (new Set(axes).size !== axes.length) throw new ValueError(`${name}: duplicate value in 'axis'`);
    const kept = [...Array(nd).keys()].filter((ax) => !axes.includes(ax));
    const n = sizeOf(axes.map((ax) => a.shape[ax]));
    if (n === 0 && (spec.empty || spec.emptyMsg))
      throw new ValueError(`${name}: ${spec.emptyMsg || `zero-size array to reduction operation ${spec.empty} which has no identity`}`);
    const perm = [...kept, ...axes];
    const src = perm.every((p, i) => p === i) ? a : transpose(a, perm);
    const rows = sizeOf(kept.map((ax) => a.shape[ax])), outType = spec.dtype(a.dtype), out = alloc(outType, rows);
    for (let r = 0; r < rows; r++) out[r] = spec.row(src.data, r * n, n, ddof);
    const shape = keepdims ? a.shape.map((d, ax) => axes.includes(ax) ? 1 : d) : kept.map((ax) => a.shape[ax]);
    return shape.length === 0 ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
  }
  function allclose(x, y, ...args) {
    return all(isclose(x, y, ...args));
  }
  function isclose(x, y, ...args) {
    const { rtol, atol, equal_nan } = parseArgs("isclose", args, ["rtol", "atol", "equal_nan"], { rtol: 1e-5, atol: 1e-8, equal_nan: false });
    return binary("isclose", x, y, (p, q) => {
      if (p === q) return true;
      if (p !== p || q !== q) return equal_nan && p !== p && q !== q;
      return abs2(p - q) <= atol + rtol * abs2(q);
    }, "cmp");
  }
  function array_equal(x, y) {
    const a = asarray(x, null, "array_equal"), b = asarray(y, null, "array_equal");
    return sameShape(a.shape, b.shape) && a.data.every((v, i) => v === b.data[i]);
  }
  var all = (x, ...args) => reduce("all", x, args);
  function reshape(x, ...args) {
    const a = asarray(x, null, "reshape");
    const shape = normShape(args.length === 1 ? args[0] : args, "reshape", true);
    const unknown = shape.indexOf(-1);
    if (shape.some((d, i) => d === -1 && i !== unknown)) throw new ValueError("reshape: can only specify one unknown dimension (-1)");
    if (unknown >= 0) {
      const rest = sizeOf(shape.filter((d) => d !== -1));
      if (rest === 0 || a.size % rest !== 0) throw new ValueError(`reshape: cannot reshape array of size ${a.size} into shape ${formatShape(shape)}`);
      shape[unknown] = a.size / rest;
    }
    if (sizeOf(shape) !== a.size) throw new ValueError(`reshape: cannot reshape array of size ${a.size} into shape ${formatShape(shape)}`);
    return new NDArray(a.data, shape, a.dtype);
  }
  function transpose(x, ...args) {
    const a = asarray(x, null, "transpose"), nd = a.ndim;
    let axes = args.length === 1 && isOptions(args[0]) ? args[0].axes : args.length === 1 && (isArray(args[0]) || args[0] == null) ? args[0] : args;
    if (axes == null || axes.length === 0) axes = [...Array(nd).keys()].reverse();
    if (axes.length !== nd) throw new ValueError(`transpose: axes don't match array (got ${axes.length} axes for an array of shape ${formatShape(a.shape)})`);
    axes = axes.map((ax) => normAxis(ax, nd, "transpose"));
    if (new Set(axes).size !== nd) throw new ValueError(`transpose: repeated axis in transpose (${axes.join(", ")})`);
    const st = stridesOf(a.shape), shape = axes.map((ax) => a.shape[ax]);
    if (axes.every((ax, i) => ax === i)) return a.copy();
    const d = a.data, out = alloc(a.dtype, a.size);
    stridedRows(shape, [axes.map((ax) => st[ax])], (o, offs, inner, len) => {
      const s = inner[0];
      for (let j = 0, p = offs[0]; j < len; j++, p += s) out[o + j] = d[p];
    });
    return new NDArray(out, shape, a.dtype);
  }
  function swapaxes(x, a1, a2) {
    const a = asarray(x, null, "swapaxes");
    const i = normAxis(a1, a.ndim, "swapaxes"), j = normAxis(a2, a.ndim, "swapaxes");
    const axes = [...Array(a.ndim).keys()];
    [axes[i], axes[j]] = [axes[j], axes[i]];
    return transpose(a, axes);
  }
  function expand_dims(x, axis) {
    const a = asarray(x, null, "expand_dims"), shape = a.shape.slice();
    shape.splice(normAxis(axis, a.ndim + 1, "expand_dims"), 0, 1);
    return new NDArray(a.data, shape, a.dtype);
  }
  function squeeze(x, ...args) {
    const a = asarray(x, null, "squeeze");
    const { axis } = parseArgs("squeeze", args, ["axis"], { axis: null });
    const axes = axis === null ? a.shape.flatMap((d, i) => d === 1 ? [i] : []) : (isArray(axis) ? axis : [axis]).map((ax) => normAxis(ax, a.ndim, "squeeze"));
    if (axes.some((ax) => a.shape[ax] !== 1)) throw new ValueError(`squeeze: cannot select an axis to squeeze out which has size not equal to one (shape ${formatShape(a.shape)})`);
    return new NDArray(a.data, a.shape.filter((_, i) => !axes.includes(i)), a.dtype);
  }
  function concatenate(arrays, ...args) {
    if (!isArray(arrays) || arrays.length === 0) throw new ValueError("concatenate: need at least one array to concatenate (pass them in a JS array)");
    const { axis } = parseArgs("concatenate", args, ["axis"], { axis: 0 });
    let list = arrays.map((x) => asarray(x, null, "concatenate"));
    if (axis === null) list = list.map((a) => reshape(a, -1));
    const nd = list[0].ndim;
    if (nd === 0) throw new ValueError("concatenate: zero-dimensional arrays cannot be concatenated");
    const ax = normAxis(axis ?? 0, nd, "concatenate");
    list.forEach((a, k2) => {
      if (a.ndim !== nd) throw new ValueError(`concatenate: all the input arrays must have same number of dimensions, but the array at index 0 has ${nd} dimension(s) and the array at index ${k2} has ${a.ndim} dimension(s)`);
      a.shape.forEach((d, i) => {
        if (i !== ax && d !== list[0].shape[i]) throw new ValueError(`concatenate: all the input array dimensions except for the concatenation axis must match exactly, but along dimension ${i}, the array at index 0 has size ${list[0].shape[i]} and the array at index ${k2} has size ${d}`);
      });
    });
    const dtype = BY_RANK[mmax(...list.map((a) => RANK[a.dtype]))];
    const shape = list[0].shape.slice();
    shape[ax] = list.reduce((s, a) => s + a.shape[ax], 0);
    const out = alloc(dtype, sizeOf(shape)), outer = sizeOf(shape.slice(0, ax)), inner = sizeOf(shape.slice(ax + 1));
    let k = 0;
    for (let o = 0; o < outer; o++) {
      for (const a of list) {
        const len = a.shape[ax] * inner;
        out.set(a.data.subarray(o * len, (o + 1) * len), k);
        k += len;
      }
    }
    return new NDArray(out, shape, dtype);
  }
  function stack(arrays, ...args) {
    if (!isArray(arrays) || arrays.length === 0) throw new ValueError("stack: need at least one array to stack (pass them in a JS array)");
    const { axis } = parseArgs("stack", args, ["axis"], { axis: 0 });
    const list = arrays.map((x) => asarray(x, null, "stack"));
    if (!list.every((a) => sameShape(a.shape, list[0].shape)))
      throw new ValueError(`stack: all input arrays must have the same shape (got ${list.map((a) => formatShape(a.shape)).join(" ")})`);
    const ax = normAxis(axis, list[0].ndim + 1, "stack");
    return concatenate(list.map((a) => expand_dims(a, ax)), ax);
  }
  var SIG = "with gufunc signature (n?,k),(k,m?)->(n?,m?)";
  function matmul(x, y) {
    const A = asarray(x, null, "matmul"), B = asarray(y, null, "matmul");
    [A, B].forEach((t, i) => {
      if (t.ndim === 0) throw new ValueError(`matmul: Input operand ${i} does not have enough dimensions (has 0, gufunc core ${SIG} requires 1)`);
    });
    const as = A.ndim === 1 ? [1, A.shape[0]] : A.shape, bs = B.ndim === 1 ? [B.shape[0], 1] : B.shape;
    const n = as[as.length - 2], k = as[as.length - 1], k2 = bs[bs.length - 2], m = bs[bs.length - 1];
    if (k !== k2) throw new ValueError(`matmul: Input operand 1 has a mismatch in its core dimension 0, ${SIG} (size ${k2} is different from ${k})`);
    const ba = as.slice(0, -2), bb = bs.slice(0, -2);
    let batch;
    try {
      batch = broadcastShapes("matmul", [ba, bb]);
    } catch {
      const remap = (orig, b) => `${formatShape(orig)}->(${[...b, "newaxis", "newaxis"].join(",")})`;
      throw new ValueError(`matmul: operands could not be broadcast together with remapped shapes [original->remapped]: ${remap(A.shape, ba)} ${remap(B.shape, bb)}  and requested shape (${n},${m})`);
    }
    const dtype = BY_RANK[mmax(RANK[A.dtype], RANK[B.dtype])];
    const nb = sizeOf(batch), ia = expandIndex(ba, batch), ib = expandIndex(bb, batch);
    const cd = new Float64Array(nb * n * m);
    for (let t = 0; t < nb; t++) gemm(A.data, ia[t] * n * k, B.data, ib[t] * k * m, cd, t * n * m, n, k, m);
    const shape = [...batch, ...A.ndim === 1 ? [] : [n], ...B.ndim === 1 ? [] : [m]];
    const out = dtype === "bool" ? castData(cd, "float64", "bool", "matmul") : cd;
    return shape.length === 0 ? scalarOut(out[0], dtype) : new NDArray(out, shape, dtype);
  }
  function gemm(A, ao, B, bo, C, co, n, k, m) {
    const m4 = m - m % 4;
    for (let i = 0; i < n; i += 2) {
      const both = i + 1 < n, a0 = ao + i * k, a1 = both ? a0 + k : a0, c0 = co + i * m, c1 = c0 + m;
      for (let j = 0; j < m4; j += 4) {
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0, t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
          const u = A[a0 + p], v = A[a1 + p], b0 = B[bp], b1 = B[bp + 1], b2 = B[bp + 2], b3 = B[bp + 3];
          s0 += u * b0;
          s1 += u * b1;
          s2 += u * b2;
          s3 += u * b3;
          t0 += v * b0;
          t1 += v * b1;
          t2 += v * b2;
          t3 += v * b3;
        }
        C[c0 + j] = s0;
        C[c0 + j + 1] = s1;
        C[c0 + j + 2] = s2;
        C[c0 + j + 3] = s3;
        if (both) {
          C[c1 + j] = t0;
          C[c1 + j + 1] = t1;
          C[c1 + j + 2] = t2;
          C[c1 + j + 3] = t3;
        }
      }
      for (let j = m4; j < m; j++) {
        let s = 0, t = 0;
        for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
          const b = B[bp];
          s += A[a0 + p] * b;
          t += A[a1 + p] * b;
        }
        C[c0 + j] = s;
        if (both) C[c1 + j] = t;
      }
    }
  }
  function dot(x, y) {
    if (isScalar(x) || isScalar(y) || asarray(x).ndim === 0 || asarray(y).ndim === 0) return multiply(x, y);
    const a = asarray(x, null, "dot"), b = asarray(y, null, "dot");
    if (a.ndim > 2 || b.ndim > 2)
      throw new ValueError(`dot: this np's dot takes 1-D and 2-D arrays only (got ${formatShape(a.shape)} and ${formatShape(b.shape)}); use np.matmul for batches`);
    return matmul(a, b);
  }
  var multiply = (x, y) => binary("multiply", x, y, ...BINARY.multiply);
  function filled(where2, shape, value, args, defaultDtype) {
    const { dtype } = parseArgs(where2, args, ["dtype"]);
    const dt = dtypeOf(dtype, where2) || defaultDtype;
    const out = alloc(dt, sizeOf(normShape(shape, where2)));
    const v = castValue(+value, dt, where2);
    if (v !== 0) out.fill(v);
    return new NDArray(out, normShape(shape, where2), dt);
  }
  function full(shape, value, ...args) {
    const v = value instanceof NDArray && value.size === 1 ? value.item() : value;
    if (!isScalar(v)) throw new TypeError(`full: fill_value must be a number or a boolean, got ${describe(value)}`);
    return filled("full", shape, v, args, typeof v === "boolean" ? "bool" : "float64");
  }
  function like(where2, x, value, args) {
    const a = asarray(x, null, where2);
    const { dtype } = parseArgs(where2, args, ["dtype"]);
    return filled(where2, a.shape, value, dtype ? [dtype] : [], a.dtype);
  }
  function eye(N, ...args) {
    const { M, k, dtype } = parseArgs("eye", args, ["M", "k", "dtype"], { M: null, k: 0 });
    const cols = M ?? N, out = filled("eye", [N, cols], 0, [dtype], "float64");
    for (let i = 0; i < N; i++) if (i + k >= 0 && i + k < cols) out.data[i * cols + i + k] = 1;
    return out;
  }
  function arange(...args) {
    let dtype;
    if (args.length && (typeof args[args.length - 1] === "string" || isOptions(args[args.length - 1]) || typeof args[args.length - 1] === "function")) {
      const last = args.pop();
      dtype = isOptions(last) ? parseArgs("arange", [last], ["dtype"]).dtype : last;
    }
    if (args.length < 1 || args.length > 3 || !args.every((v) => typeof v === "number"))
      throw new TypeError("arange: takes (stop), (start, stop) or (start, stop, step), numbers, then optionally a dtype");
    const [start, stop, step = 1] = args.length === 1 ? [0, args[0]] : args;
    if (step === 0) throw new ValueError("arange: step must not be zero");
    const n = mmax(0, ceil((stop - start) / step));
    const dt = dtypeOf(dtype, "arange") || (args.every(isInteger) ? "int64" : "float64");
    const out = alloc(dt, n);
    for (let i = 0; i < n; i++) out[i] = castValue(start + i * step, dt, "arange");
    return new NDArray(out, [n], dt);
  }
  function linspace(start, stop, ...args) {
    const { num, endpoint, dtype } = parseArgs("linspace", args, ["num", "endpoint", "dtype"], { num: 50, endpoint: true });
    if (!isInteger(num) || num < 0) throw new ValueError(`linspace: num must be a non-negative integer, got ${describe(num)}`);
    const div = endpoint ? num - 1 : num, step = (stop - start) / div, out = new Float64Array(num);
    for (let i = 0; i < num; i++) out[i] = start + i * step;
    if (endpoint && num > 1) out[num - 1] = stop;
    const a = new NDArray(out, [num], "float64");
    return dtype ? a.astype(dtype) : a;
  }
  function triangle(where2, x, args, keep) {
    const { k } = parseArgs(where2, args, ["k"], { k: 0 });
    if (!isInteger(k)) throw new TypeError(`${where2}: k must be an integer, got ${describe(k)}`);
    let a = asarray(x, null, where2);
    if (a.ndim === 0) throw new ValueError(`${where2}: input must be at least 1-D`);
    if (a.ndim === 1) a = take(a, expandIndex(a.shape, [a.size, a.size]), [a.size, a.size]);
    const R = a.shape[a.ndim - 2], C = a.shape[a.ndim - 1], out = a.data.slice();
    for (let o = 0; o < out.length; o += R * C)
      for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) if (!keep(i, j, k)) out[o + i * C + j] = 0;
    return new NDArray(out, a.shape, a.dtype);
  }
  var Generator = class {
    constructor(seed) {
      this._rng = new Rng(seed ?? 0);
    }
    _fill(where2, size, f) {
      if (size === void 0 || size === null) return f();
      const shape = normShape(size, where2), out = new Float64Array(sizeOf(shape));
      for (let i = 0; i < out.length; i++) out[i] = f();
      return new NDArray(out, shape, "float64");
    }
    standard_normal(size) {
      return this._fill("standard_normal", size, () => this._rng.normal());
    }
    normal(loc = 0, scale = 1, size) {
      return this._fill("normal", size, () => loc + scale * this._rng.normal());
    }
    random(size) {
      return this._fill("random", size, () => this._rng.next());
    }
    uniform(low = 0, high = 1, size) {
      return this._fill("uniform", size, () => this._rng.uniform(low, high));
    }
    integers(low, high, size) {
      if (high === void 0 || high === null) [low, high] = [0, low];
      const r = this._fill("integers", size, () => low + floor(this._rng.next() * (high - low)));
      return r instanceof NDArray ? new NDArray(r.data, r.shape, "int64") : r;
    }
  };
  var np = {
    ndarray: NDArray,
    float64: "float64",
    int64: "int64",
    bool: "bool",
    bool_: "bool",
    inf: Infinity,
    nan: NaN,
    pi: Math.PI,
    e: Math.E,
    newaxis: null,
    array,
    asarray: (x, ...args) => asarray(x, parseArgs("asarray", args, ["dtype"]).dtype),
    zeros: (shape, ...args) => filled("zeros", shape, 0, args, "float64"),
    ones: (shape, ...args) => filled("ones", shape, 1, args, "float64"),
    empty: (shape, ...args) => filled("empty", shape, 0, args, "float64"),
    full,
    zeros_like: (x, ...args) => like("zeros_like", x, 0, args),
    ones_like: (x, ...args) => like("ones_like", x, 1, args),
    full_like: (x, value, ...args) => like("full_like", x, value, args),
    eye,
    arange,
    linspace,
    tril: (x, ...args) => triangle("tril", x, args, (i, j, k) => j - i <= k),
    triu: (x, ...args) => triangle("triu", x, args, (i, j, k) => j - i >= k),
    where,
    nonzero,
    clip,
    round,
    around: round,
    matmul,
    dot,
    reshape,
    transpose,
    swapaxes,
    expand_dims,
    squeeze,
    concatenate,
    stack,
    copy: (x) => asarray(x, null, "copy").copy(),
    shape: (x) => asarray(x, null, "shape").shape.slice(),
    ndim: (x) => asarray(x, null, "ndim").ndim,
    size: (x) => asarray(x, null, "size").size,
    isclose,
    allclose,
    array_equal,
    random: { default_rng: (seed) => new Generator(seed) }
  };
  for (const [k, [f, kind]] of Object.entries(BINARY)) np[k] = (x, y) => binary(k, x, y, f, kind);
  for (const [k, [f, kind]] of Object.entries(UNARY)) np[k] = (x) => unary(k, x, f, kind);
  for (const k of Object.keys(REDUCERS)) np[k] = (x, ...args) => reduce(k, x, args);
  np.abs = np.absolute;
  np.amax = np.max;
  np.amin = np.min;
  var METHODS = {
    ...Object.fromEntries([...Object.keys(BINARY), ...Object.keys(UNARY), ...Object.keys(REDUCERS), "abs", "matmul", "dot", "round", "clip", "nonzero", "isclose", "allclose"].map((k) => [k, np[k]])),
    sub: np.subtract,
    mul: np.multiply,
    div: np.divide,
    pow: np.power,
    neg: np.negative,
    eq: np.equal,
    ne: np.not_equal,
    lt: np.less,
    le: np.less_equal,
    gt: np.greater,
    ge: np.greater_equal
  };
  for (const [k, f] of Object.entries(METHODS)) {
    Object.defineProperty(NDArray.prototype, k, { value: function(...args) {
      return f(this, ...args);
    }, writable: true, configurable: true });
  }
  var np_default = np;

  // grader/sandbox/guest.mjs
  var OUTPUT_CAP = 2e4;
  var FUNCTION_NAMES_RE = /^[A-Za-z_$][\w$]*$/;
  function installGuest(global, { filename = "submission.js", hide = [] } = {}) {
    const { stringify, parse } = JSON;
    const { isFinite: isFinite2, isArray: isArray2 } = { isFinite: Number.isFinite, isArray: Array.isArray };
    const indirectEval = global.eval;
    const stackRe = new RegExp(`${filename.replace(".", "\\.")}:(\\d+):(\\d+)`);
    let out = "";
    let truncated = false;
    const write = (s) => {
      if (truncated) return;
      if (out.length + s.length > OUTPUT_CAP) {
        out += s.slice(0, OUTPUT_CAP - out.length);
        truncated = true;
        out += "\n\u2026 [output truncated]\n";
      } else out += s;
    };
    const show = (v) => {
      if (typeof v === "string") return v;
      if (v instanceof NDArray) return v.toString();
      if (isArray2(v)) return `[${v.map(show).join(", ")}]`;
      if (v === void 0) return "undefined";
      if (typeof v === "function") return `[function ${v.name || "anonymous"}]`;
      if (typeof v === "object" && v !== null) {
        try {
          return stringify(v);
        } catch {
          return String(v);
        }
      }
      return String(v);
    };
    const print = (...args) => {
      write(args.map(show).join(" ") + "\n");
    };
    const console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
    const define = (name, value) => Object.defineProperty(global, name, { value, writable: false, configurable: false, enumerable: false });
    define("np", np_default);
    define("print", print);
    define("console", console);
    for (const name of hide) {
      try {
        Object.defineProperty(global, name, { value: void 0, writable: false, configurable: false });
      } catch {
      }
    }
    const encode = (v, seen = 0) => {
      if (seen > 64) throw new TypeError("the returned value is nested too deeply");
      if (typeof v === "number") return isFinite2(v) ? v : { $f: String(v) };
      if (typeof v === "boolean" || v === null) return v;
      if (v === void 0) return { $undef: true };
      if (v instanceof NDArray) return { $nd: { dtype: v.dtype, shape: [...v.shape], data: Array.from(v.data, (x) => isFinite2(x) ? x : { $f: String(x) }) } };
      if (ArrayBuffer.isView(v)) return Array.from(v, (x) => encode(x, seen + 1));
      if (isArray2(v)) return v.map((x) => encode(x, seen + 1));
      return { $other: typeof v === "object" ? v.constructor && v.constructor.name || "object" : typeof v };
    };
    const reviver = (k, v) => {
      if (v && typeof v === "object") {
        if ("$f" in v) return Number(v.$f);
        if ("$nd" in v) {
          const { dtype, shape, data } = v.$nd;
          return np_default.array(data, dtype).reshape(shape);
        }
      }
      return v;
    };
    const errorInfo = (e) => {
      let message;
      try {
        message = e instanceof Error ? `${e.name}: ${e.message}` : `uncaught value: ${show(e)}`;
      } catch {
        message = "an error that cannot be printed";
      }
      let line = null, column = null;
      try {
        const m = e && typeof e.stack === "string" && e.stack.match(stackRe);
        if (m) {
          line = +m[1];
          column = +m[2];
        }
      } catch {
      }
      return { message, line, column };
    };
    let exported = /* @__PURE__ */ Object.create(null);
    define("__attnlab_export", (name, fn) => {
      if (typeof fn === "function") exported[name] = fn;
    });
    const lookup = (name) => {
      if (exported[name]) return exported[name];
      const desc = Object.getOwnPropertyDescriptor(global, name);
      return desc && typeof desc.value === "function" ? desc.value : void 0;
    };
    const ops = {
      load({ source, functions = [] }) {
        exported = /* @__PURE__ */ Object.create(null);
        functions = functions.filter((f) => FUNCTION_NAMES_RE.test(f));
        const trailer = functions.map((f) => `__attnlab_export(${stringify(f)}, typeof ${f} === 'function' ? ${f} : undefined);`).join("");
        let error = null;
        try {
          indirectEval(`${source}
;${trailer}
//# sourceURL=${filename}`);
        } catch (e) {
          error = errorInfo(e);
        }
        return { ok: true, functions: functions.filter((f) => lookup(f)), error };
      },
      call({ name, args }) {
        const fn = lookup(name);
        if (!fn) return { ok: false, kind: "missing", message: `${name} is not defined` };
        try {
          const value = fn(...args);
          return { ok: true, value: encode(value) };
        } catch (e) {
          return { ok: false, kind: "error", ...errorInfo(e) };
        }
      }
    };
    function handle2(requestJson) {
      out = "";
      truncated = false;
      const req = parse(requestJson, reviver);
      let res;
      try {
        res = ops[req.op](req);
      } catch (e) {
        res = { ok: false, kind: "error", ...errorInfo(e) };
      }
      res.output = out;
      try {
        return stringify(res);
      } catch (e) {
        return stringify({ ok: false, kind: "error", message: `the result could not be read: ${e.message}`, output: out });
      }
    }
    lockdown(global);
    return handle2;
  }
  function lockdown(global) {
    const names = [
      "Object",
      "Function",
      "Array",
      "String",
      "Number",
      "Boolean",
      "Symbol",
      "BigInt",
      "Math",
      "JSON",
      "Reflect",
      "Error",
      "TypeError",
      "RangeError",
      "SyntaxError",
      "ReferenceError",
      "EvalError",
      "URIError",
      "RegExp",
      "Date",
      "Map",
      "Set",
      "WeakMap",
      "WeakSet",
      "Promise",
      "ArrayBuffer",
      "DataView",
      "Float64Array",
      "Float32Array",
      "Int32Array",
      "Uint32Array",
      "Int16Array",
      "Uint16Array",
      "Int8Array",
      "Uint8Array",
      "Uint8ClampedArray",
      "BigInt64Array",
      "BigUint64Array",
      "np"
    ];
    const enableOverride = (proto, keys) => {
      for (const key of keys) {
        const d = Object.getOwnPropertyDescriptor(proto, key);
        if (!d || !("value" in d) || !d.configurable) continue;
        const { value } = d;
        Object.defineProperty(proto, key, {
          get() {
            return value;
          },
          set(v) {
            if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}' of a built-in prototype`);
            Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
          },
          enumerable: d.enumerable,
          configurable: false
        });
      }
    };
    enableOverride(Object.prototype, Reflect.ownKeys(Object.prototype).filter((k) => k !== "__proto__"));
    enableOverride(Function.prototype, ["toString", "name", "constructor"]);
    for (const E of [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]) {
      enableOverride(E.prototype, ["name", "message", "constructor", "toString"]);
    }
    const seen = /* @__PURE__ */ new Set();
    const deepFreeze = (o) => {
      if (o === null || typeof o !== "object" && typeof o !== "function" || seen.has(o)) return;
      seen.add(o);
      Object.freeze(o);
      for (const key of Reflect.ownKeys(o)) {
        const d = Object.getOwnPropertyDescriptor(o, key);
        if (!d) continue;
        if ("value" in d) deepFreeze(d.value);
        else {
          deepFreeze(d.get);
          deepFreeze(d.set);
        }
      }
      deepFreeze(Object.getPrototypeOf(o));
    };
    for (const n of names) if (global[n] !== void 0) deepFreeze(global[n]);
    const typedArray = Object.getPrototypeOf(Uint8Array);
    deepFreeze(typedArray);
    deepFreeze(Object.getPrototypeOf([][Symbol.iterator]()));
    deepFreeze(Object.getPrototypeOf(function* () {
    }));
    deepFreeze(Object.getPrototypeOf(async function() {
    }));
  }

  // grader/sandbox/guest-entry.mjs
  var handle = installGuest(globalThis);
  Object.defineProperty(globalThis, "__attnlab_handle", { value: handle, writable: false, configurable: false });
})();
