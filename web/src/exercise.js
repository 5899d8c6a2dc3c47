// The exercise packs the page offers (every exercises/<slug>/, checked at build time by web/build.mjs),
// in course order, and the choice of one: ?exercise=<slug>, else the last one opened here, else the
// first. Only specs are in the page's bundle; the chosen pack's suite, texts and starters are its own
// chunk, loaded here. The loaded pack is shaped like grader/hosts/node/exercise.mjs's loadExercise() result.
import { packs } from 'attnlab:packs';
import { starterIn, labelsIn } from '../../grader/browser.mjs';

/** The starter of `track` in `lang` (its English twin on ?lang=en where the pack has one), and the heatmap's tokens in `lang`. */
export const starterOf = (exercise, track, lang) => starterIn(exercise.files, track, lang);
export const heatmapTokens = (exercise, lang) => labelsIn(exercise.spec.panels?.heatmap?.tokens, lang);

/** Packs in course order (spec.json "order", then slug): { slug, spec } each. */
export const exercises = Object.values(packs).sort(
  (a, b) => (a.spec.order ?? 100) - (b.spec.order ?? 100) || a.slug.localeCompare(b.slug),
);

/** → { exercise, unknown } where `unknown` is a requested slug that no pack has (the page says so). */
export async function chooseExercise(requested, remembered) {
  const known = (slug) => (slug && Object.hasOwn(packs, slug) ? packs[slug] : null);
  const chosen = known(requested) ?? known(remembered) ?? exercises[0];
  const { default: rest } = await chosen.load();
  return {
    exercise: { slug: chosen.slug, spec: chosen.spec, ...rest },
    unknown: known(requested) ? null : (requested ?? null),
  };
}
