// Loads exercise packs (exercises/<slug>/, exercises/README.md) into the object grade() and the page
// use, checking each with packProblems(): a broken pack is a PackError naming the file and key.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packProblems, PackError, offeredTracks, englishFile } from '../../core/pack.mjs';
import { TRACKS } from '../../tracks/index.mjs';

export const EXERCISES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'exercises');

/** The slugs of every pack (the folders of exercises/ that hold a spec.json), in course order: spec.json "order", then slug. */
export function listExercises(root = EXERCISES) {
  const order = (slug) => {
    try {
      return JSON.parse(readFileSync(join(root, slug, 'spec.json'), 'utf8')).order ?? 100;
    } catch {
      return 100;
    }
  };
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'spec.json')))
    .map((d) => d.name)
    .map((slug) => [order(slug), slug])
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))
    .map(([, slug]) => slug);
}

/** Reads one pack's files (null for a missing one; a JSON file that does not parse is a PackError). */
export async function readPack(slug, root = EXERCISES) {
  const dir = join(root, slug);
  const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null);
  const json = (f) => {
    const text = read(f);
    if (text === null) return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new PackError(`exercises/${slug}/${f} is not valid JSON: ${e.message}`);
    }
  };
  let suite = null;
  if (existsSync(join(dir, 'suite.mjs'))) {
    try {
      suite = { ...(await import(pathToFileURL(join(dir, 'suite.mjs')).href)) };
    } catch (e) {
      throw new PackError(`exercises/${slug}/suite.mjs cannot be loaded: ${e.message}`);
    }
  }
  // Per track, its starter and solution (null where the file is missing): a pack offers a track
  // when it has both (packProblems checks that it offers at least one, and no half of a pair).
  // starterEn: the English twin of the starter (starter.en.js), where the pack has one (core/pack.mjs starterIn).
  const files = Object.fromEntries(
    Object.values(TRACKS).map((t) => [
      t.name,
      {
        starter: read(t.files.starter),
        starterEn: read(englishFile(t.files.starter)),
        solution: read(t.files.solution),
      },
    ]),
  );
  return {
    slug,
    dir,
    spec: json('spec.json'),
    suite,
    // The texts packProblems reads the reference functions from: those bind.cpp binds, those suite.mjs names.
    suiteSource: read('suite.mjs'),
    bindings: read('reference/bind.cpp'),
    messages: json('messages.json'),
    hints: json('hints.json'),
    texts: { ru: read('texts/task.ru.md'), en: read('texts/task.en.md') },
    // A track's own statement, where it has one (texts/task.ru.py.md …).
    trackTexts: Object.fromEntries(
      Object.values(TRACKS)
        .map((t) => [
          t.variant,
          { ru: read(`texts/task.ru.${t.variant}.md`), en: read(`texts/task.en.${t.variant}.md`) },
        ])
        .filter(([, tx]) => tx.ru !== null || tx.en !== null),
    ),
    files,
    tracks: offeredTracks(files, TRACKS),
  };
}

/** A checked pack; throws PackError (unknown slug, or every problem packProblems() finds). */
export async function loadExercise(slug, root = EXERCISES) {
  const known = listExercises(root);
  if (typeof slug !== 'string' || !known.includes(slug)) {
    throw new PackError(`unknown exercise "${slug}" (exercises: ${known.join(', ') || 'none'})`);
  }
  const pack = await readPack(slug, root);
  const problems = packProblems(pack, TRACKS);
  if (problems.length) throw new PackError(problems.join('\n'));
  return pack;
}
