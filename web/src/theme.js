// Light or dark: the student's choice (the header's toggle, kept in localStorage), else the system's
// (prefers-color-scheme, followed live). <html data-theme="dark|light"> drives styles.css; the editor (and
// any view given to follow(): the reference solution's) gets a dark theme and highlighting of its own,
// appended to its configuration (editor.js is untouched).
import { EditorView } from '@codemirror/view';
import { Compartment, StateEffect } from '@codemirror/state';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

export const THEME_KEY = 'attnlab:theme';

// Colours ≥ 4.5:1 against the dark panel (#1b1f24).
const darkHighlight = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword],
    color: '#c9a2ff',
  },
  { tag: [tags.string, tags.special(tags.string)], color: '#a5d6a7' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: '#ffb870' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#9aa5b1', fontStyle: 'italic' },
  {
    tag: [tags.function(tags.variableName), tags.function(tags.propertyName), tags.definition(tags.variableName)],
    color: '#82c4ff',
  },
  { tag: [tags.propertyName, tags.variableName], color: '#e6e9ee' },
  { tag: tags.invalid, color: '#ff8a80' },
]);
const darkEditor = [
  EditorView.theme(
    {
      '&': { color: '#e6e9ee', backgroundColor: '#1b1f24' },
      '.cm-content': { caretColor: '#ffffff' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: '#ffffff' },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
        { backgroundColor: '#2f4a6d' },
      '.cm-gutters': { backgroundColor: '#161a1e', color: '#a9b1bc', borderRight: '1px solid #3a414b' },
      '.cm-activeLine': { backgroundColor: '#ffffff0d' },
      '.cm-activeLineGutter': { backgroundColor: '#262b33' },
      '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: '#3a4f2f', color: '#ffffff' },
    },
    { dark: true },
  ),
  syntaxHighlighting(darkHighlight),
];

/**
 * @param {object} o
 * @param {HTMLButtonElement} o.button  the header's toggle (aria-pressed = dark)
 * @param {{ view: EditorView }} o.editor
 * @param {{ get(k): string|null, set(k, v): void }} o.store
 * @param {() => { themeDark: string, themeLight: string }} o.strings  the page's strings now
 * @param {boolean} [o.choice]  false in embed mode: no toggle shown, the system's setting only
 * @param {'light'|'dark'|null} [o.fixed]  the theme the embedding page asked for (`?theme=`), else null: auto
 */
export function connectTheme({ button, editor, store, strings, choice = true, fixed = null }) {
  const system = matchMedia('(prefers-color-scheme: dark)');
  const slot = new Compartment();
  editor.view.dispatch({ effects: StateEffect.appendConfig.of(slot.of([])) });
  const chosen = () => {
    if (fixed === 'light' || fixed === 'dark') return fixed;
    const v = choice && store.get(THEME_KEY);
    return v === 'dark' || v === 'light' ? v : null;
  };
  const views = [editor.view]; // the editor, and the views follow() adds (the reference solution's)
  const apply = () => {
    const dark = (chosen() ?? (system.matches ? 'dark' : 'light')) === 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    for (const v of views) v.dispatch({ effects: slot.reconfigure(dark ? darkEditor : []) });
    button.setAttribute('aria-pressed', String(dark));
    button.textContent = dark ? '☀' : '☾';
    // The toggle's name says what it is (a pressed toggle "dark theme"), its title the action.
    const s = strings();
    button.setAttribute('aria-label', s.themeDark);
    button.title = dark ? s.themeLight : s.themeDark;
  };
  button.addEventListener('click', () => {
    store.set(THEME_KEY, document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
    apply();
  });
  system.addEventListener('change', apply);
  apply();
  return {
    render: apply,
    /** Another CodeMirror view (a read-only one) that follows the theme from now on. */
    follow(view) {
      view.dispatch({ effects: StateEffect.appendConfig.of(slot.of([])) });
      views.push(view);
      apply();
    },
  };
}
