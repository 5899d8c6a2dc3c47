// Student text (prints, error messages, load notes) on the trusted side: capped, well-formed, free of
// host paths, and escaped where a terminal would interpret it. Used by the wire decoder (every reply),
// the grader core (per-test output), the text reporter and the page.

/** Lone UTF-16 surrogates → U+FFFD, so that every JSON parser accepts the text. */
export const wellFormed = (s) =>
  typeof s.toWellFormed === 'function'
    ? s.toWellFormed()
    : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * At most `max` UTF-16 units, cut between code points (never inside a surrogate pair), with `note`
 * appended when something was cut (the note counts towards `max`).
 */
export function capText(s, max, note = '…') {
  if (typeof s !== 'string') s = String(s);
  if (s.length <= max) return wellFormed(s);
  let end = Math.max(0, max - note.length);
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // the cut would leave a high surrogate without its pair
  return wellFormed(s.slice(0, end)) + note;
}

// A stack frame (`    at f (where:1:2)`, `    at where:1:2`) and the student's own ones (`submission.js`).
const FRAME = /^\s+at \S.*(?:\)|:\d+:\d+)$/;
const OWN_FRAME = /^\s+at (?:[^()]+ \()?submission\.\w+:\d+:\d+\)?$/;
// file: URLs, node: internals and absolute paths under the usual roots of a host.
const HOST_PATH =
  /\bfile:\/\/[^\s)'"`]*|\bnode:[\w/]+|(?<![\w.])(?:\/(?:home|work|root|usr|tmp|opt|var|srv|mnt|Users|private|etc)\/|[A-Za-z]:\\)[^\s)'"`]*/g;

/** Removes stack frames other than the student's and replaces host paths with `…`. */
export function scrubHost(s) {
  if (!/\bat |[/\\]|node:/.test(s)) return s;
  return s
    .split('\n')
    .filter((line) => !FRAME.test(line) || OWN_FRAME.test(line))
    .join('\n')
    .replace(HOST_PATH, '…');
}

// C0 and C1 controls except tab and newline, DEL, and the characters that reorder or hide text
// (bidi embeddings/overrides/isolates, zero-width marks, line/paragraph separators).
const CONTROLS = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;
const hex = (c) =>
  c
    .charCodeAt(0)
    .toString(16)
    .padStart(c.charCodeAt(0) > 0xff ? 4 : 2, '0');

/** Control characters shown as escapes (`\x1b`, `\u202e`), so a terminal or a page displays them inertly. */
export const visible = (s) => s.replace(CONTROLS, (c) => (c.charCodeAt(0) > 0xff ? `\\u${hex(c)}` : `\\x${hex(c)}`));

/**
 * Text for a cell of a table a spreadsheet opens (CSV, TSV): well-formed, control and bidi characters
 * removed, tab and line breaks made spaces (a cell is one line, and a tab is TSV's separator).
 */
export const plainText = (s) =>
  wellFormed(String(s ?? ''))
    .replace(CONTROLS, '')
    .replace(/[\t\n]/g, ' ');

/**
 * A name the file system or a zip gave as bytes (any bytes: a Latin-1 name from a Windows zip unpacked
 * on Linux is not UTF-8) as text to show: UTF-8 where it is valid, each other byte as `\xNN`, so that no
 * two byte names look alike, control characters as visible() shows them, tab and newline as `\t` `\n`.
 * → { text, escaped: bool }
 */
export function nameText(bytes) {
  let text = '',
    escaped = false,
    from = 0,
    i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    let len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 1) {
      // Continuation bytes, and no overlong form, surrogate or code point past U+10FFFF.
      const b1 = bytes[i + 1];
      const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80,
        hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (i + len > n || b1 < lo || b1 > hi) len = 0;
      for (let k = 2; k < len; k++) if ((bytes[i + k] & 0xc0) !== 0x80) len = 0;
    }
    if (len) {
      i += len;
      continue;
    }
    text += bytes.subarray(from, i).toString('utf8') + `\\x${b.toString(16).padStart(2, '0')}`;
    escaped = true;
    from = ++i;
  }
  text += bytes.subarray(from, n).toString('utf8');
  const shown = visible(text).replace(/[\t\n]/g, (c) => (c === '\t' ? '\\t' : '\\n')); // a name is one line
  return { text: shown, escaped: escaped || shown !== text };
}
