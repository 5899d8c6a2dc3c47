// The Scale panel: time per attention call against the sequence length T (d = 64, causal mask), for
//   student — the student's own `attention`, timed inside the sandbox worker;
//   cpu     — the WASM core's fused float32 kernel (core.attentionF32, SIMD build where supported);
//   gpu     — the same on WebGPU, when the page's backend is WebGPU.
// measureScale() collects the numbers, renderScale() draws them (log-log SVG + a table with the same
// numbers). A series stops at the first size slower than the limit (1 s): the student's call is cut
// off there by the sandbox's time limit; the fast paths cannot be interrupted, so a size whose
// quadratic extrapolation from the last point is over the limit is not started.
import { Rng, DEFAULT_TRACK, wire } from '../../grader/browser.mjs';

export const D = 64;
export const STUDENT_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048];
export const FAST_SIZES = [...STUDENT_SIZES, 4096];
export const LIMIT_MS = 1000;
const MIN_MS = 25; // a point times enough calls to last this long (timers are coarse: 0.1 ms)
const TRANSFER_MS = 500; // on top of the limit: moving Q, K, V into the worker and building the mask
const PROBE = '__attnlab_scale';

// The probe appended after the student's code (the track's scaleProbe, so line numbers stay) times the
// student's `fn` (the pack's panels.scale.function, called fn(Q, K, V, mask)) inside the worker, so
// sending the (T, T) weights back is not counted, and answers [ms per call, calls] — or null when it
// does not return a pair (out, weights). Timing as timeCalls() below.

const tick = () => new Promise((r) => setTimeout(r, 0)); // lets the page repaint between sizes

// One call if it lasts minMs; else the best of three batches of n calls that each last about minMs
// (best of: other work on a shared machine only ever adds time).
async function timeCalls(fn, minMs) {
  let t0 = performance.now();
  await fn();
  const first = performance.now() - t0;
  if (first >= minMs) return { ms: first, calls: 1 };
  const n = Math.min(1000, Math.ceil(minMs / Math.max(first, 0.01)));
  let best = Infinity;
  for (let b = 0; b < 3; b++) {
    t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    best = Math.min(best, (performance.now() - t0) / n);
  }
  return { ms: best, calls: 3 * n };
}

/** Q, K, V of (T, D) for every T are the first T rows of one draw (Rng(seed): Q, then K, then V). */
function inputs(maxT, seed) {
  const rng = new Rng(seed);
  const f64 = ['q', 'k', 'v'].map(() => rng.normals(maxT * D));
  return { f64, f32: f64.map((a) => Float32Array.from(a)) };
}

/**
 * @param {object} o
 * @param {string} o.source       the editor's code
 * @param {string} [o.fn]         the student's function to time (the pack's panels.scale.function)
 * @param {object} o.sandbox      a BrowserSandbox of its own (its time limits cut slow sizes off)
 * @param {{ label, attentionF32 }} o.cpu   the WASM fast path
 * @param {{ label, attentionF32 }|null} o.gpu  WebGPU, or null
 * @param {string} [o.gpuNote]    why there is no WebGPU series
 * @param {number} [o.maxT]       caps T (tests: ?scaleMax=)
 * @param {(id: string, T: number) => void} [o.progress]
 * @returns {Promise<{ d, limitMs, sizes, series: Array<{ id, label, points: {T, ms, calls}[], skipped: {T, why, ms?}[], error?, note? }> }>}
 *   skipped.why: 'timeout' | 'memory' (cut off by the sandbox), 'predicted' (not started: about `ms`),
 *   'after' (an earlier size was over the limit). error.kind: 'syntax' | 'load' | 'missing' | 'notPair' | 'error'.
 */
export async function measureScale({
  source,
  track = DEFAULT_TRACK,
  fn,
  sandbox,
  cpu,
  gpu,
  gpuNote = '',
  maxT = Infinity,
  limitMs = LIMIT_MS,
  seed = 2017,
  progress = () => {},
}) {
  const studentSizes = STUDENT_SIZES.filter((T) => T <= maxT);
  const fastSizes = FAST_SIZES.filter((T) => T <= maxT);
  const data = inputs(fastSizes.at(-1), seed);
  const series = [await studentSeries({ source, track, fn, sandbox, sizes: studentSizes, data, limitMs, progress })];
  series.push(
    await fastSeries({
      id: 'cpu',
      label: cpu.label,
      run: (a) => cpu.attentionF32(a),
      sizes: fastSizes,
      data,
      limitMs,
      progress,
    }),
  );
  series.push(
    gpu
      ? await fastSeries({
          id: 'gpu',
          label: gpu.label,
          run: (a) => gpu.attentionF32(a),
          sizes: fastSizes,
          data,
          limitMs,
          progress,
        })
      : { id: 'gpu', label: 'WebGPU', points: [], skipped: [], note: gpuNote },
  );
  return { d: D, limitMs, sizes: fastSizes, series, track: track.short };
}

