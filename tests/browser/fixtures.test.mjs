// The page grades exactly like the CLI: every fixture submission (tests/fixtures/sdpa/*), checked in
// the browser (Web Worker sandbox, WASM core in the page), must give the same Exercism results.json
// as the committed expected_results.json that the Node grader produces (tests/js/fixtures.test.mjs).
// Run: node --test tests/browser/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { exercism } from '../../grader/reporters/index.mjs';
import { launch, open, check, setCode } from './launcher.mjs';
import { fixtureCases } from '../fixtures/cases.mjs';

const { cases } = fixtureCases('sdpa');

let b;
before(async () => {
  b = await launch();
  await open(b.page, `${b.url}?lang=en`); // expected_results.json are in English, default time limits
});
after(() => b?.close());

for (const { name, source, expectedFile } of cases) {
  test(`fixture ${name} grades in the browser as in Node`, async () => {
    await setCode(b.page, source());
    await check(b.page);
    const report = await b.page.evaluate(() => window.attnlab.state.report);
    assert.equal(exercism(report) + '\n', readFileSync(expectedFile, 'utf8'));
    assert.equal(await b.page.textContent('#summary'), `${report.passed}/${report.total}`);
  });
}
