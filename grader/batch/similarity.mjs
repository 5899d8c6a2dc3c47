// Similar submissions, for a human to look at (never a penalty): MOSS's method (Schleimer, Wilkerson,
// Aiken, "Winnowing", SIGMOD 2003). The source becomes tokens with comments dropped, names replaced by one
// token (renaming changes nothing) while keywords and attribute names (`np.matmul`) stay; every run of K
// tokens is hashed, and of each window of W hashes the smallest is kept (its fingerprint, with its line).
// Fingerprints of the track's starter, and those found in more than a tenth of the class and more than
// COMMON submissions (what everybody writes), are removed; a pair is flagged when it shares at least MIN_SHARED fingerprints that make up
// at least THRESHOLD of the smaller submission's.
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

/** Tokens of a source in the track called `track` (its `lexicon.tokens`, else the default track's): [{ t, line }]. */
export function tokens(source, track) {
  const out = [];
  const re = (trackNamed(track)?.lexicon ?? DEFAULT_TRACK.lexicon).tokens;
  let line = 1,
    prev = '';
  for (const m of source.matchAll(re)) {
    const [all, comment, str, num, name, nl] = m;
    if (nl) {
      line++;
      continue;
    }
    if (comment) {
      line += (all.match(/\n/g) || []).length;
      continue;
    }
    const t = str ? 'S' : num ? 'N' : name ? (KEYWORDS.has(name) || prev === '.' ? name : 'V') : all;
    out.push({ t, line });
    if (str) line += (all.match(/\n/g) || []).length;
    prev = t;
  }
  return out;
}

const hash = (s) => createHash('sha1').update(s).digest().readUInt32BE(0);

/** Winnowed fingerprints: Map hash → [line from, line to] of its first occurrence. */
export function fingerprints(source, track) {
  const toks = tokens(source, track);
  const grams = [];
  for (let i = 0; i + K <= toks.length; i++)
    grams.push({
      h: hash(
        toks
          .slice(i, i + K)
          .map((x) => x.t)
          .join(' '),
      ),
      from: toks[i].line,
      to: toks[i + K - 1].line,
    });
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
