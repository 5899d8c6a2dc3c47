#!/usr/bin/env node
// Builds the exercise page into web/dist: one ESM bundle for the page (plus a chunk per single-threaded
// WASM flavour's glue and one per lazily loaded editor language, e.g. Python's), one classic-script bundle per track's sandbox
// worker, the .wasm files (the cores', MicroPython's), the threaded builds' glue and pthread worker
// scripts (wasm/*-mt.{mjs,worker.js}), and a service
// worker whose precache list and version (a hash of every asset) are written in at build time, so
// any change re-installs it.
// Skips the work when web/dist is newer than every input esbuild saw last time (dist/.inputs.json).
// The new dist is built beside the old one and swapped in, so two processes building at once (the
// browser test files run in parallel) never serve a half-written folder.
// Usage: node web/build.mjs [--force] [--dev]   (--dev: no minification, inline source maps)
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PAGE_CSP_SCRIPT, STATIC_META_CSP } from './csp.mjs';
import {
  EXERCISES,
  LANGS,
  listExercises,
  readPack,
  packProblems,
  TRACKS,
  guestPlugins,
  guestWasm,
  workerFile,
  workerShell,
  workerGuest,
  WORKER_GUEST,
  trackFile,
  trackFolders,
} from '../grader/index.mjs';

const web = dirname(fileURLToPath(import.meta.url));
const root = dirname(web);
export const distDir = join(web, 'dist');
const wasmDist = join(root, 'wasm', 'dist');
export const wasmFiles = [
  'attnlab-relaxed.mjs',
  'attnlab-relaxed.wasm',
  'attnlab-simd.mjs',
  'attnlab-simd.wasm',
  'attnlab.mjs',
  'attnlab.wasm',
  ...['attnlab-relaxed-mt', 'attnlab-simd-mt'].flatMap((f) => [`${f}.mjs`, `${f}.wasm`, `${f}.worker.js`]),
];
// The threaded builds' files: their glue is not bundled (wasm/index.mjs imports it from its URL, as
// their pthread workers do), and the service worker precaches them only where they can run.
const threaded = (f) => /-mt\./.test(f);
const STAMP = '.inputs.json'; // inputs of the last build; not served, not precached

// `import text from './file.md?raw'` → the file's contents as a string (task texts, starter code).
export const rawPlugin = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: resolve(a.resolveDir, a.path.slice(0, -4)), namespace: 'raw' }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (a) => ({
      contents: await readFile(a.path, 'utf8'),
      loader: 'text',
      watchFiles: [a.path],
    }));
  },
};

