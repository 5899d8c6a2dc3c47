// The service's configuration and command line: config.json < ATTNLAB_* < options, bad values named,
// the tool key generated into the data folder (mode 0600, never in the repository), `tools/server`'s
// usage errors (exit 2, no stack trace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, toolKey } from '../../server/config.mjs';
import { CLI, tempDir } from './helpers.mjs';

test('configuration: defaults, then config.json, then the environment, then the options', () => {
  const data = tempDir('config');
  try {
    writeFileSync(
      join(data, 'config.json'),
      JSON.stringify({ port: 9001, rate_per_minute: 5, public_url: 'https://attnlab.example.org/' }),
    );
    const c = loadConfig({ data }, { ATTNLAB_RATE_PER_MINUTE: '7' });
    assert.equal(c.port, 9001);
    assert.equal(c.rate_per_minute, 7);
    assert.equal(c.public_url, 'https://attnlab.example.org');
    assert.equal(c.database, null);
    assert.equal(loadConfig({ data, port: '9002' }, {}).port, 9002);
    writeFileSync(join(data, 'config.json'), JSON.stringify({ prot: 1 }));
    assert.throws(
      () => loadConfig({ data }, {}),
      (e) => e instanceof ConfigError && /unknown key "prot"/.test(e.message),
    );
    writeFileSync(join(data, 'config.json'), '{');
    assert.throws(() => loadConfig({ data }, {}), /not valid JSON/);
    rmSync(join(data, 'config.json'));
    assert.throws(() => loadConfig({ data, workers: 'many' }, {}), /workers: needs a whole number/);
    assert.throws(() => loadConfig({ data, database: 'mysql://x' }, {}), /needs a postgres:\/\/… URL/);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('the tool key: generated once into the data folder, mode 0600, its public half without private parts', async () => {
  const data = tempDir('key');
  try {
    const a = await toolKey(data);
    const b = await toolKey(data);
    assert.equal(a.kid, b.kid);
    const file = join(data, 'keys', 'tool-key.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).d, 'the file holds the private key');
    assert.equal(a.publicJwk.d, undefined);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('tools/server: --help, and usage errors named with exit 2', () => {
  const run = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /tools\/server platform add --issuer URL/);
  const bad = run('--prot', '1');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown option --prot/);
  assert.doesNotMatch(bad.stderr, /at .*\.mjs:\d+/);
  const data = tempDir('cli');
  try {
    const missing = run('platform', 'add', '--data', data, '--issuer', 'https://lms.example.org');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--client-id is required/);
    const notUrl = run(
      'platform',
      'add',
      '--data',
      data,
      '--issuer',
      'x',
      '--client-id',
      'c',
      '--auth-login-url',
      'x',
      '--auth-token-url',
      'x',
      '--jwks-url',
      'x',
      '--deployment',
      'd',
    );
    assert.equal(notUrl.status, 2);
    assert.match(notUrl.stderr, /--issuer is not a URL/);
    assert.equal(run('frobnicate').status, 2);
    const noDb = run('worker', '--data', data);
    assert.equal(noDb.status, 2);
    assert.match(noDb.stderr, /a worker needs --database postgres:/);
    const noKey = run('worker', '--data', data, '--database', 'postgres://127.0.0.1:1/none');
    assert.equal(noKey.status, 2);
    assert.match(noKey.stderr, /no tool key in .*keys: copy the server's keys\/ folder there/);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
