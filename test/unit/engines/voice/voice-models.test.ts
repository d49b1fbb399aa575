import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VoiceEngine } from '../../../../src/engines/voice/voice-engine.js';
import { checkVoiceModels, VoiceModelError } from '../../../../src/engines/voice/voice-models.js';
import { loadVoiceSpoofModel, parseVoiceSpoofModel } from '../../../../src/engines/voice/voice-spoof-classifier.js';

/** The shipped spoof model with one field broken, as a hand-edited or truncated file would be. */
const malformedSpoofModel = {
  file: 'broken/voice-spoof-model.json',
  load: () => {
    const shipped = loadVoiceSpoofModel();
    const members = shipped.members.map((member, m) => (m === 0 ? { ...member, std: [0] } : member));
    return parseVoiceSpoofModel({ ...shipped, members }, 'broken/voice-spoof-model.json');
  },
};

describe('voice model files at start', () => {
  it('the shipped model files load and pass their checks', () => {
    assert.doesNotThrow(() => checkVoiceModels());
  });

  it('a malformed model file stops the engine at start with an error naming the file and the fault', () => {
    assert.throws(
      () => VoiceEngine.start({ workers: 1, models: [malformedSpoofModel] }),
      (error: unknown) => {
        assert.ok(error instanceof VoiceModelError);
        assert.equal(error.file, 'broken/voice-spoof-model.json');
        assert.match(
          error.message,
          /^voice engine cannot start: broken\/voice-spoof-model\.json: .*not a valid voice spoof model: members\[0\]: `mean` and `std` need one value per feature/,
        );
        return true;
      },
    );
  });

  it('checks every file in order and names the first one that fails', () => {
    const loaded: string[] = [];
    const ok = (file: string) => ({ file, load: () => loaded.push(file) });
    assert.throws(
      () => checkVoiceModels([ok('a.json'), malformedSpoofModel, ok('c.json')]),
      /broken\/voice-spoof-model/,
    );
    assert.deepEqual(loaded, ['a.json']);
  });
});