async function studentSeries({ source, track, fn, sandbox, sizes, data, limitMs, progress }) {
  const s = { id: 'student', label: null, points: [], skipped: [] };
  const prepared = track.prepareSource(source);
  if (!prepared.ok) return { ...s, error: { kind: 'syntax', ...prepared.error } };
  const load = await sandbox.load(prepared.source + track.scaleProbe(prepared.aliases[fn] ?? fn, PROBE), {
    functions: [fn, PROBE],
    aliases: prepared.aliases,
    timeoutMs: 2 * limitMs,
  });
  if (!load.ok) return { ...s, error: { kind: 'load', message: load.kind === 'timeout' ? null : load.message } };
  if (load.error?.syntax) return { ...s, error: { kind: 'syntax', ...load.error } };
  if (!load.functions.includes(fn)) return { ...s, error: { kind: 'missing', fn } };
  const tensor = (a, T) => wire({ data: a.subarray(0, T * D), shape: [T, D], dtype: 'float64' });
  const probe = (T) =>
    sandbox.call(PROBE, [...data.f64.map((a) => tensor(a, T)), MIN_MS], { timeoutMs: limitMs + TRANSFER_MS });
  // Warm-up (the JIT compiles np and the student's code), not kept — unless it already failed:
  // that answer stands for the first size, which is then not waited for twice.
  const warm = await probe(sizes[0]);
  for (const [i, T] of sizes.entries()) {
    progress('student', T);
    const res = i === 0 && !(warm.ok && Array.isArray(warm.value)) ? warm : await probe(T);
    if (!res.ok && (res.kind === 'timeout' || res.kind === 'memory')) {
      s.skipped.push({ T, why: res.kind }, ...sizes.slice(i + 1).map((t) => ({ T: t, why: 'after' })));
      break;
    }
    if (!res.ok) return { ...s, error: { kind: 'error', message: res.message, line: res.line } };
    if (!Array.isArray(res.value)) return { ...s, error: { kind: 'notPair' } };
    const [ms, calls] = res.value;
    s.points.push({ T, ms, calls });
    if (ms > limitMs) {
      s.skipped.push(...sizes.slice(i + 1).map((t) => ({ T: t, why: 'after' })));
      break;
    }
  }
  return s;
}

async function fastSeries({ id, label, run, sizes, data, limitMs, progress }) {
  const s = { id, label, points: [], skipped: [] };
  const args = (T) => {
    const [q, k, v] = data.f32.map((a) => a.slice(0, T * D));
    return { q, k, v, Tq: T, d: D, causal: true };
  };
  try {
    // Warm-up, not kept: builds the WebGPU pipeline (about a second on SwiftShader), lets the engine
    // tier up the WASM code.
    const a0 = args(sizes[0]);
    await timeCalls(() => run(a0), MIN_MS);
    for (const [i, T] of sizes.entries()) {
      const last = s.points.at(-1);
      const guess = last ? last.ms * (T / last.T) ** 2 : 0;
      const over = last && last.ms > limitMs;
      if (over || guess > limitMs) {
        s.skipped.push(
          ...(over ? [] : [{ T, why: 'predicted', ms: guess }]),
          ...sizes.slice(over ? i : i + 1).map((t) => ({ T: t, why: 'after' })),
        );
        break;
      }
      progress(id, T);
      await tick();
      const a = args(T);
      s.points.push({ T, ...(await timeCalls(() => run(a), MIN_MS)) });
    }
  } catch (e) {
    s.error = { kind: 'error', message: e.message };
  }
  return s;
}

/** Least-squares slope of log(ms) against log(T) over the last three points: ≈ 2 once T² dominates. */
export function growth(points) {
  const p = points.slice(-3);
  if (p.length < 2) return null;
  const xs = p.map((x) => Math.log2(x.T)),
    ys = p.map((x) => Math.log2(x.ms));
  const mx = xs.reduce((a, b) => a + b) / xs.length,
    my = ys.reduce((a, b) => a + b) / ys.length;
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0),
    sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxy / sxx;
}

// ---------- drawing ----------
const NS = 'http://www.w3.org/2000/svg';
export const svgEl = (name, attrs = {}, text) => {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
};
export const html = (name, { dataset = {}, ...props } = {}, ...kids) => {
  const e = Object.assign(document.createElement(name), props);
  Object.assign(e.dataset, dataset);
  e.append(...kids);
  return e;
};

// Okabe–Ito colours (distinct for colour-blind readers) and a different marker per series.
const STYLE = {
  student: { color: '#D55E00', marker: 'circle' },
  cpu: { color: '#0072B2', marker: 'square' },
  gpu: { color: '#007A5E', marker: 'triangle' },
};

