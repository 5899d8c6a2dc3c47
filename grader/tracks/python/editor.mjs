// The page's editor mode for this track (web/src/editor.js reads it through web/build.mjs's generated
// `attnlab:editors`; Node never imports it): 4-space indentation (PEP 8), and CodeMirror's Python
// language, a chunk of its own that the page fetches only when Python is chosen.
export default { indent: '    ', language: async () => (await import('@codemirror/lang-python')).python() };
