// CSV as RFC 4180 defines it, read independently of the writer in grader/batch/summary.mjs (for the
// batch tests): fields separated by `sep`, a quoted field may hold separators, line breaks and doubled
// quotes, records end with CRLF (or LF); a UTF-8 byte order mark at the start is dropped (and reported).

/** `text` → { bom: boolean, rows: string[][], quoted: boolean[][] (was that field quoted) }. Throws on a quote inside an unquoted field or an unclosed one. */
export function parseCsv(text, sep = ',') {
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  const rows = [],
    quoted = [];
  let row = [],
    q = [],
    i = 0;
  while (i < text.length) {
    let field = '';
    q.push(text[i] === '"');
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unclosed quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < text.length && text[i] !== sep && text[i] !== '\r' && text[i] !== '\n')
        throw new Error(`text after a closing quote at ${i}`);
    } else {
      while (i < text.length && text[i] !== sep && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === sep) {
      i++;
      continue;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    rows.push(row);
    quoted.push(q);
    row = [];
    q = [];
  }
  return { bom, rows, quoted };
}
