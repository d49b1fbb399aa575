import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  livenessProblem,
  MAX_CLIPPED_SHARE,
  MIN_LIVENESS_SPEECH_SECONDS,
  NO_SPEECH_SECONDS,
} from '../../../../src/engines/voice/voice-liveness-analysis.js';

describe('voice liveness gates', () => {
  it('judges a sample only with enough clean speech, naming the first reason it cannot', () => {
    assert.equal(livenessProblem({ speechSeconds: 0, clippedShare: 0.5 }), 'no-speech');
    assert.equal(livenessProblem({ speechSeconds: NO_SPEECH_SECONDS - 0.01, clippedShare: 0 }), 'no-speech');
    assert.equal(livenessProblem({ speechSeconds: MIN_LIVENESS_SPEECH_SECONDS - 0.01, clippedShare: 0 }), 'too-short');
    assert.equal(livenessProblem({ speechSeconds: 3, clippedShare: MAX_CLIPPED_SHARE + 0.001 }), 'clipped');
    assert.equal(
      livenessProblem({ speechSeconds: MIN_LIVENESS_SPEECH_SECONDS, clippedShare: MAX_CLIPPED_SHARE }),
      undefined,
    );
  });
});
