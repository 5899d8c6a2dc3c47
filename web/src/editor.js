// CodeMirror 6 editor with the track's highlighting (JavaScript bundled; Python loaded on first use, a
// chunk of its own), Ctrl/Cmd+Enter → run, and a change hook for autosave.
import { basicSetup } from 'codemirror';
import { EditorView, keymap } from '@codemirror/view';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { javascript } from '@codemirror/lang-javascript';

const LANGUAGES = {
  js: async () => javascript(),
  python: async () => (await import('@codemirror/lang-python')).python(),
};

export function createEditor({ parent, doc, onRun, onChange, label }) {
  const labelling = new Compartment();
  const language = new Compartment();
  const labelExt = (text) => EditorView.contentAttributes.of({ 'aria-label': text });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        language.of(javascript()),
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }])),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
        labelling.of(labelExt(label)),
      ],
    }),
  });
  return {
    view,
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    /** Moves the cursor to a 1-based line (and column), scrolls it into view and focuses the editor. */
    goTo(line, column = 1) {
      const doc = view.state.doc;
      const l = doc.line(Math.max(1, Math.min(doc.lines, line)));
      const pos = Math.min(l.to, l.from + Math.max(0, column - 1));
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      view.focus();
    },
    setLabel(text) { view.dispatch({ effects: labelling.reconfigure(labelExt(text)) }); },
    /** Switches the highlighting to a track's language ('js' | 'python'). */
    async setLanguage(track) { view.dispatch({ effects: language.reconfigure(await (LANGUAGES[track] ?? LANGUAGES.js)()) }); },
  };
}
