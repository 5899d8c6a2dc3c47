// A Jupyter notebook (.ipynb, nbformat 3 or 4) as a submission: its code cells in order, joined by a
// blank line, without IPython's magics (`%time`, a `%%timeit` cell) and shell lines (`!pip install`),
// which are no Python; what was dropped is said in a note. The track is the one that reads the notebook's
// language, found in the tracks' descriptions (grader/tracks/catalog.mjs), so that no track is named here:
// by the file extension Jupyter records (`language_info.file_extension`), else by the language's name
// (`kernelspec.language`, `language_info.name`; a notebook that names none is IPython's, whose language
// is python) against a track's name, label or extensions. A language no track reads is refused.
import { catalog } from '../tracks/catalog.mjs';

/** The track that reads a notebook's language, or an Error that says which language it was. */
function trackOf(nb) {
  const info = nb.metadata?.language_info ?? {};
  const ext = typeof info.file_extension === 'string' ? info.file_extension.toLowerCase() : null;
  const language = String(nb.metadata?.kernelspec?.language ?? info.name ?? 'python').toLowerCase();
  const tracks = Object.values(catalog.TRACKS);
  const track =
    (ext && tracks.find((t) => t.extensions.includes(ext))) ??
    tracks.find(
      (t) => t.name === language || t.label.toLowerCase() === language || t.extensions.includes(`.${language}`),
    );
  if (track) return track;
  throw new Error(
    `a notebook in ${language.slice(0, 40)}, which no track reads (${tracks.map((t) => t.label).join(', ')})`,
  );
}

export const isNotebook = (path) => /\.ipynb$/i.test(path);

/**
 * `bytes` of a .ipynb → { track (its name), code, notes: [{ en, ru }] }; throws Error with a message
 * naming what is wrong when it is no notebook, or one in a language no track reads.
 */
export function notebookCode(bytes) {
  let nb;
  try {
    nb = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`not a notebook: its JSON does not parse (${String(e.message).slice(0, 120)})`, { cause: e });
  }
  const cells = Array.isArray(nb?.cells)
    ? nb.cells
    : Array.isArray(nb?.worksheets?.[0]?.cells)
      ? nb.worksheets[0].cells
      : null;
  if (!cells) throw new Error('not a notebook: no cells');
  const track = trackOf(nb),
    label = track.label;
  const text = (x) => (Array.isArray(x) ? x.map(String).join('') : typeof x === 'string' ? x : '');
  let taken = 0,
    magicCells = 0,
    magicLines = 0;
  const parts = [];
  for (const cell of cells) {
    if (cell?.cell_type !== 'code') continue;
    const src = text(cell.source ?? cell.input);
    if (/^\s*%%/.test(src)) {
      magicCells++;
      continue;
    }
    const lines = src.split('\n').map((l) => {
      if (!/^\s*[%!]/.test(l)) return l;
      magicLines++;
      return '';
    });
    parts.push(lines.join('\n').trimEnd());
    taken++;
  }
  const notes = [
    {
      en: `a notebook: its ${taken} code cell(s) graded as one ${label} file`,
      ru: `блокнот: его ячейки кода (${taken}) проверены как один файл ${label}`,
    },
  ];
  if (magicCells || magicLines)
    notes.push({
      en: `dropped from the notebook: ${magicCells} %% cell(s), ${magicLines} magic or shell line(s) (% and !), which are no ${label}`,
      ru: `из блокнота убраны: ячейки %% (${magicCells}), строки магии и оболочки (% и !) (${magicLines}) — это не ${label}`,
    });
  return { track: track.name, code: parts.join('\n\n') + '\n', notes };
}
