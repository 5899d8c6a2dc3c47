// The Memory panel (a pack's panels.memory): what the student's function builds against the sequence
// length T. For each T, one call function(Q, K, V, ...args) with Q, K, V of shape (T, 64), measured by
// np in the sandbox (grader/README.md, Measurement): the largest array it created and the bytes of all
// the arrays it created. Drawn against two guides: the whole (T, T) score matrix of the naive
// softmax(Q Kᵀ) V (T²·8 bytes) and one block of scores (T × block_size · 8 bytes, block_size =
// args[0]), the most a blocked computation needs at a time. measureMemory() collects, renderMemory() draws.
import { Rng, DEFAULT_TRACK, wire, fmtShape } from '../../grader/browser.mjs';
import { svgEl, html, marker } from './scale.js';

export const D = 64;
export const MEMORY_SIZES = [64, 128, 256, 512, 1024, 2048];
export const LIMIT_MS = 30000; // per call: a loop over rows in MicroPython is slow at T = 2048

/**
 * @returns {Promise<{ d, block, sizes, points: { T, arrays, bytes, largest: { shape, bytes, line } | null }[],
 *   stopped: { T, why }[], error?: { kind, message?, line?, fn? } }>}
 */
export async function measureMemory({
  source,
  track = DEFAULT_TRACK,
  fn,
  args = [],
  sandbox,
  maxT = Infinity,
  seed = 2017,
  progress = () => {},
}) {
  const sizes = MEMORY_SIZES.filter((T) => T <= maxT);
  const r = { d: D, block: args[0] ?? null, sizes, points: [], stopped: [] };
  const prepared = track.prepareSource(source);
  if (!prepared.ok) return { ...r, error: { kind: 'syntax', ...prepared.error } };
  const load = await sandbox.load(prepared.run ?? prepared.source, {
    functions: [fn],
    aliases: prepared.aliases,
    timeoutMs: 2000,
  });
  if (!load.ok) return { ...r, error: { kind: 'load', message: load.message } };
  if (load.error?.syntax) return { ...r, error: { kind: 'syntax', ...load.error } };
  if (!load.functions.includes(fn)) return { ...r, error: { kind: 'missing', fn } };
  const rng = new Rng(seed);
  const all = [0, 1, 2].map(() => rng.normals(sizes.at(-1) * D));
  for (const [i, T] of sizes.entries()) {
    progress(T);
    const qkv = all.map((a) => wire({ data: a.subarray(0, T * D), shape: [T, D], dtype: 'float64' }));
    const res = await sandbox.call(fn, [...qkv, ...args], { timeoutMs: LIMIT_MS, measure: { limit: T * D } });
    if (!res.ok && (res.kind === 'timeout' || res.kind === 'memory')) {
      r.stopped.push({ T, why: res.kind }, ...sizes.slice(i + 1).map((t) => ({ T: t, why: 'after' })));
      break;
    }
    if (!res.ok) return { ...r, error: { kind: 'error', message: res.message, line: res.line } };
    r.points.push({ T, arrays: res.measured.arrays, bytes: res.measured.bytes, largest: res.measured.largest });
  }
  return r;
}

const MiB = 2 ** 20;
export const fmtBytes = (b) =>
  b >= MiB ? `${+(b / MiB).toPrecision(3)} MiB` : b >= 1024 ? `${+(b / 1024).toPrecision(3)} KiB` : `${b} B`;
const STYLE = { largest: { color: '#D55E00', marker: 'circle' }, bytes: { color: '#0072B2', marker: 'square' } };