export function marker(kind, x, y, color, hollow = false) {
  const paint = { fill: hollow ? '#ffffff' : color, stroke: color, 'stroke-width': 1.5 };
  if (kind === 'square') return svgEl('rect', { x: x - 4, y: y - 4, width: 8, height: 8, ...paint });
  if (kind === 'triangle')
    return svgEl('path', { d: `M${x} ${y - 5.5}L${x + 5} ${y + 3.5}L${x - 5} ${y + 3.5}Z`, ...paint });
  return svgEl('circle', { cx: x, cy: y, r: 4.5, ...paint });
}

/** Time in ms → "250 µs", "3.1 ms", "1.2 s" (3 significant digits at most); `units` per language. */
export function fmtTime(ms, [us, msUnit, s] = ['µs', 'ms', 's']) {
  const [v, unit] = ms < 1 ? [ms * 1000, us] : ms < 1000 ? [ms, msUnit] : [ms / 1000, s];
  return `${v >= 100 ? Math.round(v) : Number(v.toPrecision(v >= 10 ? 3 : 2))} ${unit}`;
}

const decade = (e, [us, ms, s]) =>
  e < 0 ? `${+(10 ** (e + 3)).toPrecision(1)} ${us}` : e < 3 ? `${10 ** e} ${ms}` : `${10 ** (e - 3)} ${s}`;

/**
 * @param {ReturnType<typeof measureScale>} r  measured results
 * @param {object} S  the page strings for the current language (i18n.js: S.scale)
 * @param {object} [o]
 * @param {number} [o.width]  the room for the plot in CSS px: drawn 1:1 (320…560 px wide), so that its
 *   labels keep their 12 px however narrow the column
 * @returns {DocumentFragment} the plot (figure), its legend, the table with the same numbers, notes
 */
