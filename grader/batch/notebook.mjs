// A Jupyter notebook (.ipynb, nbformat 3 or 4) as a submission: its code cells in order, joined by a
// blank line, without IPython's magics (`%time`, a `%%timeit` cell) and shell lines (`!pip install`),
// which are no Python; what was dropped is said in a note. The track is the notebook's language
// (`metadata.kernelspec.language` or `language_info.name`: JavaScript kernels exist too), else Python.

export const isNotebook = (path) => /\.ipynb$/i.test(path);

/**
 * `bytes` of a .ipynb → { track: 'python' | 'js', code, notes: [{ en, ru }] }; throws Error with a
 * message naming what is wrong when it is no notebook.
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
  const language = String(
    nb.metadata?.kernelspec?.language ?? nb.metadata?.language_info?.name ?? 'python',
  ).toLowerCase();
  const track = /^(javascript|js|typescript)$/.test(language) ? 'js' : 'python';
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
      en: `a notebook: its ${taken} code cell(s) graded as one ${track === 'js' ? 'JavaScript' : 'Python'} file`,
      ru: `блокнот: его ячейки кода (${taken}) проверены как один файл ${track === 'js' ? 'JavaScript' : 'Python'}`,
    },
  ];
  if (magicCells || magicLines)
    notes.push({
      en: `dropped from the notebook: ${magicCells} %% cell(s), ${magicLines} magic or shell line(s) (% and !), which are no ${track === 'js' ? 'JavaScript' : 'Python'}`,
      ru: `из блокнота убраны: ячейки %% (${magicCells}), строки магии и оболочки (% и !) (${magicLines}) — это не ${track === 'js' ? 'JavaScript' : 'Python'}`,
    });
  return { track, code: parts.join('\n\n') + '\n', notes };
}
