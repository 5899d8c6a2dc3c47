// Naming a mistake by recomputing it: a student's result against what each candidate mistake would
// give (the reference run with that mistake's options, or a recomputation a suite builds). ctx.diagnose
// (core/grade.mjs) is the one way a pack asks for it; the kit re-exports `matches` for plain comparisons.
import { close } from './compare.mjs';

/** Does `got` (a tensor, or a list of them) match `expected` of the same structure, within `tol` (NaN equals NaN)? */
export function matches(got, expected, tol) {
  if (Array.isArray(expected))
    return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => matches(got[i], e, tol));
  return !Array.isArray(got) && close(got, expected, tol);
}

/**
 * The classic-mistake recomputation: `mistakes` is a list of { key, params?, run } where run()
 * recomputes the result a mistake would give. → the one { key, params } whose result the student's
 * `got` matches, or null: when no mistake explains it, and also when mistakes with different keys
 * explain it equally (the inputs cannot tell them apart, as at T = 1: naming one would be a guess). A
 * mistake whose recomputation throws (it does not apply to these inputs) is skipped. `got` and each
 * result have the same structure: a tensor, or a list of tensors.
 */
export function explainWhy(got, mistakes, tol) {
  let found = null;
  for (const m of mistakes) {
    if (!m) continue;
    let r;
    try {
      r = m.run();
    } catch {
      continue;
    }
    if (!matches(got, r, tol)) continue;
    if (found && found.key !== m.key) return null;
    found ??= { key: m.key, params: m.params ?? {} };
  }
  return found;
}
