import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { OcrbRecognizer } from '../../../../src/engines/document/ocrb-recognizer.js';
import { loadOpenCv } from '../../../../src/engines/document/opencv-runtime.js';
import { PaddleTextRecognizer } from '../../../../src/engines/document/paddle-text-recognizer.js';
import { readDocument, type DocumentModels } from '../../../../src/engines/document/read-document.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import { photographPage, requireOcrBFont } from '../../../helpers/document-render.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

let models: DocumentModels;

/** A rendered TD3 photographed and read as the server reads it; its MRZ repaired on the read's evidence. */
async function readPrinted(lines: readonly string[]) {
  const reading = await readDocument(models, await photographPage('TD3', lines, { rotate: 3, blur: 0.5 }));
  const read = reading.mrz;
  assert.ok(read, 'the MRZ band was read');
  return { read, mrz: repairMrz(read.lines, { evidence: read.evidence }) };
}

const failingChecks = (mrz: ReturnType<typeof repairMrz>) => mrz.checkDigits.filter((c) => !c.valid).map((c) => c.name);

describe('a document printed with wrong check digits, rendered in OCR-B and read', () => {
  before(async () => {
    requireOcrBFont();
    models = {
      cv: await loadOpenCv(),
      recognizer: await PaddleTextRecognizer.load(),
      ocrb: OcrbRecognizer.load(),
    };
  });

  it('a look-alike letter printed in a date and in the number is reported invalid, never repaired valid', async () => {
    // The check digits are those of 740812 and L898902C3; the page prints 740B12 and L8989O2C3 (the mrz
    // library's OCR-correction test strings print such letters). Read sure, they are what is printed.
    const [line1 = '', line2 = ''] = composeMrz('TD3', SPECIMEN_TRUTH);
    const printed = [line1, line2.replace('740812', '740B12').replace('L898902C3', 'L8989O2C3')];
    const { read, mrz } = await readPrinted(printed);
    assert.deepEqual(read.lines, printed);
    assert.equal(mrz.valid, false);
    assert.deepEqual(mrz.lines, printed);
    assert.deepEqual(failingChecks(mrz), ['documentNumber', 'dateOfBirth', 'composite']);
  });

  it('a numerically wrong check digit stays wrong, and the right one reads valid on the same page', async () => {
    const [line1 = '', line2 = ''] = composeMrz('TD3', SPECIMEN_TRUTH);
    const forged = [line1, line2.replace('7408122', '7408123')];
    const { mrz } = await readPrinted(forged);
    assert.equal(mrz.valid, false);
    assert.deepEqual(failingChecks(mrz), ['dateOfBirth', 'composite']);
    const genuine = await readPrinted([line1, line2]);
    assert.equal(genuine.mrz.valid, true);
    assert.deepEqual(genuine.mrz.changes, []);
  });
});
