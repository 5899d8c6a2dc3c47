// Similar submissions, for a human to look at (never a penalty): MOSS's method (Schleimer, Wilkerson,
// Aiken, "Winnowing", SIGMOD 2003). The source becomes tokens with comments dropped, names replaced by one
// token (renaming changes nothing) while keywords and attribute names (`np.matmul`) stay; every run of K
// tokens is hashed, and of each window of W hashes the smallest is kept (its fingerprint, with its line).
// Fingerprints of the track's starter, and those found in more than a tenth of the class and more than
// COMMON submissions (what everybody writes), are removed; a pair is flagged when it shares at least MIN_SHARED fingerprints that make up
// at least THRESHOLD of the smaller submission's.
import { DEFAULT_TRACK, TRACKS, trackNamed } from '../tracks/index.mjs';

export const K = 12,
  W = 8,
  THRESHOLD = 0.5,
  MIN_SHARED = 6,
  COMMON = 10;
// Keywords (and names every submission uses, such as Python's `range`) stay themselves: those of every
// track, from each track's `lexicon` (grader/tracks/README.md).
const KEYWORDS = new Set(Object.values(TRACKS).flatMap((t) => t.lexicon?.keywords ?? []));

/**
 * Tokens of a source in the track called `track` (its `lexicon`, else the default track's): [{ t, line }].
 * One pass: every character is looked at a bounded number of times, whatever the text (an unclosed
 * comment or multi-line string runs to the end of the file, an unclosed one-line string to the end of its
 * line), so a 1 MiB file of `/*` or quotes costs what any 1 MiB file costs. `meter.steps` (when given)
 * counts the characters examined, for the tests of that bound.
 */
export function tokens(source, track, meter = null) {
  const { comments, strings, name } = trackNamed(track)?.lexicon ?? DEFAULT_TRACK.lexicon;
  const out = [],
    n = source.length;
  let line = 1,
    prev = '',
    i = 0,
    steps = 0;
  // Lines in source[from, to), each character counted as a step.
  const linesIn = (from, to) => {
    let c = 0;
    for (let k = from; k < to; k++) if (source.charCodeAt(k) === 10) c++;
    steps += to - from;
    return c;
  };
  const push = (t) => {
    out.push({ t, line });
    prev = t;
  };
  scan: while (i < n) {
    steps++;
    const c = source[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (WHITE.test(c)) {
      i++;
      continue;
    }
    for (const [open, close] of comments) {
      steps++;
      if (!source.startsWith(open, i)) continue;
      // A line comment (close "\n") stops before its newline; an unclosed block comment runs to the end.
      const at = source.indexOf(close, i + open.length);
      const end = at < 0 ? n : close === '\n' ? at : at + close.length;
      line += linesIn(i, end);
      i = end;
      continue scan;
    }
    for (const [open, close, multiline] of strings) {
      steps++;
      if (!source.startsWith(open, i)) continue;
      let k = i + open.length;
      for (; k < n; k++) {
        steps++;
        const ch = source.charCodeAt(k);
        if (ch === 92)
          k++; // a backslash escapes the next character
        else if (ch === 10 && !multiline) break;
        else if (source.startsWith(close, k)) {
          k += close.length;
          break;
        }
      }
      const end = Math.min(k, n);
      const start = line;
      line += linesIn(i, end);
      out.push({ t: 'S', line: start });
      prev = 'S';
      i = end;
      continue scan;
    }
    let k = i + 1;
    if (DIGIT.test(c)) {
      while (k < n && NUMBER.test(source[k])) (k++, steps++);
      push('N');
    } else if (name.start.test(c)) {
      while (k < n && name.part.test(source[k])) (k++, steps++);
      const word = source.slice(i, k);
      push(KEYWORDS.has(word) || prev === '.' ? word : 'V');
    } else push(c);
    i = k;
  }
  if (meter) meter.steps += steps;
  return out;
}
const WHITE = /\s/,
  DIGIT = /\d/,
  NUMBER = /[\w.]/;

// Each token's text → a 32-bit number (FNV-1a); each run of K tokens → a rolling (Karp–Rabin) hash of
// those numbers, mixed (MurmurHash3's finaliser) so that the smallest of a window is a fair pick.
const tokenHash = (t) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
  return h >>> 0;
};
const BASE = 0x01000193;
const BASE_K = Array.from({ length: K - 1 }).reduce((p) => Math.imul(p, BASE), 1); // BASE^(K-1) mod 2^32
const mix = (h) => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** Winnowed fingerprints: Map hash → [line from, line to] of its first occurrence. */
export function fingerprints(source, track, meter = null) {
  const toks = tokens(source, track, meter);
  const codes = new Map(),
    nums = toks.map(({ t }) => codes.get(t) ?? codes.set(t, tokenHash(t)).get(t));
  const grams = [];
  let h = 0;
  for (let i = 0; i < nums.length; i++) {
    if (i >= K) h = (h - Math.imul(nums[i - K], BASE_K)) | 0;
    h = (Math.imul(h, BASE) + nums[i]) | 0;
    if (i >= K - 1) grams.push({ h: mix(h), from: toks[i - K + 1].line, to: toks[i].line });
  }
  const fp = new Map();
  for (let i = 0; i + W <= grams.length || (i === 0 && grams.length); i++) {
    let best = null;
    for (let j = i; j < Math.min(i + W, grams.length); j++) if (!best || grams[j].h <= best.h) best = grams[j]; // the rightmost smallest
    if (!fp.has(best.h)) fp.set(best.h, [best.from, best.to]);
  }
  return fp;
}

