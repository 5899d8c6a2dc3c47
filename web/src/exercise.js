// The exercise object grade() expects, shaped like grader/node/exercise.mjs's loadExercise() result
// ({ spec, starter, hints: { ru, en }, texts: { ru, en } }), but bundled into the page at build time
// from exercises/sdpa/, so the page needs no fetch to start and works offline.
import spec from '../../exercises/sdpa/spec.json';
import hints from '../../exercises/sdpa/hints.json';
import starter from '../../exercises/sdpa/starter.js?raw';
import taskRu from '../../exercises/sdpa/texts/task.ru.md?raw';
import taskEn from '../../exercises/sdpa/texts/task.en.md?raw';

export const exercise = { spec, starter, hints, texts: { ru: taskRu, en: taskEn } };
