// Hand-made SVG line plot for tools/bench: median time against T, log-log, one line per impl.
const COLORS = [
  '#d62728',
  '#ff7f0e',
  '#8c564b',
  '#1f77b4',
  '#17becf',
  '#2ca02c',
  '#9467bd',
  '#7f7f7f',
  '#e377c2',
  '#bcbd22',
  '#393b79',
];
const esc = (s) => String(s).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** series: [{ name, points: [[T, ms], ...], dash? }] -> SVG text. */
export function timePlot(series, { title }) {
  const W = 760,
    Hh = 460,
    L = 70,
    R = 200,
    Tm = 40,
    Bm = 50;
  const pts = series.flatMap((s) => s.points);
  const lx = (t) => Math.log2(t),
    ly = (ms) => Math.log10(ms);
  const x0 = Math.min(...pts.map(([t]) => lx(t))),
    x1 = Math.max(...pts.map(([t]) => lx(t)));
  const y0 = Math.floor(Math.min(...pts.map(([, m]) => ly(m)))),
    y1 = Math.ceil(Math.max(...pts.map(([, m]) => ly(m))));
  const X = (t) => L + ((lx(t) - x0) / Math.max(x1 - x0, 1e-9)) * (W - L - R);
  const Y = (ms) => Tm + (1 - (ly(ms) - y0) / Math.max(y1 - y0, 1e-9)) * (Hh - Tm - Bm);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${Hh}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${L}" y="22" font-size="14">${esc(title)}</text>`,
  ];
  for (let e = y0; e <= y1; e++) {
    // decades of ms
    out.push(
      `<line x1="${L}" x2="${W - R}" y1="${Y(10 ** e)}" y2="${Y(10 ** e)}" stroke="#ddd"/>`,
      `<text x="${L - 8}" y="${Y(10 ** e) + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toPrecision(1)}</text>`,
    );
  }
  for (const t of [...new Set(pts.map(([t]) => t))].sort((a, b) => a - b)) {
    out.push(
      `<line x1="${X(t)}" x2="${X(t)}" y1="${Tm}" y2="${Hh - Bm}" stroke="#eee"/>`,
      `<text x="${X(t)}" y="${Hh - Bm + 18}" text-anchor="middle">${t}</text>`,
    );
  }
  out.push(
    `<text x="${(L + W - R) / 2}" y="${Hh - 12}" text-anchor="middle">T (sequence length)</text>`,
    `<text transform="translate(16 ${(Tm + Hh - Bm) / 2}) rotate(-90)" text-anchor="middle">median ms per call (log)</text>`,
    `<rect x="${L}" y="${Tm}" width="${W - L - R}" height="${Hh - Tm - Bm}" fill="none" stroke="#444"/>`,
  );
  series.forEach((s, n) => {
    const c = COLORS[n % COLORS.length],
      p = [...s.points].sort((a, b) => a[0] - b[0]);
    const dash = s.dash ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline fill="none" stroke="${c}" stroke-width="2"${dash} points="${p.map(([t, m]) => `${X(t).toFixed(1)},${Y(m).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [t, m] of p) out.push(`<circle cx="${X(t).toFixed(1)}" cy="${Y(m).toFixed(1)}" r="3" fill="${c}"/>`);
    out.push(
      `<line x1="${W - R + 14}" x2="${W - R + 38}" y1="${Tm + 10 + n * 20}" y2="${Tm + 10 + n * 20}" stroke="${c}" stroke-width="2"${dash}/>`,
      `<text x="${W - R + 44}" y="${Tm + 14 + n * 20}">${esc(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
