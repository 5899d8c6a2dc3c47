// SVG heatmap of a (T, T) attention-weight matrix. Masked cells (mask false) are hatched and carry
// no number, so "weight 0 because masked" is visibly different from "weight 0.000 by softmax".
const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
}

// White → deep blue.
function rgb(w) {
  const t = Math.max(0, Math.min(1, w));
  return [
    [247, 8],
    [251, 48],
    [255, 107],
  ].map(([a, b]) => Math.round(a + (b - a) * t));
}
// Text is white where the cell's relative luminance is below 0.179, the point where black and white
// text have equal contrast: either way it stays ≥ 4.5:1 (WCAG AA).
function isDark([r, g, b]) {
  const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) < 0.179;
}

/**
 * @param {object} o
 * @param {string} o.title       caption above the map
 * @param {number[][]} o.weights T×T values (may contain NaN/±Infinity from a buggy submission)
 * @param {boolean[][]} o.mask   T×T, true = may attend
 * @param {string[]} o.tokens    row/column labels
 * @param {(q:string,k:string,v:string)=>string} o.describe  accessible text for one cell
 * @param {number[][]} [o.expected] reference weights: differing cells are outlined in red
 * @param {string} o.maskedLabel
 * @returns {HTMLElement} a <figure>
 */
export function heatmap({ title, weights, mask, tokens, describe, maskedLabel, id, expected = null }) {
  const T = tokens.length,
    cell = 56,
    left = 78,
    top = 26;
  const fig = document.createElement('figure');
  fig.className = 'heatmap';
  if (id) fig.dataset.map = id;
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  fig.append(cap);
  const svg = el('svg', {
    viewBox: `0 0 ${left + T * cell + 2} ${top + T * cell + 2}`,
    role: 'img',
    'aria-label': title,
  });
  const defs = el('defs');
  const pat = el('pattern', {
    id: `hatch-${id}`,
    width: 8,
    height: 8,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  pat.append(
    el('rect', { width: 8, height: 8, fill: '#eceff3' }),
    el('line', { x1: 0, y1: 0, x2: 0, y2: 8, stroke: '#9aa4b2', 'stroke-width': 3 }),
  );
  defs.append(pat);
  svg.append(defs);
  tokens.forEach((tok, j) =>
    svg.append(el('text', { x: left + j * cell + cell / 2, y: top - 8, 'text-anchor': 'middle', class: 'tok' }, tok)),
  );
  tokens.forEach((tok, i) =>
    svg.append(el('text', { x: left - 8, y: top + i * cell + cell / 2 + 5, 'text-anchor': 'end', class: 'tok' }, tok)),
  );
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) {
      const x = left + j * cell,
        y = top + i * cell,
        w = weights[i][j],
        masked = !mask[i][j];
      const finite = Number.isFinite(w);
      const g = el('g', { class: masked ? 'cell masked' : 'cell', 'data-i': i, 'data-j': j });
      const shown = finite ? w.toFixed(3) : String(w);
      g.append(el('title', {}, describe(tokens[i], tokens[j], masked ? `${shown} (${maskedLabel})` : shown)));
      const fill = finite && !masked ? rgb(w) : null;
      // Outlined in red where it differs from `expected` (numpy.allclose tolerances).
      const differs =
        expected && !(Math.abs(w - expected[i][j]) <= 1e-8 + 1e-5 * Math.abs(expected[i][j]) || w === expected[i][j]);
      if (differs) g.classList.add('diff');
      g.append(
        el('rect', {
          x,
          y,
          width: cell,
          height: cell,
          fill: masked ? `url(#hatch-${id})` : fill ? `rgb(${fill})` : '#ffd6d6',
          stroke: differs ? '#b3261e' : '#ffffff',
          'stroke-width': differs ? 3 : 2,
        }),
      );
      // A masked cell still shows its value when it is not 0: that is exactly the bug to see.
      if (!masked || w !== 0) {
        const dark = fill && isDark(fill);
        g.append(
          el(
            'text',
            {
              x: x + cell / 2,
              y: y + cell / 2 + 5,
              'text-anchor': 'middle',
              class: dark ? 'val dark' : masked ? 'val bad' : 'val',
            },
            shown,
          ),
        );
      }
      svg.append(g);
    }
  }
  fig.append(svg, table({ weights, mask, tokens, maskedLabel }));
  return fig;
}

// The same numbers as a table for screen readers (the SVG is one image to them), in a hidden box: a
// table grows to its content whatever its own width says, and would widen the page on a phone.
function table({ weights, mask, tokens, maskedLabel }) {
  const box = document.createElement('div');
  box.className = 'visually-hidden';
  const t = document.createElement('table');
  box.append(t);
  const row = (cells, th) => {
    const tr = document.createElement('tr');
    // The top-left corner names nothing: a td, not an empty header (axe: empty-table-header).
    cells.forEach((c, k) =>
      tr.append(Object.assign(document.createElement(c !== '' && (th || k === 0) ? 'th' : 'td'), { textContent: c })),
    );
    return tr;
  };
  t.append(row(['', ...tokens], true));
  weights.forEach((r, i) =>
    t.append(
      row([
        tokens[i],
        ...r.map((w, j) => (mask[i][j] ? '' : `${maskedLabel}: `) + (Number.isFinite(w) ? w.toFixed(3) : String(w))),
      ]),
    ),
  );
  return box;
}

/** A placeholder figure with a message instead of a map (not run yet, or the student's call failed). */
export function heatmapMessage({ title, message, id }) {
  const fig = document.createElement('figure');
  fig.className = 'heatmap empty';
  if (id) fig.dataset.map = id;
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  const p = document.createElement('p');
  p.textContent = message;
  fig.append(cap, p);
  return fig;
}
