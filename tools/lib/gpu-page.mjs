// Opens a bundled script in headless Chromium with WebGPU on (SwiftShader on these machines).
// Shared by tests/webgpu/chromium.test.mjs and tools/benchmark/webgpu.mjs.
import * as esbuild from 'esbuild';
import { mkdtemp, rm, writeFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/server.mjs';
import { WEBGPU, openBrowser } from './chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles `entry` (a file) or `source` (module text resolved from the repo root) with .wgsl as text,
 * serves it on 127.0.0.1 (a secure context: navigator.gpu exists) with `links` ({ name: dir }) beside
 * it, and waits for the script to set globalThis.ready. → { page, errors, evaluate(fn, arg), close() }
 * evaluate is page.evaluate whose errors carry the first line of the message and the page's errors.
 */
export async function openGpuPage({ entry, source, links = {}, webgpu = true }) {
  const dir = await mkdtemp(join(tmpdir(), 'attnlab-webgpu-'));
  await esbuild.build({
    ...(entry ? { entryPoints: [entry] } : { stdin: { contents: source, resolveDir: root, sourcefile: 'page.mjs' } }),
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'page.js'),
    loader: { '.wgsl': 'text' },
    logLevel: 'error',
    external: Object.keys(links).map((name) => `/${name}/*`),
  });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>attnlab webgpu</title><script type="module" src="page.js"></script>',
  );
  await writeFile(join(dir, 'favicon.ico'), '');
  for (const [name, target] of Object.entries(links)) await symlink(target, join(dir, name));
  const server = await startServer({ dir });
  const browser = await openBrowser({ args: webgpu ? WEBGPU : [] });
  const close = async () => {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await page.waitForFunction(() => globalThis.ready === true, null, { timeout: 15000 });
    const evaluate = (fn, arg) =>
      page.evaluate(fn, arg).catch((e) => {
        throw new Error(`${e.message.split('\n')[0]}${errors.length ? `; page: ${errors.join('; ')}` : ''}`);
      });
    return { page, errors, evaluate, close };
  } catch (e) {
    await close();
    throw e;
  }
}
