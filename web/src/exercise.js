// The exercise packs the page offers (every exercises/<slug>/, bundled in by web/build.mjs, checked at
// build time), in course order, and the choice of one: ?exercise=<slug>, else the last one opened here,
// else the first. Each pack is shaped like grader/node/exercise.mjs's loadExercise() result.
import { packs } from 'attnlab:packs';

/** Packs in course order (spec.json "order", then slug). */
export const exercises = Object.values(packs).sort((a, b) => (a.spec.order ?? 100) - (b.spec.order ?? 100) || a.slug.localeCompare(b.slug));

/** → { exercise, unknown } where `unknown` is a requested slug that no pack has (the page says so). */
export function chooseExercise(requested, remembered) {
  if (requested && packs[requested]) return { exercise: packs[requested], unknown: null };
  const fallback = (remembered && packs[remembered]) || exercises[0];
  return { exercise: fallback, unknown: requested ?? null };
}
