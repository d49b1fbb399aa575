import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { trustStoreCommand, TrustStoreCommandError } from '../../../src/cli/admin-trust-store.js';
import { readCertificate } from '../../../src/engines/document/chip/chip-certificate.js';
import { readMasterList } from '../../../src/engines/document/chip/master-list.js';
import { readTrustStoreFolder } from '../../../src/engines/document/chip/trust-store-folder.js';
import { testMasterList, testPki } from '../../helpers/chip-pki.js';

const scratch = mkdtempSync(join(tmpdir(), 'veriport-trust-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('veriport admin trust-store', () => {
  const utopia = testPki({ cscaKind: 'brainpoolP256r1' });
  const other = testPki({ cscaName: 'CSCA Other' });
  const masterList = testMasterList([utopia, other]);

  it('reads an ICAO master list and checks its signature', () => {
    const list = readMasterList(masterList);
    assert.equal(list.certificates.length, 2);
    assert.match(list.signer, /Master List Signer/);
    const tampered = Buffer.from(masterList);
    const at = tampered.indexOf(Buffer.from('CSCA Other'));
    tampered[at] = 'X'.charCodeAt(0);
    assert.throws(() => readMasterList(tampered), /signature does not verify/);
  });

  it('imports a master list and a PEM certificate into the folder, once each, and lists them', () => {
    const folder = join(scratch, 'store');
    const mlFile = join(scratch, 'list.ml');
    writeFileSync(mlFile, masterList);
    const third = testPki({ country: 'FR', cscaName: 'CSCA France' });
    const pemFile = join(scratch, 'fr.pem');
    writeFileSync(
      pemFile,
      `-----BEGIN CERTIFICATE-----\n${third.csca.toString('base64')}\n-----END CERTIFICATE-----\n`,
    );
    const out = trustStoreCommand(folder, ['import', mlFile, pemFile]);
    assert.match(out, /# 3 added, 0 already present/);
    assert.deepEqual(
      readdirSync(folder)
        .map((f) => f.slice(0, 3))
        .sort(),
      ['FR-', 'UT-', 'UT-'],
    );
    assert.match(trustStoreCommand(folder, ['import', mlFile]), /# 0 added, 2 already present/);
    const listing = trustStoreCommand(folder, ['list']);
    assert.equal(listing.trim().split('\n').length, 3);
    assert.match(listing, /C=FR, CN=CSCA France/);
    const { store } = readTrustStoreFolder(folder);
    assert.equal(store.issuerCandidates(readCertificate(utopia.ds, 'ds')).length, 1);
  });

  it('refuses what is not a certificate or master list, and writes nothing', () => {
    const folder = join(scratch, 'refused');
    const junk = join(scratch, 'junk.der');
    writeFileSync(junk, 'not a certificate');
    assert.throws(() => trustStoreCommand(folder, ['import', junk]), TrustStoreCommandError);
    assert.throws(() => trustStoreCommand(folder, ['import', join(scratch, 'missing.ml')]), /no such file/);
    assert.throws(() => trustStoreCommand(undefined, ['list']), /VERIPORT_TRUST_STORE_DIR/);
    assert.throws(() => trustStoreCommand(folder, ['remove']), /unknown trust-store command/);
    assert.deepEqual(readTrustStoreFolder(folder).store.certificates, []);
  });
});
