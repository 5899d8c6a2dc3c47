// The page's editor mode for this track (web/src/editor.js reads it through web/build.mjs's generated
// `attnlab:editors`; Node never imports it): 2-space indentation, and CodeMirror's JavaScript language,
// bundled with the page (the default track's editor opens with it).
import { javascript } from '@codemirror/lang-javascript';

export default { indent: '  ', language: async () => javascript() };
