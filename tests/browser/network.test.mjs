// The page's sandbox against the network and against a crash, in Debian's chromium:
// 1. network (tests/fixtures/sandbox/), with __PORT__ set to a real TCP listener on 127.0.0.1,
//    is checked and run in the page: it walks the worker global's prototype chain for fetch,
//    importScripts, XMLHttpRequest, WebSocket, EventSource, leftover timers, caches, dynamic import()
//    and friends. The listener must see no connection at all (HTTP, a WebSocket upgrade, anything),
//    no request for /leak may get an answer from the page's own origin either, and the grade is 7/7.
// 2. fatal-v8 (a V8 fatal error in the worker) is checked. Either the page survives and reports
//    it like Node (softmax fails, the other six pass), or the tab crashes: then a reopened page still
//    holds the code and shows the crash notice (CRASH_NOTE) saying that the last Check crashed it.
// Run: node --test tests/browser/network.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { launch, open, check, run, getCode, setCode } from '../../tools/lib/chromium.mjs';

const CRASH_NOTE = '#crash-note'; // the element the page shows after a Check that crashed the tab
const SETTLE_MS = 1500; // after Check and Run: the fixture's leftover timers fire after 300 ms
const CRASH_WAIT_MS = 60000;

const fixture = (name) => readFile(new URL(`../fixtures/sandbox/${name}/submission.js`, import.meta.url), 'utf8');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A TCP listener on a free 127.0.0.1 port that records every connection (with its first line, e.g.
 * `GET /leak?via=fetch… HTTP/1.1` or a WebSocket upgrade) and answers any request with HTTP 204.
 */
async function listener() {
  const connections = [];
  const server = createServer((socket) => {
    const c = { first: '' };
    connections.push(c);
    socket.on('error', () => {});
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('data', (d) => {
      c.first = d.toString('latin1').split('\r\n')[0];
      socket.end('HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test("a submission that walks the worker global's prototype chain reaches no listener on 127.0.0.1 (Check and Run)", async () => {
  const l = await listener();
  const b = await launch();
  try {
    // The listener works: a request from here is seen (then forgotten).
    await fetch(`http://127.0.0.1:${l.port}/control`);
    assert.equal(l.connections.length, 1, 'the listener did not see a request from the test itself');
    l.connections.length = 0;

    const sameOrigin = []; // answers to /leak from the page's own server (a 404 too: the request got there)
    const origin = new URL(b.url).origin;
    b.context.on('response', (r) => {
      const u = new URL(r.url());
      if (u.origin === origin && u.pathname.startsWith('/leak')) sameOrigin.push(`${r.status()} ${r.url()}`);
    });
    await open(b.page, `${b.url}?lang=en`);
    await setCode(b.page, (await fixture('network')).replaceAll('__PORT__', String(l.port)));
    const result = await check(b.page);
    await run(b.page);
    await sleep(SETTLE_MS);

    const output = await b.page.textContent('#output');
    const reachable = output.match(/reachable: .*/)?.[0] ?? '(no "reachable:" line in the output)';
    const problems = [];
    const byRoute = {};
    for (const c of l.connections) {
      const route = /[?&]via=([\w-]+)/.exec(c.first)?.[1] ?? (c.first || '(a connection that sent nothing)');
      byRoute[route] = (byRoute[route] ?? 0) + 1;
    }
    if (l.connections.length)
      problems.push(`${l.connections.length} connections reached the listener, by route: ${JSON.stringify(byRoute)}`);
    if (sameOrigin.length)
      problems.push(
        `${sameOrigin.length} requests for /leak were answered by the page's own origin, e.g. ${sameOrigin[0]}`,
      );
    if (result.passed !== 7 || result.total !== 7)
      problems.push(`graded ${result.passed}/${result.total}, expected 7/7 (a correct solution)`);
    assert.deepEqual(problems, [], `the worker could reach: ${reachable}`);
  } finally {
    await b.close();
    await l.close();
  }
});

test('a V8 fatal error in the worker: reported like Node, or the reopened tab keeps the code and says the last Check crashed it', async () => {
  const b = await launch();
  try {
    await open(b.page, `${b.url}?lang=en`);
    const source = await fixture('fatal-v8');
    await setCode(b.page, source);
    const crashed = new Promise((resolve) => b.page.once('crash', () => resolve('crashed')));
    const checked = b.page
      .evaluate(
        () => new Promise((resolve) => addEventListener('attnlab:checked', () => resolve('checked'), { once: true })),
      )
      .catch(() => 'crashed'); // the page's context is gone
    await b.page.click('#check').catch(() => {});
    const outcome = await Promise.race([crashed, checked, sleep(CRASH_WAIT_MS).then(() => 'neither')]);
    assert.notEqual(outcome, 'neither', `Check neither finished nor crashed the tab within ${CRASH_WAIT_MS / 1000} s`);

    if (outcome === 'checked') {
      // the page survived: the crashed worker is reported like a crashed process in Node
      const report = await b.page.evaluate(() => window.attnlab.state.report);
      const statuses = Object.fromEntries(report.tests.map((t) => [t.id, t.status]));
      assert.deepEqual(statuses, {
        causal_mask: 'pass',
        softmax: 'fail',
        lesson_example: 'pass',
        scaling: 'pass',
        causality: 'pass',
        loop_reference: 'pass',
        batching: 'pass',
      });
      return;
    }
    const page = await b.context.newPage();
    await open(page, `${b.url}?lang=en`);
    assert.equal(await getCode(page), source, 'the code was not kept across the crash');
    assert.ok(await page.isVisible(CRASH_NOTE), `no visible ${CRASH_NOTE} on the reopened page`);
    assert.notEqual((await page.textContent(CRASH_NOTE)).trim(), '', `${CRASH_NOTE} is empty`);
  } finally {
    await b.close();
  }
});

test("the exercise's chunk does not arrive (the network drops on a first visit): the page says so, in the page's language", async () => {
  const b = await launch();
  try {
    await b.page.route(/\/chunks\/sdpa-[A-Z0-9]+\.js$/, (route) => route.abort('internetdisconnected'));
    await b.page.goto(`${b.url}?exercise=sdpa&lang=en&nosw`);
    await b.page.waitForSelector('#notice:not([hidden])');
    assert.match(
      await b.page.textContent('#notice'),
      /^Could not load the exercise: a file did not arrive .*Your code is kept; reload the page\.$/,
    );
    assert.notEqual(
      await b.page.evaluate(() => document.documentElement.dataset.ready ?? ''),
      'core',
      'the page did not pretend to be ready',
    );
  } finally {
    await b.close().catch(() => {});
  }
});
