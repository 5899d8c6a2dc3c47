// Loads an exercise folder (exercises/<slug>/) into the object grade() and the page use.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXERCISES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'exercises');

export function loadExercise(slug) {
  const dir = join(EXERCISES, slug);
  if (!/^[\w-]+$/.test(slug) || !existsSync(join(dir, 'spec.json'))) throw new Error(`unknown exercise "${slug}" (no ${join(dir, 'spec.json')})`);
  const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null);
  return {
    spec: JSON.parse(read('spec.json')),
    starter: read('starter.js'),
    hints: JSON.parse(read('hints.json') || '{}'),
    texts: { ru: read('texts/task.ru.md'), en: read('texts/task.en.md') },
  };
}