export function renderScale(r, S, { width = 560 } = {}) {
  const frag = document.createDocumentFragment();
  const labelOf = (s) => (s.id === 'student' ? S.student(r.track) : s.label);
  const measured = r.series.filter((s) => s.points.length);
  const pts = measured.flatMap((s) => s.points);
  const W = Math.round(Math.max(320, Math.min(560, width || 560))),
    H = 340,
    L = 62,
    R = 14,
    Tp = 14,
    B = 46;
  const xs = r.sizes.map(Math.log2),
    x0 = xs[0],
    x1 = Math.max(xs.at(-1), x0 + 1);
  // Whole decades from the fastest point up to the limit, so the 1 s line is always in view.
  const y0 = Math.floor(Math.log10(Math.max(1e-4, Math.min(...pts.map((p) => p.ms), r.limitMs))));
  // Headroom above the limit line, where cut-off sizes are marked.
  const y1 = Math.max(Math.ceil(Math.log10(Math.max(...pts.map((p) => p.ms))) - 1e-9), Math.log10(r.limitMs) + 0.35);
  const X = (T) => L + ((Math.log2(T) - x0) / (x1 - x0)) * (W - L - R);
  const Y = (ms) => Tp + ((y1 - Math.log10(ms)) / (y1 - y0)) * (H - Tp - B);

  const svg = svgEl('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    role: 'img',
    'aria-labelledby': 'scale-cap',
    class: 'scale-plot',
  });
  const clip = svgEl('clipPath', { id: 'scale-clip' });
  clip.append(svgEl('rect', { x: L, y: Tp, width: W - L - R, height: H - Tp - B }));
  svg.append(svgEl('defs'));
  svg.firstChild.append(clip);
  const grid = svgEl('g', { class: 'grid' });
  for (let e = y0; e <= Math.floor(y1); e++) {
    const y = Y(10 ** e);
    grid.append(
      svgEl('line', { x1: L, x2: W - R, y1: y, y2: y }),
      svgEl('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, decade(e, S.units)),
    );
  }
  for (const T of r.sizes) {
    const x = X(T);
    grid.append(
      svgEl('line', { x1: x, x2: x, y1: Tp, y2: H - B }),
      svgEl('text', { x, y: H - B + 16, 'text-anchor': 'middle' }, String(T)),
    );
  }
  grid.append(
    svgEl('text', { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle', class: 'axis' }, S.axisT),
    svgEl(
      'text',
      {
        x: 14,
        y: (Tp + H - B) / 2,
        'text-anchor': 'middle',
        class: 'axis',
        transform: `rotate(-90 14 ${(Tp + H - B) / 2})`,
      },
      S.axisMs,
    ),
  );
  svg.append(grid);

  const plot = svgEl('g', { 'clip-path': 'url(#scale-clip)' });
  // The limit, and a slope-2 guide through the slowest series' last point: parallel curves grow as T².
  plot.append(svgEl('line', { x1: L, x2: W - R, y1: Y(r.limitMs), y2: Y(r.limitMs), class: 'limit' }));
  svg.append(
    svgEl(
      'text',
      { x: W - R - 4, y: Y(r.limitMs) - 5, 'text-anchor': 'end', class: 'limit-label' },
      S.limit(fmtTime(r.limitMs, S.units)),
    ),
  );
  const anchor = measured.map((s) => s.points.at(-1)).sort((a, b) => b.ms - a.ms)[0];
  if (anchor) {
    const at = (T) => anchor.ms * (T / anchor.T) ** 2;
    const [a, b] = [r.sizes[0], r.sizes.at(-1)];
    plot.append(svgEl('line', { x1: X(a), y1: Y(at(a)), x2: X(b), y2: Y(at(b)), class: 'guide' }));
  }
  for (const s of measured) {
    const { color, marker: m } = STYLE[s.id];
    const g = svgEl('g', { class: 'series', 'data-series': s.id });
    g.append(
      svgEl('polyline', {
        points: s.points.map((p) => `${X(p.T)},${Y(p.ms)}`).join(' '),
        fill: 'none',
        stroke: color,
        'stroke-width': 2,
      }),
    );
    for (const p of s.points) {
      const mk = marker(m, X(p.T), Y(p.ms), color);
      mk.append(svgEl('title', {}, `${labelOf(s)}, T = ${p.T}: ${fmtTime(p.ms, S.units)}`));
      g.append(mk);
    }
    // A size cut off by the limit: a hollow marker on the limit line.
    for (const k of s.skipped.filter((k) => k.why === 'timeout' || k.why === 'memory')) {
      const mk = marker(m, X(k.T), Y(r.limitMs), color, true);
      mk.append(svgEl('title', {}, `${labelOf(s)}, T = ${k.T}: ${S.skip[k.why](fmtTime(r.limitMs, S.units))}`));
      g.append(mk);
    }
    plot.append(g);
  }
  svg.append(plot);

  const fig = html('figure', { className: 'scale-fig' });
  fig.append(html('figcaption', { id: 'scale-cap', textContent: S.caption(r.d) }), svg);
  // The legend: marker, name, measured growth exponent (or why a series is missing).
  const legend = html('ul', { className: 'scale-legend' });
  for (const s of r.series) {
    const sw = svgEl('svg', { width: 26, height: 12, 'aria-hidden': 'true' });
    sw.append(
      svgEl('line', { x1: 1, x2: 25, y1: 6, y2: 6, stroke: STYLE[s.id].color, 'stroke-width': 2 }),
      marker(STYLE[s.id].marker, 13, 6, STYLE[s.id].color),
    );
    const slope = growth(s.points);
    const why = s.error
      ? S.error(s.error)
      : s.note
        ? S.noGpu(s.note)
        : !s.points.length
          ? S.none
          : slope !== null
            ? S.slope(slope.toFixed(1))
            : '';
    legend.append(
      html(
        'li',
        { dataset: { series: s.id } },
        sw,
        html('span', { className: 'name', textContent: labelOf(s) }),
        why ? html('span', { className: 'why', textContent: why }) : '',
      ),
    );
  }
  const guide = svgEl('svg', { width: 26, height: 12, 'aria-hidden': 'true' });
  guide.append(svgEl('line', { x1: 1, x2: 25, y1: 6, y2: 6, class: 'guide' }));
  legend.append(html('li', {}, guide, html('span', { className: 'name', textContent: S.guide })));
  fig.append(legend);
  frag.append(fig, table(r, S, labelOf));
  return frag;
}

// The same numbers as a table (readable without the plot, and by screen readers).
function table(r, S, labelOf) {
  const t = html('table', { className: 'scale-table' });
  t.append(html('caption', { textContent: S.tableCaption }));
  const head = html('tr', {}, html('th', { scope: 'col', textContent: 'T' }));
  for (const s of r.series) head.append(html('th', { scope: 'col', textContent: labelOf(s) }));
  t.append(html('thead', {}, head));
  const body = html('tbody');
  for (const T of r.sizes) {
    const tr = html('tr', { dataset: { t: T } }, html('th', { scope: 'row', textContent: String(T) }));
    for (const s of r.series) {
      const p = s.points.find((x) => x.T === T),
        k = s.skipped.find((x) => x.T === T);
      const text = p
        ? fmtTime(p.ms, S.units)
        : k
          ? S.skip[k.why](fmtTime(k.why === 'predicted' ? k.ms : r.limitMs, S.units))
          : '—';
      tr.append(
        html('td', {
          textContent: text,
          className: p ? 'num' : 'gap',
          dataset: { series: s.id, ms: p ? String(p.ms) : '', skip: k?.why ?? '' },
        }),
      );
    }
    body.append(tr);
  }
  t.append(body);
  return html('div', { className: 'table-wrap' }, t);
}
