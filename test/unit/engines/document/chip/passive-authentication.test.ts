import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { readCertificate } from '../../../../../src/engines/document/chip/chip-certificate.js';
import { ChipDataError } from '../../../../../src/engines/document/chip/chip-data-error.js';
import { readDataGroup1Mrz } from '../../../../../src/engines/document/chip/data-group-1.js';
import { readDataGroup2Portrait } from '../../../../../src/engines/document/chip/data-group-2.js';
import { compareMrzFields } from '../../../../../src/engines/document/chip/mrz-comparison.js';
import {
  passiveAuthentication,
  type ChipFiles,
} from '../../../../../src/engines/document/chip/passive-authentication.js';
import { readTlv, readTlvList } from '../../../../../src/engines/document/chip/ber-tlv.js';
import { readSecurityObject } from '../../../../../src/engines/document/chip/security-object-document.js';
import { trustStore } from '../../../../../src/engines/document/chip/trust-store.js';
import { parseMrz } from '../../../../../src/engines/document/mrz/parse-mrz.js';
import {
  testDataGroup1,
  testDataGroup2,
  testPki,
  testSecurityObject,
  type PkiOptions,
  type SodOptions,
  type TestPki,
} from '../../../../helpers/chip-pki.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../../helpers/mrz-composer.js';

const MRZ = composeMrz('TD3', SPECIMEN_TRUTH);
const JPEG = await sharp({ create: { width: 48, height: 60, channels: 3, background: '#a08070' } })
  .jpeg()
  .toBuffer();

interface Chip {
  readonly pki: TestPki;
  readonly files: ChipFiles;
}

function chip(pkiOptions: PkiOptions = {}, sodOptions: SodOptions = {}, mrz: readonly string[] = MRZ): Chip {
  const pki = testPki(pkiOptions);
  const dataGroups = new Map<number, Uint8Array>([
    [1, testDataGroup1(mrz)],
    [2, testDataGroup2(JPEG, 48, 60)],
  ]);
  const sod = testSecurityObject(pki, dataGroups, sodOptions);
  return { pki, files: { dataGroups, sod, ...(sodOptions.includeDs === false ? { dsCertificate: pki.ds } : {}) } };
}

const trusting = (...pkis: TestPki[]) => trustStore(pkis.map((p) => readCertificate(p.csca, 'csca')));
const NOW = new Date();