// `import { packs } from 'attnlab:packs'` → every exercise pack (exercises/<slug>/, found by listing the
// folder and checked by packProblems: a broken pack fails the build with its problems): its spec (the
// picker needs titles and order) and `load()`, which imports `attnlab:pack/<slug>`: the rest of that
// pack (suite, messages, hints, texts, starters) as its own chunk, so that the page fetches only the
// exercise it opens, and the first visit does not grow with the course (the service worker precaches
// every chunk, so each exercise works offline after one visit). Which files those are, and where, is
// readPack's (`pack.paths`, by the pack layout of grader/core/pack-layout.mjs): no file name is spelled here.
// only: the slugs to build (a package's one pack; null: all); root: the packs' folder (tests: a copy).
export const packsPlugin = ({ only = null, root: packs = EXERCISES } = {}) => ({
  name: 'packs',
  setup(b) {
    b.onResolve({ filter: /^attnlab:packs?(\/[\w-]+)?$/ }, (a) => ({
      path: a.path.slice('attnlab:'.length),
      namespace: 'attnlab',
    }));
    b.onLoad({ filter: /^packs$/, namespace: 'attnlab' }, async () => {
      const lines = [],
        names = [],
        watch = [];
      for (const [i, slug] of listExercises(packs)
        .filter((x) => !only || only.includes(x))
        .entries()) {
        const pack = await readPack(slug, packs);
        const problems = packProblems(pack);
        if (problems.length) throw new Error(`exercise pack error:\n${problems.join('\n')}`);
        lines.push(`import spec${i} from ${JSON.stringify(pack.paths.spec)};`);
        names.push(
          `${JSON.stringify(slug)}: { slug: ${JSON.stringify(slug)}, spec: spec${i}, load: () => import(${JSON.stringify(`attnlab:pack/${slug}`)}) }`,
        );
        watch.push(pack.paths.spec);
      }
      return {
        contents: `${lines.join('\n')}\nexport const packs = { ${names.join(', ')} };\n`,
        loader: 'js',
        resolveDir: root,
        watchFiles: watch,
        watchDirs: [packs],
      };
    });
    b.onLoad({ filter: /^pack\//, namespace: 'attnlab' }, async (a) => {
      const slug = a.path.slice('pack/'.length);
      const pack = await readPack(slug, packs);
      const { paths } = pack;
      const f = (path) => JSON.stringify(path);
      const raw = (path) => JSON.stringify(`${path}?raw`);
      const lines = [
        `import * as suite from ${f(paths.suite)};`,
        `import hints from ${f(paths.hints)};`,
        ...LANGS.map((l) => `import text_${l} from ${raw(paths.texts[l])};`),
        paths.messages ? `import messages from ${f(paths.messages)};` : 'const messages = null;',
      ];
      // Per track it offers: its starter and the starter's English twin where there is one (solutions
      // stay out of the page), shaped as readPack's `files`; a track's own texts.
      const starters = pack.tracks.map((t) => {
        lines.push(`import starter_${t} from ${raw(paths.files[t].starter)};`);
        if (paths.files[t].starterEn) lines.push(`import starter_en_${t} from ${raw(paths.files[t].starterEn)};`);
        return `${t}: { starter: starter_${t}, starterEn: ${paths.files[t].starterEn ? `starter_en_${t}` : 'null'} }`;
      });
      const trackTexts = Object.keys(pack.trackTexts).map((v) => {
        lines.push(...LANGS.map((l) => `import ${l}_${v} from ${raw(paths.trackTexts[v][l])};`));
        return `${v}: { ${LANGS.map((l) => `${l}: ${l}_${v}`).join(', ')} }`;
      });
      // The reference solutions are not in the chunk: only where they are in dist (solutionFiles), fetched when shown.
      const solutions = Object.fromEntries(
        pack.tracks.map((t) => {
          const [file, en] = solutionFiles(pack, t).map((x) => x && x[1]);
          return [t, { file, en }];
        }),
      );
      lines.push(
        `export default { suite, messages, hints, tracks: ${JSON.stringify(pack.tracks)}, files: { ${starters.join(', ')} }, solutions: ${JSON.stringify(solutions)}, texts: { ${LANGS.map((l) => `${l}: text_${l}`).join(', ')} }, trackTexts: { ${trackTexts.join(', ')} } };`,
      );
      return {
        contents: lines.join('\n') + '\n',
        loader: 'js',
        resolveDir: root,
        watchFiles: [paths.spec],
      };
    });
  },
});

// A pack's reference solution for a track, and its English twin where the pack has one (solution.en.js; else
// null): [from (relative to the tree), to (relative to dist)] each. They are copied into dist/solutions/<slug>/,
// files of their own, never in a bundle or a chunk: the page fetches one only when it shows it
// (web/src/solution.js). The service worker does not precache them either: it keeps one once the page
// has fetched it (so a solution opened once opens offline too).
const SOLUTIONS = 'solutions';
const solutionFiles = (pack, track) =>
  ['solution', 'solutionEn'].map((k) => {
    const path = pack.paths.files[track][k];
    return path ? [relative(root, path), `${SOLUTIONS}/${pack.slug}/${relative(pack.dir, path)}`] : null;
  });

// The tracks (grader/tracks/<name>/, found by listing the folder as grader/tracks/catalog.mjs does in
// Node, which the page cannot): grader/tracks/index.mjs's `./list.mjs` becomes a module that imports
// each track's index.mjs, and `import { editors } from 'attnlab:editors'` (web/src/editor.js) one that
// imports each track's editor.mjs (its editor mode; a track without one gets the default's). Adding a
// track folder needs no edit here.
// The worker shell's import of its track's guest (grader/hosts/browser/workers.mjs WORKER_GUEST), resolved
// to that track's folder's worker.js in the build of its worker.
const workerGuestPlugin = (track) => ({
  name: 'worker-guest',
  setup(b) {
    const filter = new RegExp(`^${WORKER_GUEST}$`);
    b.onResolve({ filter }, () => ({ path: fileURLToPath(workerGuest(track)) }));
  },
});

