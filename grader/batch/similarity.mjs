// Similar submissions, for a human to look at (never a penalty): MOSS's method (Schleimer, Wilkerson,
// Aiken, "Winnowing", SIGMOD 2003). The source becomes tokens with comments dropped, names replaced by one
// token (renaming changes nothing) while keywords and attribute names (`np.matmul`) stay; every run of K
// tokens is hashed, and of each window of W hashes the smallest is kept (its fingerprint, with its line).
// Fingerprints of the track's starter, and those found in more than a tenth of the class and more than
// COMMON submissions (what everybody writes), are removed; a pair is flagged when it shares at least MIN_SHARED fingerprints that make up
// at least THRESHOLD of the smaller submission's. Exact and near-exact copies (the same text, the same
// tokens) are flagged whatever their code; every pair is kept, and the pairs are grouped into clusters.
import { createHash } from 'node:crypto';
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
  return winnow(tokens(source, track, meter));
}

/** The fingerprints of a token list (fingerprints()). */
function winnow(toks) {
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

// A source's text with what an editor changes without the author meaning to (a BOM, CRLF, trailing spaces,
// blank lines at the end) taken away: equal texts are exact copies.
const normalText = (source) =>
  source
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
const digest = (text) => createHash('sha256').update(text).digest('hex');
const RANK = { exact: 0, near: 1, similar: 2 };

/**
 * Pairs to look at among `subs` ([{ student, track, source }]; `starters`: track → starter source), every
 * one that passes, strongest first: [{ a, b, kind, score, shared, linesA: [[from, to]], linesB }].
 * `kind`: `exact` (the same text once a BOM, CRLF and trailing spaces are set aside), `near` (the same
 * tokens: only comments, spacing or names differ) — both flagged however many submissions share the code,
 * unless it is the track's starter unchanged — else `similar` (winnowed fingerprints, the starter's and
 * the class's common ones removed, at least MIN_SHARED shared making up THRESHOLD of the smaller one's).
 */
export function similarPairs(subs, starters = {}) {
  const starterShape = {},
    starterFp = {};
  for (const [t, s] of Object.entries(starters).filter(([, x]) => x)) {
    const toks = tokens(s, t);
    starterShape[t] = digest(toks.map((x) => x.t).join(' '));
    starterFp[t] = winnow(toks);
  }
  const info = subs.map((s) => {
    const toks = tokens(s.source, s.track);
    const fp = winnow(toks);
    for (const h of starterFp[s.track]?.keys() ?? []) fp.delete(h);
    const shape = digest(toks.map((x) => x.t).join(' '));
    const lines = s.source.split('\n').length;
    // Nothing of one's own (no token, or the starter as given): no evidence of copying.
    const own = toks.length > 0 && shape !== starterShape[s.track];
    return { fp, shape: own ? shape : null, text: own ? digest(normalText(s.source)) : null, lines };
  });
  const prints = info.map((x) => x.fp);
  // What more than a tenth of the class (and more than 10 submissions, MOSS's default -m) wrote is common code, not a sign of copying.
  const seen = new Map();
  for (const fp of prints) for (const h of fp.keys()) seen.set(h, (seen.get(h) ?? 0) + 1);
  const common = Math.max(COMMON, Math.ceil(subs.length / 10));
  for (const fp of prints) for (const h of [...fp.keys()]) if (seen.get(h) > common) fp.delete(h);
  const pairs = new Map(); // i * n + j → pair
  const n = subs.length;
  const add = (i, j, pair) => {
    const k = i * n + j,
      old = pairs.get(k);
    if (!old || RANK[pair.kind] < RANK[old.kind]) pairs.set(k, { a: subs[i].student, b: subs[j].student, ...pair });
  };
  // Exact and near copies: submissions grouped by their text's and their tokens' digests (of one track).
  for (const [field, kind] of [
    ['text', 'exact'],
    ['shape', 'near'],
  ]) {
    const groups = new Map();
    info.forEach((x, i) => {
      if (!x[field]) return;
      const g = `${subs[i].track}\0${x[field]}`;
      (groups.get(g) ?? groups.set(g, []).get(g)).push(i);
    });
    for (const list of groups.values())
      for (let x = 0; x < list.length; x++)
        for (let y = x + 1; y < list.length; y++) {
          const [i, j] = [list[x], list[y]];
          add(i, j, {
            kind,
            score: 1,
            shared: prints[i].size,
            linesA: [[1, info[i].lines]],
            linesB: [[1, info[j].lines]],
          });
        }
  }
  // Candidate pairs through an index of hash → submissions (no n² scan over unrelated pairs).
  const byHash = new Map();
  prints.forEach((fp, i) => {
    for (const h of fp.keys()) (byHash.get(h) ?? byHash.set(h, []).get(h)).push(i);
  });
  const sharedCount = new Map();
  for (const list of byHash.values())
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const k = list[x] * n + list[y];
        sharedCount.set(k, (sharedCount.get(k) ?? 0) + 1);
      }
  for (const [k, shared] of sharedCount) {
    const i = Math.floor(k / n),
      j = k % n;
    const score = shared / Math.max(1, Math.min(prints[i].size, prints[j].size));
    if (shared < MIN_SHARED || score < THRESHOLD || subs[i].track !== subs[j].track || pairs.has(k)) continue;
    const both = [...prints[i].keys()].filter((h) => prints[j].has(h));
    add(i, j, {
      kind: 'similar',
      score,
      shared,
      linesA: both.map((h) => prints[i].get(h)),
      linesB: both.map((h) => prints[j].get(h)),
    });
  }
  return [...pairs.values()].sort(
    (p, q) =>
      RANK[p.kind] - RANK[q.kind] ||
      q.score - p.score ||
      q.shared - p.shared ||
      (p.a + p.b < q.a + q.b ? -1 : p.a + p.b > q.a + q.b ? 1 : 0),
  );
}

/**
 * The pairs' clusters: connected components of the graph whose edges are the pairs, largest and strongest
 * first: [{ members (sorted), kind (the strongest pair's), evidence: that pair { a, b, kind, score, shared } }].
 */
export function clustersOf(pairs) {
  const parent = new Map();
  const find = (x) => {
    while (parent.get(x) !== x) {
      parent.set(x, parent.get(parent.get(x)));
      x = parent.get(x);
    }
    return x;
  };
  for (const p of pairs) for (const x of [p.a, p.b]) if (!parent.has(x)) parent.set(x, x);
  for (const p of pairs) {
    const [x, y] = [find(p.a), find(p.b)];
    if (x !== y) parent.set(x < y ? y : x, x < y ? x : y);
  }
  const groups = new Map();
  for (const x of parent.keys()) (groups.get(find(x)) ?? groups.set(find(x), []).get(find(x))).push(x);
  const strongest = new Map();
  for (const p of pairs) if (!strongest.has(find(p.a))) strongest.set(find(p.a), p); // pairs come strongest first
  return [...groups.entries()]
    .map(([root, members]) => {
      const { a, b, kind, score, shared } = strongest.get(root);
      return { members: members.sort(), kind, evidence: { a, b, kind, score, shared } };
    })
    .sort(
      (x, y) =>
        RANK[x.kind] - RANK[y.kind] ||
        y.members.length - x.members.length ||
        (x.members[0] < y.members[0] ? -1 : x.members[0] > y.members[0] ? 1 : 0),
    );
}
