// Browser entry: the same API as ./index.mjs with the WGSL bundled as text.
// Bundle with esbuild's text loader for .wgsl, e.g.
//   esbuild page.mjs --bundle --format=esm --loader:.wgsl=text --outfile=page.js
import attention from './attention.wgsl';
import { setShaderSources } from './index.mjs';

setShaderSources({ attention });
export * from './index.mjs';