/**
 * Pairs to look at among `subs` ([{ student, track, source }]; `starters`: track → starter source).
 * → [{ a, b, score, shared, linesA: [[from, to]], linesB }] by score, at most `limit`.
 */
export function similarPairs(subs, starters = {}, { limit = 50 } = {}) {
  const starterFp = Object.fromEntries(
    Object.entries(starters)
      .filter(([, s]) => s)
      .map(([t, s]) => [t, fingerprints(s, t)]),
  );
  const prints = subs.map((s) => {
    const fp = fingerprints(s.source, s.track);
    for (const h of starterFp[s.track]?.keys() ?? []) fp.delete(h);
    return fp;
  });
  // What more than a tenth of the class (and more than 10 submissions, MOSS's default -m) wrote is common code, not a sign of copying.
  const seen = new Map();
  for (const fp of prints) for (const h of fp.keys()) seen.set(h, (seen.get(h) ?? 0) + 1);
  const common = Math.max(COMMON, Math.ceil(subs.length / 10));
  for (const fp of prints) for (const h of [...fp.keys()]) if (seen.get(h) > common) fp.delete(h);
  // Candidate pairs through an index of hash → submissions (no n² scan over unrelated pairs).
  const byHash = new Map();
  prints.forEach((fp, i) => {
    for (const h of fp.keys()) (byHash.get(h) ?? byHash.set(h, []).get(h)).push(i);
  });
  const sharedCount = new Map();
  for (const list of byHash.values())
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const k = list[x] * subs.length + list[y];
        sharedCount.set(k, (sharedCount.get(k) ?? 0) + 1);
      }
  const pairs = [];
  for (const [k, shared] of sharedCount) {
    const i = Math.floor(k / subs.length),
      j = k % subs.length;
    const score = shared / Math.max(1, Math.min(prints[i].size, prints[j].size));
    if (shared < MIN_SHARED || score < THRESHOLD || subs[i].track !== subs[j].track) continue;
    const both = [...prints[i].keys()].filter((h) => prints[j].has(h));
    pairs.push({
      a: subs[i].student,
      b: subs[j].student,
      score,
      shared,
      linesA: both.map((h) => prints[i].get(h)),
      linesB: both.map((h) => prints[j].get(h)),
    });
  }
  pairs.sort((p, q) => q.score - p.score || q.shared - p.shared || (p.a + p.b < q.a + q.b ? -1 : 1));
  return pairs.slice(0, limit);
}
