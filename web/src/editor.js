// CodeMirror 6 editor with the track's highlighting and indentation, from the track's editor mode
// (grader/tracks/<name>/editor.mjs: `{ indent, language() }`, listed by web/build.mjs as
// `attnlab:editors`; JavaScript's language is bundled, Python's a chunk loaded on first use), Ctrl/Cmd+Enter → run, Shift+Ctrl/Cmd+Enter → check, and a change hook
// for autosave. basicSetup brings bracket matching and auto-closed brackets.
// Tab and Shift+Tab indent and dedent (indentWithTab); Escape then Tab leaves the editor (CodeMirror's
// accessible pattern, see its Tab example): Escape turns tab-focus mode on until another key is typed
// in the editor or focus leaves it, so keyboard users are never trapped (no timer involved).
import { basicSetup } from 'codemirror';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { indentUnit, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { indentWithTab } from '@codemirror/commands';
import { editors } from 'attnlab:editors';

// A track without an editor.mjs gets the first track's mode (the default track's).
const modeOf = (name) => editors[name] ?? Object.values(editors)[0];
const MODIFIERS = ['Shift', 'Control', 'Alt', 'Meta', 'Tab', 'Escape'];

/** Escape: the next Tab (or Shift+Tab) moves focus out instead of indenting; any other key ends that. */
const escapeThenTab = () => {
  let leaving = false;
  const end = (view) => {
    if (leaving) {
      leaving = false;
      view.setTabFocusMode(false);
    }
  };
  return EditorView.domEventHandlers({
    keydown(e, view) {
      if (e.key === 'Escape') {
        leaving = true;
        view.setTabFocusMode(true);
      } else if (!MODIFIERS.includes(e.key)) end(view);
      return false;
    },
    blur(e, view) {
      end(view);
      return false;
    },
  });
};

export function createEditor({ parent, doc, onRun, onCheck, onChange, label, track }) {
  const labelling = new Compartment();
  const language = new Compartment();
  const indent = new Compartment();
  const labelExt = (text) => EditorView.contentAttributes.of({ 'aria-label': text });
  const indentExt = (name) => [indentUnit.of(modeOf(name).indent), EditorState.tabSize.of(modeOf(name).indent.length)];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        language.of([]), // until setLanguage(track) has loaded it
        indent.of(indentExt(track)),
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                onRun();
                return true;
              },
            },
            {
              key: 'Shift-Mod-Enter',
              run: () => {
                onCheck();
                return true;
              },
            },
          ]),
        ),
        keymap.of([indentWithTab]),
        escapeThenTab(),
        EditorView.lineWrapping, // long lines wrap: no TODO cut off at 1280 px or on a phone
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
        labelling.of(labelExt(label)),
      ],
    }),
  });
  return {
    view,
    get value() {
      return view.state.doc.toString();
    },
    set value(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    /** Moves the cursor to a 1-based line (and column), scrolls it into view and focuses the editor. */
    goTo(line, column = 1) {
      const doc = view.state.doc;
      const l = doc.line(Math.max(1, Math.min(doc.lines, line)));
      const pos = Math.min(l.to, l.from + Math.max(0, column - 1));
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      view.focus();
    },
    setLabel(text) {
      view.dispatch({ effects: labelling.reconfigure(labelExt(text)) });
    },
    /** Switches the highlighting and the indentation to a track's language (its name). */
    async setLanguage(name) {
      const lang = await modeOf(name).language();
      view.dispatch({ effects: [language.reconfigure(lang), indent.reconfigure(indentExt(name))] });
    },
  };
}

/**
 * A read-only view of code in a track's highlighting (the reference solution, web/src/solution.js): line
 * numbers, long lines wrapped, as tall as its text (no scroller of its own), focusable and selectable (a
 * keyboard or a screen reader reads it as the editor), not editable.
 * → { view, show(doc, track, label), setLabel(label) } (show: another text, its track's highlighting and its label).
 */
export function createViewer({ parent }) {
  const language = new Compartment();
  const labelling = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      extensions: [
        lineNumbers(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        language.of([]),
        EditorState.readOnly.of(true),
        EditorView.lineWrapping,
        labelling.of([]),
      ],
    }),
  });
  const labelExt = (text) => EditorView.contentAttributes.of({ 'aria-label': text, 'aria-readonly': 'true' });
  return {
    view,
    async show(doc, track, label) {
      const mode = modeOf(track);
      const lang = await mode.language();
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: doc },
        effects: [
          language.reconfigure([lang, EditorState.tabSize.of(mode.indent.length)]),
          labelling.reconfigure(labelExt(label)),
        ],
      });
    },
    setLabel(label) {
      view.dispatch({ effects: labelling.reconfigure(labelExt(label)) });
    },
  };
}