export function renderMemory(r, S) {
  const frag = document.createDocumentFragment();
  if (r.error) {
    frag.append(html('p', { className: 'note', textContent: S.error(r.error) }));
    return frag;
  }
  const W = 560,
    H = 340,
    L = 70,
    R = 14,
    Tp = 14,
    B = 46;
  const matrix = (T) => T * T * 8,
    block = (T) => T * (r.block ?? 1) * 8;
  const values = [
    ...r.points.flatMap((p) => [p.bytes, p.largest?.bytes ?? 1]),
    ...r.sizes.flatMap((T) => [matrix(T), block(T)]),
  ].filter((v) => v > 0);
  const y0 = Math.floor(Math.log2(Math.min(...values))),
    y1 = Math.ceil(Math.log2(Math.max(...values)));
  const x0 = Math.log2(r.sizes[0]),
    x1 = Math.max(Math.log2(r.sizes.at(-1)), x0 + 1);
  const X = (T) => L + ((Math.log2(T) - x0) / (x1 - x0)) * (W - L - R);
  const Y = (b) => Tp + ((y1 - Math.log2(b)) / (y1 - y0)) * (H - Tp - B);
  const svg = svgEl('svg', {
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-labelledby': 'memory-cap',
    class: 'scale-plot',
  });
  const grid = svgEl('g', { class: 'grid' });
  for (let e = y0 + (((y0 % 2) + 2) % 2); e <= y1; e += 2) {
    const y = Y(2 ** e);
    grid.append(
      svgEl('line', { x1: L, x2: W - R, y1: y, y2: y }),
      svgEl('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmtBytes(2 ** e)),
    );
  }
  for (const T of r.sizes)
    grid.append(
      svgEl('line', { x1: X(T), x2: X(T), y1: Tp, y2: H - B }),
      svgEl('text', { x: X(T), y: H - B + 16, 'text-anchor': 'middle' }, String(T)),
    );
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
      S.axisBytes,
    ),
  );
  svg.append(grid);
  for (const [id, value] of [
    ['largest', (p) => p.largest?.bytes],
    ['bytes', (p) => p.bytes],
  ]) {
    const pts = r.points.filter((p) => value(p) > 0);
    const { color, marker: m } = STYLE[id];
    const g = svgEl('g', { class: 'series', 'data-series': id });
    g.append(
      svgEl('polyline', {
        points: pts.map((p) => `${X(p.T)},${Y(value(p))}`).join(' '),
        fill: 'none',
        stroke: color,
        'stroke-width': 2,
      }),
    );
    for (const p of pts) {
      const mk = marker(m, X(p.T), Y(value(p)), color);
      mk.append(svgEl('title', {}, `${S[id]}, T = ${p.T}: ${fmtBytes(value(p))}`));
      g.append(mk);
    }
    svg.append(g);
  }
  // The guides on top: a blocked solution's largest array lies on the one-block line.
  const [a, b] = [r.sizes[0], r.sizes.at(-1)];
  svg.append(
    svgEl('line', { x1: X(a), y1: Y(matrix(a)), x2: X(b), y2: Y(matrix(b)), class: 'guide', 'data-guide': 'matrix' }),
  );
  if (r.block)
    svg.append(
      svgEl('line', { x1: X(a), y1: Y(block(a)), x2: X(b), y2: Y(block(b)), class: 'limit', 'data-guide': 'block' }),
    );
  const fig = html('figure', { className: 'scale-fig' });
  fig.append(html('figcaption', { id: 'memory-cap', textContent: S.caption(r.d, r.block) }), svg);
  const legend = html('ul', { className: 'scale-legend' });
  const swatch = (attrs, m) => {
    const sw = svgEl('svg', { width: 26, height: 12, 'aria-hidden': 'true' });
    sw.append(svgEl('line', { x1: 1, x2: 25, y1: 6, y2: 6, ...attrs }));
    if (m) sw.append(m);
    return sw;
  };
  for (const id of ['largest', 'bytes'])
    legend.append(
      html(
        'li',
        { dataset: { series: id } },
        swatch({ stroke: STYLE[id].color, 'stroke-width': 2 }, marker(STYLE[id].marker, 13, 6, STYLE[id].color)),
        html('span', { className: 'name', textContent: S[id] }),
      ),
    );
  legend.append(html('li', {}, swatch({ class: 'guide' }), html('span', { className: 'name', textContent: S.matrix })));
  if (r.block)
    legend.append(
      html('li', {}, swatch({ class: 'limit' }), html('span', { className: 'name', textContent: S.block(r.block) })),
    );
  fig.append(legend);
  // The same numbers as a table.
  const t = html('table', { className: 'scale-table memory-table' });
  t.append(html('caption', { textContent: S.tableCaption }));
  t.append(
    html(
      'thead',
      {},
      html(
        'tr',
        {},
        ...['T', S.largest, S.line, S.bytes, S.matrix].map((c) => html('th', { scope: 'col', textContent: c })),
      ),
    ),
  );
  const body = html('tbody');
  for (const T of r.sizes) {
    const p = r.points.find((x) => x.T === T),
      k = r.stopped.find((x) => x.T === T);
    const cells = p
      ? [
          p.largest ? `${fmtShape(p.largest.shape)}, ${fmtBytes(p.largest.bytes)}` : '—',
          p.largest?.line ? String(p.largest.line) : '—',
          fmtBytes(p.bytes),
        ]
      : [S.stopped[k?.why ?? 'after'], '', ''];
    body.append(
      html(
        'tr',
        { dataset: { t: T, largest: p?.largest ? p.largest.shape.join('x') : '' } },
        html('th', { scope: 'row', textContent: String(T) }),
        ...cells.map((c) => html('td', { textContent: c })),
        html('td', { textContent: fmtBytes(matrix(T)) }),
      ),
    );
  }
  t.append(body);
  frag.append(fig, html('div', { className: 'table-wrap' }, t));
  return frag;
}