const tracksPlugin = {
  name: 'tracks',
  setup(b) {
    const tracksDir = join(root, 'grader', 'tracks');
    b.onResolve({ filter: /^\.\/list\.mjs$/ }, (a) =>
      a.importer === join(tracksDir, 'index.mjs') ? { path: 'list', namespace: 'attnlab-tracks' } : undefined,
    );
    b.onResolve({ filter: /^attnlab:editors$/ }, () => ({ path: 'editors', namespace: 'attnlab-tracks' }));
    const generated = (file, exported, shape) => {
      const names = trackFolders.filter((n) => trackFile(n, file));
      const lines = names.map((n, i) => `import t${i} from ${JSON.stringify(join(tracksDir, n, file))};`);
      return {
        contents: `${lines.join('\n')}\nexport const ${exported} = ${shape(names.map((n, i) => [n, `t${i}`]))};\n`,
        loader: 'js',
        resolveDir: root,
        watchDirs: [tracksDir],
      };
    };
    b.onLoad({ filter: /^list$/, namespace: 'attnlab-tracks' }, () =>
      generated('index.mjs', 'tracks', (l) => `[${l.map(([, v]) => v).join(', ')}]`),
    );
    b.onLoad({ filter: /^editors$/, namespace: 'attnlab-tracks' }, () =>
      generated('editor.mjs', 'editors', (l) => `{ ${l.map(([n, v]) => `${JSON.stringify(n)}: ${v}`).join(', ')} }`),
    );
  },
};

/** Whether web/dist is newer than every input its last build saw (its stamp); false without one. */
export async function pageUpToDate() {
  try {
    const built = (await stat(join(distDir, STAMP))).mtimeMs;
    const inputs = JSON.parse(await readFile(join(distDir, STAMP), 'utf8'));
    for (const f of inputs) if ((await stat(join(root, f))).mtimeMs > built) return false;
    return true;
  } catch {
    return false; // no stamp, or an input is gone
  }
}

/**
 * `pkg`: a package's page instead (tools/package-scorm): { exercise, track, lang, scorm: '1.2'|'2004'|'cmi5', outDir,
 * and for SCORM score: 'best'|'latest', failedOnExit }:
 * only that pack and that track's worker, no threaded build (an LMS page is not cross-origin isolated)
 * and no service worker, the choice written into <html data-…> (web/src/mode.js), built into outDir.
 */