describe('passive authentication (test PKI: CSCA -> DS -> EF.SOD over DG1, DG2)', () => {
  for (const kind of ['P-256', 'brainpoolP256r1', 'brainpoolP384r1', 'rsa-pss', 'rsa'] as const) {
    it(`passes a genuine chip signed with ${kind}`, () => {
      const { pki, files } = chip({ cscaKind: kind });
      const result = passiveAuthentication(files, trusting(pki), NOW);
      assert.equal(result.status, 'PASS', result.findings.join());
      assert.deepEqual(result.findings, []);
      assert.deepEqual(
        result.dataGroups.map((g) => g.hash),
        ['VALID', 'VALID'],
      );
      assert.equal(result.csca?.country, 'UT');
      assert.deepEqual(result.dg1Mrz, MRZ);
    });
  }

  it('passes a DS key on explicit brainpoolP256r1 parameters, mapped to the named curve', () => {
    const { pki, files } = chip({ cscaKind: 'P-256', dsKind: 'brainpoolP256r1', explicitDsCurve: true });
    const result = passiveAuthentication(files, trusting(pki), NOW);
    assert.equal(result.status, 'PASS', result.findings.join());
  });

  it('answers NOT_SUPPORTED for explicit curve parameters that are no named curve', () => {
    const { pki, files } = chip({ cscaKind: 'P-256', dsKind: 'brainpoolP256r1', explicitDsCurve: 'unknown' });
    const result = passiveAuthentication(files, trusting(pki), NOW);
    assert.equal(result.status, 'NOT_SUPPORTED');
    assert.deepEqual(result.findings, ['CHIP_ALGORITHM_NOT_SUPPORTED']);
  });

  it('passes a DS given beside EF.SOD and a signer named by key identifier', () => {
    const { pki, files } = chip({ cscaKind: 'brainpoolP256r1' }, { includeDs: false, signerByKeyId: true });
    assert.equal(passiveAuthentication(files, trusting(pki), NOW).status, 'PASS');
  });

  it('fails an altered data group: its hash no longer matches', () => {
    const { pki, files } = chip();
    const dg2 = Buffer.from(files.dataGroups.get(2) ?? []);
    dg2[dg2.length - 10] = (dg2[dg2.length - 10] ?? 0) ^ 0xff;
    const altered = { ...files, dataGroups: new Map([...files.dataGroups, [2, dg2]]) };
    const result = passiveAuthentication(altered, trusting(pki), NOW);
    assert.equal(result.status, 'FAIL');
    assert.deepEqual(result.findings, ['CHIP_DG2_HASH_MISMATCH']);
  });

  it('fails a data group the SOD does not list', () => {
    const { pki, files } = chip();
    const extra = { ...files, dataGroups: new Map([...files.dataGroups, [11, Buffer.from('6b00', 'hex')]]) };
    assert.deepEqual(passiveAuthentication(extra, trusting(pki), NOW).findings, ['CHIP_DG11_NOT_IN_SOD']);
  });

  for (const kind of ['P-256', 'brainpoolP256r1', 'rsa-pss'] as const) {
    it(`fails an altered SOD signature (${kind})`, () => {
      const { pki, files } = chip({ cscaKind: kind }, { corruptSignature: true });
      const result = passiveAuthentication(files, trusting(pki), NOW);
      assert.equal(result.status, 'FAIL');
      assert.deepEqual(result.findings, ['CHIP_SOD_SIGNATURE_INVALID']);
    });
  }

  it('answers incorrectDsCertificate for an unknown CSCA', () => {
    const { files } = chip();
    const other = testPki({ cscaName: 'Another CSCA' });
    const result = passiveAuthentication(files, trusting(other), NOW);
    assert.equal(result.status, 'INCORRECT_DS_CERTIFICATE');
    assert.deepEqual(result.findings, ['CHIP_CSCA_UNKNOWN']);
    assert.equal(result.csca, null);
  });

  it('tells a CSCA of the same name but another key by its key identifier and signature', () => {
    const { pki, files } = chip();
    // Same subject name, other key: the name matches, the key identifier does not.
    const impostor = testPki({ cscaName: 'CSCA Test' });
    assert.deepEqual(passiveAuthentication(files, trusting(impostor), NOW).findings, ['CHIP_CSCA_UNKNOWN']);
    assert.equal(passiveAuthentication(files, trusting(impostor, pki), NOW).status, 'PASS');
  });

  it('answers incorrectDsCertificate for an expired DS certificate', () => {
    const day = 86_400_000;
    const { pki, files } = chip({
      dsNotBefore: new Date(Date.now() - 3000 * day),
      dsNotAfter: new Date(Date.now() - day),
    });
    const result = passiveAuthentication(files, trusting(pki), NOW);
    assert.equal(result.status, 'INCORRECT_DS_CERTIFICATE');
    assert.deepEqual(result.findings, ['CHIP_DS_CERTIFICATE_EXPIRED']);
  });

  it("answers incorrectDsCertificate when the certificates' country is not the document's issuing state", () => {
    const { pki, files } = chip({ country: 'FR' });
    const result = passiveAuthentication(files, trusting(pki), NOW);
    assert.equal(result.status, 'INCORRECT_DS_CERTIFICATE');
    assert.deepEqual(result.findings, ['CHIP_ISSUING_STATE_COUNTRY_MISMATCH']);
    const french = chip({ country: 'FR' }, {}, composeMrz('TD3', { ...SPECIMEN_TRUTH, issuingState: 'FRA' }));
    assert.equal(passiveAuthentication(french.files, trusting(french.pki), NOW).status, 'PASS');
  });

  it('lists a data failure and a certificate failure together, FAIL first', () => {
    const { files } = chip({}, { corruptSignature: true });
    const result = passiveAuthentication(files, trusting(testPki()), NOW);
    assert.equal(result.status, 'FAIL');
    assert.deepEqual(result.findings, ['CHIP_SOD_SIGNATURE_INVALID', 'CHIP_CSCA_UNKNOWN']);
  });

  it('answers a missing DS certificate as incorrectDsCertificate', () => {
    const { pki, files } = chip({}, { includeDs: false });
    const { dsCertificate: _, ...withoutDs } = files;
    const result = passiveAuthentication(withoutDs, trusting(pki), NOW);
    assert.equal(result.status, 'INCORRECT_DS_CERTIFICATE');
    assert.deepEqual(result.findings, ['CHIP_DS_CERTIFICATE_MISSING']);
  });

  it('reads DG1 and DG2, and compares DG1 with a page MRZ field by field', () => {
    const { files } = chip();
    const lines = readDataGroup1Mrz(files.dataGroups.get(1) ?? new Uint8Array());
    assert.deepEqual(lines, MRZ);
    const portrait = readDataGroup2Portrait(files.dataGroups.get(2) ?? new Uint8Array());
    assert.equal(portrait.format, 'jpeg');
    assert.deepEqual(Buffer.from(portrait.image), JPEG);
    assert.equal(portrait.width, 48);
    assert.deepEqual(compareMrzFields(parseMrz(lines), parseMrz(MRZ)), []);
    const other = composeMrz('TD3', { ...SPECIMEN_TRUTH, surname: 'ERIKSEN', dateOfBirth: '740813' });
    assert.deepEqual(compareMrzFields(parseMrz(lines), parseMrz(other)), ['surname', 'dateOfBirth']);
  });

  it('answers every single-byte corruption with a result or a ChipDataError, and never passes a signed byte', () => {
    const { pki, files } = chip({}, { includeDs: false });
    const trust = trusting(pki);
    const sod = readSecurityObject(files.sod);
    // The signed regions: the LDS object, the signed attributes, the signature; the DS certificate's TBS part.
    const signed = [
      sod.content,
      sod.signedAttributesRaw ?? new Uint8Array(),
      new Uint8Array(sod.signer.signature.buffer),
    ];
    const sodRegions = signed.map((part) => {
      const at = Buffer.from(files.sod).indexOf(Buffer.from(part));
      return [at, at + part.length] as const;
    });
    const tbs = readTlvList(readTlv(pki.ds).value)[0]?.raw ?? new Uint8Array();
    const tbsStart = pki.ds.indexOf(Buffer.from(tbs));
    const inside = (at: number, regions: readonly (readonly [number, number])[]) =>
      regions.some(([from, to]) => at >= from && at < to);
    const corrupt = (bytes: Uint8Array, at: number, xor: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = (copy[at] ?? 0) ^ xor;
      return copy;
    };
    const dg1 = files.dataGroups.get(1) ?? new Uint8Array();
    const variants: { files: ChipFiles; signedByte: boolean }[] = [];
    // Every byte with its lowest bit flipped (values, lengths); the SOD's also with the top bit (tag classes).
    for (const xor of [0x01, 0x80]) {
      for (let at = 0; at < files.sod.length; at += 1) {
        variants.push({ files: { ...files, sod: corrupt(files.sod, at, xor) }, signedByte: inside(at, sodRegions) });
      }
      if (xor === 0x80) continue;
      for (let at = 0; at < dg1.length; at += 1) {
        const dataGroups = new Map([...files.dataGroups, [1, corrupt(dg1, at, xor)]]);
        variants.push({ files: { ...files, dataGroups }, signedByte: true });
      }
      for (let at = 0; at < pki.ds.length; at += 1) {
        const signedByte = at >= tbsStart && at < tbsStart + tbs.length;
        variants.push({ files: { ...files, dsCertificate: corrupt(pki.ds, at, xor) }, signedByte });
      }
    }
    let passedSigned = 0;
    for (const variant of variants) {
      try {
        if (passiveAuthentication(variant.files, trust, NOW).status === 'PASS' && variant.signedByte) passedSigned += 1;
      } catch (error) {
        assert.ok(error instanceof ChipDataError, String(error));
      }
    }
    // Bytes outside what is signed (CMS framing, the unsigned digest-algorithm set, the signer identifier's
    // string tags) may be altered without effect, as in any CMS verifier; a signed byte never passes.
    assert.equal(passedSigned, 0);
    assert.ok(variants.filter((v) => v.signedByte).length > 500);
  });

  it('refuses malformed files with a ChipDataError, never anything else', () => {
    const { pki, files } = chip();
    const trust = trusting(pki);
    const cases: ChipFiles[] = [
      { ...files, sod: Buffer.from('not a SOD') },
      { ...files, sod: files.sod.subarray(0, 40) },
      { ...files, dataGroups: new Map([[1, Buffer.from('6105', 'hex')]]) },
      { ...files, dataGroups: new Map([[2, files.dataGroups.get(2) ?? new Uint8Array()]]) },
      { ...files, dsCertificate: Buffer.from('3003020101', 'hex') },
    ];
    for (const bad of cases) assert.throws(() => passiveAuthentication(bad, trust, NOW), ChipDataError);
    assert.throws(() => readDataGroup2Portrait(Buffer.from('7503010203', 'hex')), ChipDataError);
  });
});
