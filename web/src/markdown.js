// A small Markdown → HTML renderer for the exercise texts we ship (headings, paragraphs, lists,
// tables, fenced code, inline code/bold/italic/links). Everything is HTML-escaped first, so a text
// can never inject markup.
const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function inline(s) {
  const code = [];
  s = s.replace(/`([^`]+)`/g, (_, c) => `\u0000${code.push(c) - 1}\u0000`);
  s = esc(s)
    .replace(/(\d) (?=\d{3}(?!\d))/g, '$1\u00a0') // a number's digit groups ("65 536") stay on one line
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" rel="noopener">$1</a>');
  // A code span breaks only at its spaces, never inside a name or a number (`causal_mask(T)`, `-Infinity`):
  // each space-free run is one unbreakable word (styles.css `.prose code .w`); a short span (`T ≥ 1`) is one word.
  const words = (c) =>
    (c.length <= 8 ? [c] : c.split(' ')).map((w) => (w ? `<span class="w">${esc(w)}</span>` : '')).join(' ');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${words(code[i])}</code>`);
}

const cells = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

export function renderMarkdown(md) {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (!line.trim()) {
      i++;
      continue;
    }
    if ((m = line.match(/^```(\w*)/))) {
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      i++;
      out.push(`<pre><code${m[1] ? ` class="lang-${esc(m[1])}"` : ''}>${esc(body.join('\n'))}</code></pre>`);
    } else if ((m = line.match(/^(#{1,6})\s+(.*)/))) {
      // The page title is the h1 (the text's own `#` line) and the task's section an h2: `##` is an h3.
      const level = Math.min(6, Math.max(3, m[1].length + 1));
      out.push(`<h${level}>${inline(m[2])}</h${level}>`);
      i++;
    } else if (
      line.trim().startsWith('|') &&
      /^\s*\|?[\s:|-]+\|?\s*$/.test(lines[i + 1] ?? '') &&
      lines[i + 1].includes('-')
    ) {
      const head = cells(line);
      const rows = [];
      for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(cells(lines[i]));
      out.push(
        `<div class="table-wrap" tabindex="0"><table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join('')}</tr></thead><tbody>${
          // data-label: each cell's column name, shown above the cell where a phone stacks the rows (styles.css).
          rows
            .map(
              (r) =>
                `<tr>${r.map((c, k) => `<td data-label="${esc((head[k] ?? '').replace(/[`*]/g, ''))}">${inline(c)}</td>`).join('')}</tr>`,
            )
            .join('')
        }</tbody></table></div>`,
      );
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim()) {
        if (/^\s*([-*]|\d+\.)\s+/.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.)\s+/, ''));
        else items[items.length - 1] += ' ' + lines[i].trim(); // continuation line
        i++;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join('')}</${tag}>`);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(```|#{1,6}\s|\s*([-*]|\d+\.)\s|\s*\|)/.test(lines[i]))
        para.push(lines[i++].trim());
      if (!para.length) para.push(lines[i++].trim());
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}