export async function build({ dev = false, quiet = false, force = false, plugins = [], pkg = null } = {}) {
  const missing = wasmFiles.filter((f) => !existsSync(join(wasmDist, f)));
  if (missing.length) throw new Error(`web build: wasm/dist lacks ${missing.join(', ')}; run tools/build-wasm first`);
  if (!force && !dev && !plugins.length && !pkg && (await pageUpToDate())) return { distDir, cached: true };
  const tracks = Object.values(TRACKS).filter((t) => !pkg || t.name === pkg.track);

  // Scratch folders live in build/ (git-ignored, same file system, so the swap is a rename).
  await mkdir(join(root, 'build'), { recursive: true });
  const out = pkg ? pkg.outDir : join(root, 'build', `web-dist.tmp-${process.pid}`);
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'wasm'), { recursive: true });
  const common = {
    bundle: true,
    minify: !dev,
    sourcemap: dev ? 'inline' : false,
    target: ['es2022'],
    metafile: true,
    plugins: [rawPlugin, packsPlugin({ only: pkg && [pkg.exercise] }), tracksPlugin, ...guestPlugins, ...plugins],
    logLevel: quiet ? 'error' : 'warning',
    legalComments: 'none',
    loader: { '.wgsl': 'text' }, // the WGSL kernel of wasm/webgpu/browser.mjs (the Python guest's .py files: guestPlugins, as bytecode)
    // Node-only branches of shared modules (wasm/index.mjs reads files in Node) must not be bundled.
    external: ['node:*'],
    platform: 'browser',
    absWorkingDir: root,
  };
  const results = await Promise.all([
    // splitting: each WASM flavour's glue becomes its own chunk, fetched only when that flavour loads.
    esbuild.build({
      ...common,
      entryPoints: { app: join(web, 'src', 'main.js') },
      format: 'esm',
      splitting: true,
      outdir: out,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    // index.html's first script: the rest of the page's CSP (web/page-policy.mjs).
    esbuild.build({
      ...common,
      entryPoints: { [PAGE_CSP_SCRIPT.replace(/\.js$/, '')]: join(web, 'src', 'page-csp.js') },
      format: 'iife',
      outdir: out,
    }),
    // One worker per track, each with its own CSP (web/csp.mjs): the browser host's shell
    // (grader/hosts/browser/worker.js) with the track's guest (grader/tracks/<name>/worker.js) as its
    // `attnlab:worker-guest`.
    ...tracks.map((t) =>
      esbuild.build({
        ...common,
        plugins: [workerGuestPlugin(t.name), ...common.plugins],
        entryPoints: { [workerFile(t.name).replace(/\.js$/, '')]: fileURLToPath(workerShell) },
        format: 'iife',
        outdir: out,
      }),
    ),
  ]);
  // index.html gets the page's CSP as <meta>s too, for static hosts and LMSs that send no headers: the
  // static part, then the script that adds the rest with a cmi5 launch's origins (web/page-policy.mjs).
  let html = (await readFile(join(web, 'index.html'), 'utf8')).replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="${STATIC_META_CSP}">\n  <script src="${PAGE_CSP_SCRIPT}"></script>`,
  );
  if (pkg)
    html = html.replace(
      /<html lang="\w+">/,
      `<html lang="${pkg.lang}" data-embed${pkg.scorm === 'cmi5' ? '' : ` data-scorm="${pkg.scorm}" data-scorm-score="${pkg.score ?? 'best'}" data-scorm-failed-on-exit="${pkg.failedOnExit ? 'yes' : 'no'}"`} data-package-exercise="${pkg.exercise}" data-package-track="${pkg.track}" data-package-lang="${pkg.lang}">`,
    );
  await writeFile(join(out, 'index.html'), html);
  // A track's interpreter (micropython.wasm) sits beside app.js: the page fetches it when that track is chosen.
  const trackWasm = tracks.filter((t) => t.guest.wasm).map((t) => [relative(root, guestWasm(t)), t.guest.wasm.file]);
  const copied = [
    ['web/src/icon.svg', 'icon.svg'],
    ...(pkg ? [] : [['web/embed.js', 'embed.js']]),
    ...wasmFiles
      .filter((x) => (x.endsWith('.wasm') || threaded(x)) && !(pkg && threaded(x)))
      .map((f) => [`wasm/dist/${f}`, `wasm/${f}`]),
    ...trackWasm,
    ...(
      await Promise.all(
        listExercises()
          .filter((x) => !pkg || x === pkg.exercise)
          .map((x) => readPack(x)),
      )
    ).flatMap((p) => p.tracks.flatMap((t) => solutionFiles(p, t).filter(Boolean))),
  ];
  for (const [from, to] of copied) {
    await mkdir(dirname(join(out, to)), { recursive: true });
    await copyFile(join(root, from), join(out, to));
  }

  if (pkg)
    return { distDir: out, assets: (await listFiles(out)).map((p) => relative(out, p).split('\\').join('/')).sort() };

  // Service worker: precache exactly what the build produced.
  const assets = (await listFiles(out)).map((p) => relative(out, p).split('\\').join('/')).sort();
  const hash = createHash('sha256');
  for (const a of assets) hash.update(a).update(await readFile(join(out, a)));
  const version = hash.digest('hex').slice(0, 12);
  const sw = await esbuild.build({
    ...common,
    entryPoints: { sw: join(web, 'src', 'sw.js') },
    format: 'iife',
    outdir: out,
    define: {
      __ASSETS__: JSON.stringify([
        './',
        ...assets.filter((a) => a !== 'index.html' && !threaded(a) && !a.startsWith(`${SOLUTIONS}/`)),
      ]),
      __ON_DEMAND__: JSON.stringify(`/${SOLUTIONS}/`),
      __THREADED_ASSETS__: JSON.stringify(assets.filter(threaded)),
      __VERSION__: JSON.stringify(version),
    },
  });

  // exercises/ and grader/tracks/ themselves: their mtime changes when a pack or a track is added or removed.
  const inputs = new Set([
    ...copied.map(([from]) => from),
    'web/index.html',
    'web/build.mjs',
    'web/csp.mjs',
    'exercises',
    'grader/tracks',
  ]);
  for (const r of [...results, sw]) {
    // A plugin's namespace prefix (`raw:`, `attnlab-glue:`) before an absolute path: the file itself.
    // A virtual module (`attnlab:pack/<slug>`, `attnlab-tracks:list`) is no file: what it is made of is
    // listed by its own watchFiles, and the folders above cover a pack or track added or removed.
    for (const f of Object.keys(r.metafile.inputs))
      if (!f.startsWith('<') && !/^[\w-]+:(?!\/)/.test(f))
        inputs.add(/^[\w-]+:\//.test(f) ? relative(root, f.slice(f.indexOf(':') + 1)) : f);
  }
  await writeFile(join(out, STAMP), JSON.stringify([...inputs].sort(), null, 1));
  const old = join(root, 'build', `web-dist.old-${process.pid}`);
  await rename(distDir, old).catch(() => {});
  await rename(out, distDir);
  await rm(old, { recursive: true, force: true });
  return { distDir, version, assets: [...assets, 'sw.js'] };
}

async function listFiles(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else out.push(p);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = performance.now();
  build({ dev: process.argv.includes('--dev'), force: process.argv.includes('--force') }).then(
    (r) =>
      console.log(
        r.cached
          ? 'web/dist is up to date'
          : `web/dist built (${r.assets.length} files, version ${r.version}) in ${Math.round(performance.now() - t0)} ms`,
      ),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
