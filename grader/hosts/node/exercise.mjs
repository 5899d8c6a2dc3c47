// Loads exercise packs (exercises/<slug>/, exercises/README.md) into the object grade() and the page
// use, checking each with packProblems(): a broken pack is a PackError naming the file and key.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packProblems, PackError, offeredTracks } from '../../core/pack.mjs';
import { PACK_FILES, packLayout, setAt } from '../../core/pack-layout.mjs';
import { LANGS } from '../../core/messages.mjs';
// The tracks' descriptions are enough to read and check a pack (each track's files, variant, label): no track's code is loaded.
import { catalog } from '../../tracks/catalog.mjs';

const { TRACKS } = catalog;

export const EXERCISES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'exercises');

/** The slugs of every pack (the folders of exercises/ that hold a spec.json), in course order: spec.json "order", then slug. */
export function listExercises(root = EXERCISES) {
  const order = (slug) => {
    try {
      return JSON.parse(readFileSync(join(root, slug, PACK_FILES.spec), 'utf8')).order ?? 100;
    } catch {
      return 100;
    }
  };
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, PACK_FILES.spec)))
    .map((d) => d.name)
    .map((slug) => [order(slug), slug])
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))
    .map(([, slug]) => slug);
}

/**
 * Reads one pack's files by its layout (core/pack-layout.mjs): each where the layout puts it, null for a
 * missing one (packProblems then names a required one); a JSON file that does not parse, or a suite that
 * cannot be imported, is a PackError naming the file. `paths`: the same keys, each file's absolute path
 * (null where it is missing), for readers that import the files themselves (web/build.mjs).
 */
export async function readPack(slug, root = EXERCISES) {
  const dir = join(root, slug);
  const pack = { slug, dir, paths: {} };
  for (const { at, file, read } of packLayout(TRACKS, LANGS)) {
    const path = join(dir, file);
    const there = existsSync(path);
    setAt(pack.paths, at, there ? path : null);
    let value = there && read !== 'module' ? readFileSync(path, 'utf8') : null;
    if (there && read === 'json') {
      try {
        value = JSON.parse(value);
      } catch (e) {
        throw new PackError(`exercises/${slug}/${file} is not valid JSON: ${e.message}`);
      }
    }
    if (there && read === 'module') {
      try {
        value = { ...(await import(pathToFileURL(path).href)) };
      } catch (e) {
        throw new PackError(`exercises/${slug}/${file} cannot be loaded: ${e.message}`);
      }
    }
    setAt(pack, at, value);
  }
  // A track's own statement only where it has one (texts/task.ru.py.md …); a pack offers a track when it
  // has both its starter and its solution (packProblems checks that it offers one, and no half of a pair).
  pack.trackTexts = Object.fromEntries(
    Object.entries(pack.trackTexts ?? {}).filter(([, tx]) => Object.values(tx).some((t) => t !== null)),
  );
  pack.tracks = offeredTracks(pack.files, TRACKS);
  return pack;
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
