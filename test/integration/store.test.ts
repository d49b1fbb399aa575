import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { decryptEnvelope } from '../../src/crypto/envelope.js';
import { loadServerKeyPair } from '../../src/crypto/server-key-pair.js';
import { openStore } from '../../src/store/database.js';
import { DirectoryLockedError } from '../../src/store/directory-lock.js';
import { serverKeysRepository } from '../../src/store/server-keys.js';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import { storeBackends, storeDump, withStore } from '../helpers/stores.js';

for (const backend of storeBackends()) {
  describe(`store on ${backend.name}`, () => {
    it('adds concurrent increments of one counter without losing any', async () => {
      await withStore(backend, async (store) => {
        const counters = usageCountersRepository(store.db);
        const row = { serverName: 'face-matching', year: 2026, month: 11, endpoint: '/compare', counter: 1 };
        await Promise.all(
          Array.from({ length: 40 }, () =>
            counters.addCounts([row, { ...row, endpoint: '/verify/{cacheName}', counter: 2 }]),
          ),
        );
        const rows = await counters.list({ serverName: 'face-matching' });
        assert.deepEqual(
          rows.map((r) => `${r.endpoint} ${r.counter}`),
          ['/compare 40', '/verify/{cacheName} 80'],
        );
      });
    });

    it('filters and resets by server, year and month', async () => {
      await withStore(backend, async (store) => {
        const counters = usageCountersRepository(store.db);
        const base = { serverName: 'a', endpoint: '/x', counter: 1 };
        await counters.addCounts([
          { ...base, year: 2026, month: 1 },
          { ...base, year: 2026, month: 2 },
          { ...base, year: 2025, month: 2 },
          { ...base, serverName: 'b', year: 2026, month: 2 },
        ]);
        assert.equal((await counters.list({ month: 2 })).length, 3);
        assert.equal((await counters.list({ serverName: 'a', year: 2026 })).length, 2);
        assert.equal(await counters.reset({ serverName: 'a', month: 2 }), 2);
        assert.deepEqual(
          (await counters.list({})).map((r) => `${r.serverName} ${r.year}-${r.month}`),
          ['a 2026-1', 'b 2026-2'],
        );
      });
    });

    it('generates an envelope key once per purpose; replicas starting together share the stored one', async () => {
      await withStore(backend, async (store) => {
        const repository = serverKeysRepository(store.db);
        const [first, second] = await Promise.all([
          loadServerKeyPair('face-liveness', { kind: 'store', repository }),
          loadServerKeyPair('face-liveness', { kind: 'store', repository }),
        ]);
        assert.equal(first.keyId, second.keyId);
        assert.equal(first.publicKey.asymmetricKeyDetails?.modulusLength, 3072);
        const again = await loadServerKeyPair('face-liveness', { kind: 'store', repository });
        assert.equal(again.publicKeyPem, first.publicKeyPem);
        assert.equal((await repository.find('face-liveness'))?.keyId, first.keyId);
        const envelope = encryptEnvelope('hello', first.publicKeyPem, 'face-liveness');
        assert.equal(decryptEnvelope(envelope, again).toString(), 'hello');
      });
    });

    it('keeps a generated private key encrypted when a passphrase is configured', async () => {
      await withStore(backend, async (store) => {
        const repository = serverKeysRepository(store.db);
        await loadServerKeyPair('onboarding', { kind: 'store', repository, passphrase: 'correct horse' });
        assert.match((await repository.find('onboarding'))?.privateKeyPem ?? '', /BEGIN ENCRYPTED PRIVATE KEY/);
        await assert.rejects(loadServerKeyPair('onboarding', { kind: 'store', repository, passphrase: 'wrong' }));
        await loadServerKeyPair('onboarding', { kind: 'store', repository, passphrase: 'correct horse' });
      });
    });
  });
}

describe('store on a PGlite data directory', () => {
  it('keeps data across restarts and migrates idempotently', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'veriport-store-'));
    try {
      const first = await openStore({ kind: 'pglite', dataDir: dir });
      await usageCountersRepository(first.db).addCounts([
        { serverName: 's', year: 2026, month: 1, endpoint: '/x', counter: 9 },
      ]);
      await first.close();
      const second = await openStore({ kind: 'pglite', dataDir: dir });
      assert.equal((await usageCountersRepository(second.db).list({}))[0]?.counter, 9);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('in-memory stores opened from a migrated dump', () => {
  it('start migrated, empty of rows, and apart from each other', async () => {
    const dump = await storeDump();
    const [a, b] = await Promise.all([
      openStore({ kind: 'pglite', dataDir: 'memory://', from: dump }),
      openStore({ kind: 'pglite', dataDir: 'memory://', from: dump }),
    ]);
    try {
      const applied = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(a.db);
      assert.ok((applied.rows[0]?.n ?? 0) > 0, 'the migrations are recorded in the dump');
      await usageCountersRepository(a.db).addCounts([
        { serverName: 's', year: 2026, month: 1, endpoint: '/x', counter: 3 },
      ]);
      assert.equal((await usageCountersRepository(a.db).list({}))[0]?.counter, 3);
      assert.deepEqual(await usageCountersRepository(b.db).list({}), []);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('PGlite data directory lock', () => {
  it('refuses a second opener while the first holds the directory, and frees it on close', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'veriport-lock-'));
    try {
      const holder = await openStore({ kind: 'pglite', dataDir: dir });
      // Another process's lock: this process's own pid would be taken as its own stale lock.
      writeFileSync(path.join(dir, 'veriport.lock'), String(process.ppid));
      await assert.rejects(openStore({ kind: 'pglite', dataDir: dir }), DirectoryLockedError);
      writeFileSync(path.join(dir, 'veriport.lock'), String(process.pid));
      await holder.close();
      assert.ok(!existsSync(path.join(dir, 'veriport.lock')));
      writeFileSync(path.join(dir, 'veriport.lock'), '999999999'); // left by a process that is gone
      const next = await openStore({ kind: 'pglite', dataDir: dir });
      await next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('envelope key from PEM files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'veriport-keys-'));
  const write = (name: string, pem: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, pem);
    return file;
  };
  const pair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });

  it('loads a matching pair', async () => {
    const { publicKey, privateKey } = pair();
    const keys = await loadServerKeyPair('onboarding', {
      kind: 'files',
      privateKeyFile: write('a.key', privateKey),
      publicKeyFile: write('a.pub', publicKey),
    });
    assert.equal(decryptEnvelope(encryptEnvelope('x', keys.publicKeyPem, 'onboarding'), keys).toString(), 'x');
  });

  it('refuses a public key of another pair, a short key, or a non-RSA key', async () => {
    const a = pair();
    const b = pair();
    await assert.rejects(
      loadServerKeyPair('onboarding', {
        kind: 'files',
        privateKeyFile: write('b.key', a.privateKey),
        publicKeyFile: write('b.pub', b.publicKey),
      }),
      /does not belong/,
    );
    const short = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await assert.rejects(
      loadServerKeyPair('onboarding', {
        kind: 'files',
        privateKeyFile: write('c.key', short.privateKey),
        publicKeyFile: write('c.pub', short.publicKey),
      }),
      /at least 2048 bits/,
    );
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await assert.rejects(
      loadServerKeyPair('onboarding', {
        kind: 'files',
        privateKeyFile: write('d.key', ec.privateKey),
        publicKeyFile: write('d.pub', ec.publicKey),
      }),
      /must be RSA/,
    );
  });
});
