// tools/package-scorm: the zip and its manifest checked by Python's zipfile and ElementTree (not by
// the code that wrote them) against SCORM's packaging rules, and the cmi5 package's cmi5.xml against
// cmi5's (sections 13-14); the cmi5 launch parameters read by the page; what the package holds (one exercise, one
// track, no service worker, no threaded build); bad arguments refused. web/src/scorm.js: SCORM's API
// search over windows, and the suspend_data encoding read back with zlib.
// Run: node --test tests/js/scorm.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import {
  findApi,
  encodeCode,
  encodeWithin,
  decodeCode,
  lineDiff,
  applyDiff,
  CODE_PREFIX,
  DIFF_PREFIX,
  VERSIONS,
  checkResult,
} from '../../web/src/scorm.js';
import { readPack } from '../../grader/index.mjs';
import { starterIn } from '../../grader/core/pack.mjs';
import { cmi5Launch } from '../../web/src/mode.js';
import { listExercises } from '../../grader/hosts/node/exercise.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const packageScorm = (...args) => spawnSync(join(ROOT, 'tools/package-scorm'), args, { cwd: ROOT, encoding: 'utf8' });
let tmp;
before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'attnlab-scorm-js-'));
});
after(() => rm(tmp, { recursive: true, force: true }));

// SCORM content packaging, checked with Python's standard library: the manifest at the root, one
// organization with one item pointing at the one resource, a SCO, its launch file in the zip, and the
// resource's <file> list exactly the zip's files (the manifest aside).
const CHECK = String.raw`
import json, sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1]); version = sys.argv[2]
names = z.namelist(); out = {"bad_crc": z.testzip(), "root_manifest": "imsmanifest.xml" in names}
ns = {"1.2": {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2", "type": "scormtype"},
      "2004": {"cp": "http://www.imsglobal.org/xsd/imscp_v1p1", "adlcp": "http://www.adlnet.org/xsd/adlcp_v1p3", "type": "scormType"}}[version]
m = ET.fromstring(z.read("imsmanifest.xml")); cp = "{%s}" % ns["cp"]
out["root_tag"] = m.tag == cp + "manifest"
out["schemaversion"] = m.find(f"{cp}metadata/{cp}schemaversion").text
orgs = m.find(f"{cp}organizations"); org = orgs.findall(f"{cp}organization")
out["default_org"] = len(org) == 1 and orgs.get("default") == org[0].get("identifier")
items = org[0].findall(f".//{cp}item"); res = m.findall(f"{cp}resources/{cp}resource")
out["one_item_one_resource"] = len(items) == 1 and len(res) == 1 and items[0].get("identifierref") == res[0].get("identifier")
out["sco"] = res[0].get("{%s}%s" % (ns["adlcp"], ns["type"]))
out["href_in_zip"] = res[0].get("href") in names
listed = [f.get("href") for f in res[0].findall(f"{cp}file")]
out["listed_not_in_zip"] = sorted(set(listed) - set(names)); out["in_zip_not_listed"] = sorted(set(names) - set(listed) - {"imsmanifest.xml"})
out["masteryscore"] = [e.text for e in m.iter("{%s}masteryscore" % ns["adlcp"])]
out["names"] = names
print(json.dumps(out))
`;

for (const [track, scorm, schemaversion] of [
  ['python', '1.2', '1.2'],
  ['js', '2004', '2004 4th Edition'],
]) {
  test(`tools/package-scorm --exercise sdpa --track ${track} --scorm ${scorm}: a valid package of one SCO with every file listed`, async () => {
    const r = packageScorm('--exercise', 'sdpa', '--track', track, '--scorm', scorm, '--out', tmp);
    assert.equal(r.status, 0, r.stderr);
    const zip = join(tmp, `attnlab-sdpa-${track}-scorm${scorm}.zip`);
    assert.match(r.stdout, new RegExp(`^${zip}: \\d+ files, \\d+ KiB`));
    const py = spawnSync('python3', ['-c', CHECK, zip, scorm], { encoding: 'utf8' });
    assert.equal(py.status, 0, py.stderr);
    const { names, ...got } = JSON.parse(py.stdout);
    assert.deepEqual(got, {
      bad_crc: null,
      root_manifest: true,
      root_tag: true,
      schemaversion,
      default_org: true,
      one_item_one_resource: true,
      sco: 'sco',
      href_in_zip: true,
      listed_not_in_zip: [],
      in_zip_not_listed: [],
      masteryscore: [], // an LMS would turn any score under it into "failed" (tools/scorm.mjs)
    });
    // One exercise on one track, offline: its chunk and its worker only, no service worker, no threaded build.
    const other = track === 'js' ? 'python' : 'js';
    assert.ok(
      names.some((n) => /^chunks\/sdpa-\w+\.js$/.test(n)),
      'the exercise chunk',
    );
    assert.deepEqual(
      names.filter(
        (n) => /^chunks\/(mha|rope|kv_cache)-/.test(n) || n === 'sw.js' || /-mt\./.test(n) || n === 'embed.js',
      ),
      [],
    );
    assert.ok(names.includes(`sandbox-worker-${track}.js`));
    assert.ok(!names.includes(`sandbox-worker-${other}.js`), `no ${other} worker`);
    assert.equal(names.includes('micropython.wasm'), track === 'python');
    const html = spawnSync(
      'python3',
      ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("index.html").decode())', zip],
      { encoding: 'utf8' },
    ).stdout;
    assert.match(
      html,
      new RegExp(
        `<html lang="ru" data-embed data-scorm="${scorm}" data-scorm-score="best" data-scorm-failed-on-exit="no" data-package-exercise="sdpa" data-package-track="${track}" data-package-lang="ru">`,
      ),
    );
    // The same inputs give the same bytes.
    const again = join(tmp, 'again');
    assert.equal(packageScorm('--exercise', 'sdpa', '--track', track, '--scorm', scorm, '--out', again).status, 0);
    assert.ok(
      (await readFile(zip)).equals(await readFile(join(again, `attnlab-sdpa-${track}-scorm${scorm}.zip`))),
      'not reproducible',
    );
  });
}

test('tools/package-scorm refuses bad arguments, naming them (exit 2)', () => {
  for (const [args, message] of [
    [['--out', 'x'], new RegExp(`--exercise is required \\(one of ${listExercises().join(', ')}\\)`)],
    [['--exercise', 'nope', '--out', 'x'], /--exercise nope: no such exercise/],
    [['--exercise', 'sdpa', '--scorm', '2.0', '--out', 'x'], /--scorm 2\.0: must be 1\.2 or 2004/],
    [['--exercise', 'sdpa', '--track', 'rust', '--out', 'x'], /--track rust: sdpa offers js, python/],
    [['--exercise', 'sdpa', '--lang', 'de', '--out', 'x'], /--lang de: must be ru or en/],
    [['--exercise', 'sdpa'], /--out DIR is required/],
    [['--exercise', 'sdpa', '--out', 'x', '--bogus'], /Unknown option '--bogus'/],
    [
      ['--exercise', 'sdpa', '--cmi5', '--scorm', '1.2', '--out', 'x'],
      /--cmi5 and --scorm: a package is one or the other/,
    ],
    [['--exercise', 'sdpa', '--score', 'worst', '--out', 'x'], /--score worst: must be best or latest/],
    [['--exercise', 'sdpa', '--cmi5', '--failed-on-exit', '--out', 'x'], /--failed-on-exit are SCORM options/],
  ]) {
    const r = packageScorm(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('checkResult: incomplete until every test passes, passed once and never taken back; the best score kept unless latest', () => {
  for (const version of ['1.2', '2004']) {
    const v = VERSIONS[version];
    const raw = (pairs) => pairs.find(([k]) => k.endsWith('score.raw'))?.[1];
    const status = (pairs) => pairs.filter(([k]) => /status$/.test(k)).map(([, x]) => x);
    const passedStatus = version === '1.2' ? ['passed'] : ['passed', 'completed'];
    let attempt = { passed: false, best: null };
    // [passes of 7, the raw score sent (undefined: none), the statuses set, the score the LMS keeps if none was sent]
    for (const [passed, sent, statuses, kept] of [
      [0, '0', [], null], // the first Check: its score, no status (the attempt stays incomplete)
      [2, '28.57', [], null],
      [0, undefined, [], 28.57], // lower: nothing sent, the best kept
      [7, '100', passedStatus, null], // the first full pass
      [2, undefined, [], 100], // a pass is never taken back
      [7, undefined, [], 100], // nor sent twice
    ]) {
      const r = checkResult(v, attempt, passed, 7);
      assert.deepEqual([raw(r.pairs), status(r.pairs), r.kept], [sent, statuses, kept], `${version}: ${passed}/7`);
      assert.ok(
        r.pairs.every(([k, x]) => !/status$/.test(k) || !/failed|incomplete/.test(x)),
        'no failed or incomplete at a Check',
      );
      attempt = r.attempt;
    }
    assert.deepEqual(attempt, { passed: true, best: 100 });
    // Latest: every Check's score, the pass still kept.
    const latest = checkResult(v, { passed: true, best: 100 }, 0, 7, { score: 'latest', failedOnExit: false });
    assert.deepEqual([raw(latest.pairs), status(latest.pairs), latest.attempt], ['0', [], { passed: true, best: 0 }]);
    // A stored best from an earlier session counts.
    assert.equal(raw(checkResult(v, { passed: false, best: 42.86 }, 2, 7).pairs), undefined);
  }
});

test("findApi: SCORM's search up the parents, past windows of another origin, then the opener's", () => {
  const win = (props = {}, parent = null) => {
    const w = { ...props };
    w.parent = parent ?? w;
    return w;
  };
  const api = { LMSInitialize() {} };
  const top = win({ API: api });
  const middle = win({}, top);
  // A window of another origin: reading any property throws.
  const foreign = new Proxy(win({}, middle), {
    get: (t, k) =>
      k === 'parent'
        ? t.parent
        : (() => {
            throw new Error('SecurityError');
          })(),
  });
  const self = win({}, foreign);
  self.top = top;
  assert.equal(findApi('API', self), api);
  assert.equal(findApi('API_1484_11', self), null);
  // Only in the opener's frames.
  const lms = win({ API_1484_11: api });
  const popup = win({});
  popup.top = { opener: win({}, lms) };
  assert.equal(findApi('API_1484_11', popup), api);
  // A chain longer than 500 parents is not followed to its end.
  let w = win({ API: api });
  for (let i = 0; i < 600; i++) w = win({}, w);
  w.top = w;
  assert.equal(findApi('API', w), null);
});

test('suspend_data: the code deflated and in base64 after the prefix, read back by zlib; anything else is not code', async () => {
  const code = 'def attention(Q, K, V, mask=None):\n    # ёжик — UTF-8\n    return Q\n'.repeat(20);
  const text = await encodeCode(code);
  assert.ok(text.startsWith(CODE_PREFIX));
  assert.match(text.slice(CODE_PREFIX.length), /^[A-Za-z0-9+/]+=*$/);
  assert.equal(inflateRawSync(Buffer.from(text.slice(CODE_PREFIX.length), 'base64')).toString('utf8'), code);
  assert.ok(text.length < code.length / 5, `repetitive code compresses: ${text.length} of ${code.length}`);
  assert.equal(await decodeCode(text), code);
  for (const bad of [
    '',
    'viewed=1,2,3',
    `${CODE_PREFIX}!!!`,
    `${CODE_PREFIX}${Buffer.from('not deflate').toString('base64')}`,
    null,
    42,
  ])
    assert.equal(await decodeCode(bad), null, String(bad));
});

// cmi5 (github.com/AICC/CMI-5_Spec_Current, 13.1 and 14.1): cmi5.xml at the root, in the course structure
// namespace; a course and one AU, each with an IRI id, a title and a description in langstrings; the AU's
// moveOn from the specification's vocabulary, its url relative and inside the zip.
const CHECK_CMI5 = String.raw`
import json, sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1]); names = z.namelist(); ns = "{https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd}"
m = ET.fromstring(z.read("cmi5.xml")); course = m.find(ns + "course"); aus = m.findall(ns + "au")
texts = lambda e: [l.text for l in e.findall(f"{ns}title/{ns}langstring") + e.findall(f"{ns}description/{ns}langstring")]
print(json.dumps({"bad_crc": z.testzip(), "root": m.tag == ns + "courseStructure", "no_scorm_manifest": "imsmanifest.xml" not in names,
  "course_id": course.get("id"), "course_texts": all(texts(course)) and len(texts(course)) == 2, "aus": len(aus),
  "au_id": aus[0].get("id"), "au_texts": all(texts(aus[0])) and len(texts(aus[0])) == 2, "moveOn": aus[0].get("moveOn"),
  "url_in_zip": aus[0].find(ns + "url").text in names, "url": aus[0].find(ns + "url").text}))
`;

test('tools/package-scorm --cmi5: cmi5.xml at the root with one AU launched inside the zip', async () => {
  const r = packageScorm('--exercise', 'sdpa', '--track', 'python', '--cmi5', '--out', tmp);
  assert.equal(r.status, 0, r.stderr);
  const zip = join(tmp, 'attnlab-sdpa-python-cmi5.zip');
  const py = spawnSync('python3', ['-c', CHECK_CMI5, zip], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const got = JSON.parse(py.stdout);
  assert.deepEqual(got, {
    bad_crc: null,
    root: true,
    no_scorm_manifest: true,
    course_id: 'urn:attnlab:course:sdpa:python',
    course_texts: true,
    aus: 1,
    au_id: 'urn:attnlab:au:sdpa:python',
    au_texts: true,
    moveOn: 'Passed',
    url_in_zip: true,
    url: 'index.html',
  });
  assert.ok(['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'].includes(got.moveOn));
  const html = spawnSync(
    'python3',
    ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("index.html").decode())', zip],
    { encoding: 'utf8' },
  ).stdout;
  assert.match(
    html,
    /<html lang="ru" data-embed data-package-exercise="sdpa" data-package-track="python" data-package-lang="ru">/,
    'no data-scorm: the page looks for cmi5 parameters',
  );
});

test('cmi5Launch: all five parameters or none; a bad one is named', () => {
  const good = {
    endpoint: 'https://lms.example.org/lrs',
    fetch: 'https://lms.example.org/fetch/1',
    actor: '{"objectType":"Agent","account":{"homePage":"https://lms.example.org","name":"s1"}}',
    registration: '6e4a4c4f-3b2c-4b0e-9d43-2a5a3c1e0f01',
    activityId: 'urn:attnlab:au:sdpa:js',
  };
  const q = (o) => `?${new URLSearchParams(o)}`;
  assert.deepEqual(cmi5Launch(q(good)), {
    ...good,
    endpoint: 'https://lms.example.org/lrs/',
    actor: JSON.parse(good.actor),
  });
  assert.equal(cmi5Launch('?exercise=sdpa'), null);
  assert.equal(cmi5Launch(q({ ...good, activityId: undefined }).replace(/&activityId=undefined/, '')), null);
  for (const [k, v, named] of [
    ['endpoint', 'javascript:alert(1)', /endpoint is not an http\(s\) URL/],
    ['fetch', 'not a url', /fetch is not an http\(s\) URL/],
    ['actor', '[1]', /actor is not a JSON object/],
    ['actor', '{', /actor is not a JSON object/],
    ['registration', '42', /registration is not a UUID/],
    ['activityId', 'no scheme', /activityId is not an IRI/],
  ]) {
    assert.throws(() => cmi5Launch(q({ ...good, [k]: v })), named, `${k}=${v}`);
  }
});

test('lineDiff/applyDiff: any edit of the starter comes back exactly; a diff for another starter is refused', async () => {
  const starter = 'a\nb\n# комментарий\nc\n\nd\n';
  for (const code of [
    starter,
    '',
    'x',
    'a\nb\nc\nd',
    'new\na\nb\n# комментарий\nCHANGED\n\nd\nmore\n',
    starter.repeat(3),
    'd\nc\nb\na',
  ]) {
    const ops = lineDiff(starter, code);
    assert.equal(applyDiff(starter, ops), code, JSON.stringify(code));
    assert.equal(applyDiff(`${starter}x\n`, ops), null, 'the ops of another base do not apply');
  }
  assert.deepEqual(lineDiff('a\nb\nc', 'a\nX\nc'), [1, 'X', -1, 1]);
  for (const bad of [null, [1.5], [99], [-99], ['x', {}]])
    assert.equal(applyDiff('a\nb', bad), null, JSON.stringify(bad));
  // encodeWithin: whole while it fits, else the diff; decodeCode needs the same starter.
  const long = `${starter}${'# ' + 'ж'.repeat(3000)}\n`;
  assert.ok((await encodeWithin('short', 4096, long)).startsWith(CODE_PREFIX));
  const stored = await encodeWithin(`${long}print(1)\n`, 100, long);
  assert.ok(stored.startsWith(DIFF_PREFIX) && stored.length <= 100, stored);
  assert.equal(await decodeCode(stored, long), `${long}print(1)\n`);
  assert.equal(await decodeCode(stored, `${long} `), null, 'another starter');
  assert.equal(await decodeCode(stored), null, 'no starter');
});

test("suspend_data: every pack's starter and solution, on each track and in each language, within SCORM 1.2's 4096 and 2004's 64000 characters", async () => {
  const rows = [];
  for (const slug of listExercises()) {
    const pack = await readPack(slug);
    for (const track of pack.tracks)
      for (const lang of ['ru', 'en']) {
        const starter = starterIn(pack.files, track, lang);
        const { solution } = pack.files[track];
        // A student who keeps every comment of the starter and writes the solution below it: the longest
        // ordinary code of the pack.
        const kept = `${starter}\n${solution}`;
        const sizes = {};
        for (const [name, code] of Object.entries({ starter, solution, 'starter+solution': kept })) {
          const whole = (await encodeCode(code)).length;
          const stored = await encodeWithin(code, 4096, starter);
          assert.equal(await decodeCode(stored, starter), code, `${slug} ${track} ${lang} ${name}: read back`);
          assert.ok(stored.length <= 4096, `${slug} ${track} ${lang} ${name}: ${stored.length} > 4096`);
          assert.ok((await encodeWithin(code, 64000, starter)).length <= 64000);
          sizes[name] = `${whole}${stored.length < whole ? ` → ${stored.length} (diff)` : ''}`;
        }
        rows.push([slug, track, lang, sizes.starter, sizes.solution, sizes['starter+solution']]);
      }
  }
  const head = ['pack', 'track', 'lang', 'starter', 'solution', 'starter+solution'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((x, i) => String(x).padEnd(width[i])).join('  ');
  console.log(
    [
      'suspend_data characters (whole encoding → the diff from the starter, where the whole is over 4096; limits 4096 / 64000):',
      line(head),
      ...rows.map(line),
    ].join('\n'),
  );
});
