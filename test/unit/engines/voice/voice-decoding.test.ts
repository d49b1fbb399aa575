import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { powerSpectrogram } from '../../../../src/engines/voice/features/power-spectrum.js';
import { resample } from '../../../../src/engines/voice/resampling.js';
import { decodeVoiceSample, MAX_VOICE_SECONDS } from '../../../../src/engines/voice/voice-decoding.js';
import { VoiceSampleError, type VoiceSampleProblem } from '../../../../src/engines/voice/voice-sample-error.js';
import {
  interleave,
  oggOpusFile,
  oggOpusPackets,
  padSilence,
  resampleWithSox,
  runTool,
  soxEffects,
  synthesizeSpeech,
  wavFile,
  webmOpusFile,
  webmOpusRecording,
  whiteNoise,
  type WavEncoding,
} from '../../../helpers/speech.js';

let speech: Float32Array;
/** `speech` as a 16 kHz file of it decodes: through the resampler's low-pass, which every rate passes. */
let banded: Float32Array;

before(async () => {
  speech = padSilence(await synthesizeSpeech({ text: 'my voice is my password' }), 0.2, 0.2);
  banded = resample(speech, 16_000, 16_000);
});

/** Signal-to-error ratio in dB of `actual` against `expected` over their common, inner part. */
function snrDb(expected: Float32Array, actual: Float32Array, margin = 200): number {
  let signal = 0;
  let noise = 0;
  for (let i = margin; i < Math.min(expected.length, actual.length) - margin; i++) {
    signal += (expected[i] ?? 0) ** 2;
    noise += ((expected[i] ?? 0) - (actual[i] ?? 0)) ** 2;
  }
  return 10 * Math.log10(signal / noise);
}

/** Normalised correlation at lag 0: lossy codecs keep the waveform's shape, not its exact values. */
function correlation(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    ab += (a[i] ?? 0) * (b[i] ?? 0);
    aa += (a[i] ?? 0) ** 2;
    bb += (b[i] ?? 0) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

async function rejects(bytes: Uint8Array, reason: VoiceSampleProblem): Promise<void> {
  await assert.rejects(decodeVoiceSample(bytes), (error: unknown) => {
    assert.ok(error instanceof VoiceSampleError, String(error));
    assert.equal(error.reason, reason, error.message);
    return true;
  });
}

const ENCODINGS: readonly [WavEncoding, number][] = [
  [8, 20],
  [16, 70],
  [24, 100],
  [32, 100],
  ['float32', 100],
  ['float64', 100],
];

for (const [encoding, minSnr] of ENCODINGS) {
  test(`a 16 kHz WAV in ${encoding}${typeof encoding === 'number' ? '-bit PCM' : ''} decodes to its samples`, async () => {
    const audio = await decodeVoiceSample(wavFile(speech, 16_000, encoding));
    assert.equal(audio.format, 'wav');
    assert.equal(audio.sampleRate, 16_000);
    assert.equal(audio.sourceSampleRate, 16_000);
    assert.equal(audio.sourceChannels, 1);
    assert.equal(audio.samples.length, speech.length);
    assert.ok(snrDb(banded, audio.samples, 0) > minSnr, `SNR ${snrDb(banded, audio.samples, 0)} dB`);
    assert.equal(audio.clippedShare, 0);
  });
}

for (const rate of [8000, 11_025, 22_050, 32_000, 44_100, 48_000]) {
  test(`a ${rate} Hz WAV is resampled to 16 kHz`, async () => {
    // Band-limited to 3.8 kHz so that every rate carries the whole signal.
    const narrow = await soxEffects(speech, ['sinc', '-3800']);
    const source = await resampleWithSox(narrow, 16_000, rate);
    const audio = await decodeVoiceSample(wavFile(source, rate, 16));
    assert.equal(audio.sourceSampleRate, rate);
    assert.ok(Math.abs(audio.samples.length - narrow.length) <= 1);
    assert.ok(snrDb(narrow, audio.samples) > 30, `SNR ${snrDb(narrow, audio.samples)} dB`);
  });
}

/** Power in 7.6-8 kHz over power in 1-6 kHz, in dB (pre-emphasised spectrogram of 16 kHz samples). */
function topBandDb(samples: Float32Array): number {
  const spectrum = powerSpectrogram(samples, { sampleRate: 16_000 });
  const binHz = 16_000 / spectrum.fftLength;
  let top = 0;
  let middle = 0;
  for (let f = 0; f < spectrum.frames; f++) {
    for (let k = 0; k < spectrum.bins; k++) {
      const power = spectrum.power[f * spectrum.bins + k] ?? 0;
      if (k * binHz >= 7600) top += power;
      else if (k * binHz >= 1000 && k * binHz < 6000) middle += power;
    }
  }
  return 10 * Math.log10(top / middle);
}

test('every format reaches the engine with one band: 16 kHz WAV and Opus lose the top as 48 kHz WAV does', async () => {
  // The spoof classifier's voice-activity members read up to 8 kHz and learnt from recordings whose top band
  // the resampler had cut; libopus and a 16 kHz WAV would otherwise bring that band in (white noise: -7 dB).
  const noise16k = whiteNoise(2, -20);
  const noise48k = whiteNoise(2, -20, 1, 48_000);
  assert.ok(topBandDb(noise16k) > -10);
  const decoded = {
    wav16k: await decodeVoiceSample(wavFile(noise16k, 16_000, 16)),
    wav48k: await decodeVoiceSample(wavFile(noise48k, 48_000, 16)),
    ogg16k: await decodeVoiceSample(await oggOpusFile(noise16k)),
    ogg48k: await decodeVoiceSample(await oggOpusFile(noise48k, 48_000)),
    webm48k: await decodeVoiceSample(await webmOpusRecording(noise48k, 48_000)),
  };
  for (const [name, audio] of Object.entries(decoded)) {
    assert.ok(topBandDb(audio.samples) < -30, `${name}: ${topBandDb(audio.samples).toFixed(1)} dB`);
  }
  assert.ok(Math.abs(topBandDb(decoded.wav16k.samples) - topBandDb(decoded.wav48k.samples)) < 1);
});

test('a stereo WAV is mixed down to the mean of its channels', async () => {
  const half = speech.map((value) => value * 0.5);
  const audio = await decodeVoiceSample(wavFile(interleave(speech, half), 16_000, 'float32', 2));
  assert.equal(audio.sourceChannels, 2);
  assert.equal(audio.samples.length, speech.length);
  const expected = banded.map((value) => value * 0.75);
  assert.ok(snrDb(expected, audio.samples, 0) > 100);
});

test("espeak-ng's streamed WAV (data size never patched) and sox's extensible, A-law and µ-law WAVs decode", async () => {
  const streamed = await runTool('espeak-ng', ['--stdout', 'hello there']);
  assert.ok(new DataView(streamed.buffer).getUint32(40, true) > streamed.length);
  const audio = await decodeVoiceSample(streamed);
  assert.equal(audio.sourceSampleRate, 22_050);
  assert.ok(Math.abs(audio.samples.length / 16_000 - (streamed.length - 44) / 2 / 22_050) < 0.01);

  const source = wavFile(speech, 16_000, 'float32');
  for (const [args, minSnr] of [
    [['-b', '24', '-c', '3'], 90],
    [['-e', 'a-law'], 25],
    [['-e', 'mu-law'], 25],
  ] as const) {
    const converted = await runTool('sox', ['-D', '-t', 'wav', '-', ...args, '-t', 'wav', '-'], source);
    const decoded = await decodeVoiceSample(converted);
    assert.ok(
      snrDb(banded, decoded.samples, 0) > minSnr,
      `${args.join(' ')}: SNR ${snrDb(banded, decoded.samples, 0)}`,
    );
  }
});

test('a clipped recording reports its share of full-scale samples', async () => {
  const loud = speech.map((value) => value * 8);
  const audio = await decodeVoiceSample(wavFile(loud, 16_000, 16));
  assert.ok(audio.clippedShare > 0.01 && audio.clippedShare < 0.5, String(audio.clippedShare));
  const opus = await decodeVoiceSample(await oggOpusFile(loud));
  assert.ok(opus.clippedShare > 0.002, String(opus.clippedShare));
});

test('Ogg/Opus (Firefox MediaRecorder, opusenc) decodes to the speech, pre-skip and end trimmed', async () => {
  const audio = await decodeVoiceSample(await oggOpusFile(speech));
  assert.equal(audio.format, 'ogg-opus');
  assert.equal(audio.sourceSampleRate, 16_000);
  assert.equal(audio.sourceChannels, 1);
  assert.equal(audio.samples.length, speech.length);
  assert.ok(correlation(speech, audio.samples) > 0.9, String(correlation(speech, audio.samples)));
});

test('stereo Ogg/Opus from a 48 kHz recording decodes to mono 16 kHz', async () => {
  const at48k = await resampleWithSox(speech, 16_000, 48_000);
  const stereo = await runTool('opusenc', ['--quiet', '-', '-'], wavFile(interleave(at48k, at48k), 48_000, 16, 2));
  const audio = await decodeVoiceSample(stereo);
  assert.equal(audio.sourceChannels, 2);
  assert.equal(audio.sourceSampleRate, 48_000);
  assert.ok(Math.abs(audio.samples.length - speech.length) <= 1);
  assert.ok(correlation(speech, audio.samples) > 0.9);
});

test('WebM/Opus (Chromium MediaRecorder: unknown-size segment and clusters) decodes to the speech', async () => {
  const webm = await webmOpusRecording(speech);
  const audio = await decodeVoiceSample(webm);
  assert.equal(audio.format, 'webm-opus');
  assert.equal(audio.sourceChannels, 1);
  // No end position in a live WebM: the last packet is decoded whole (up to 20 ms more).
  assert.ok(audio.samples.length >= speech.length && audio.samples.length < speech.length + 320);
  assert.ok(correlation(speech, audio.samples) > 0.9, String(correlation(speech, audio.samples)));

  // A recording stopped mid-block keeps the packets before the cut.
  const cut = await decodeVoiceSample(webm.subarray(0, Math.floor(webm.length * 0.6)));
  assert.ok(cut.samples.length > speech.length * 0.4 && cut.samples.length < speech.length * 0.75);
});

test('WebM without an Opus track, garbage, and broken headers are undecodable', async () => {
  const { head, packets } = oggOpusPackets(await oggOpusFile(speech));
  const vorbis = webmOpusFile({ head, packets });
  const codec = Buffer.from(vorbis).indexOf('A_OPUS');
  vorbis.set(Buffer.from('A_VORB'), codec);
  await rejects(vorbis, 'undecodable');

  const garbage = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 251);
  await rejects(garbage, 'undecodable');
  await rejects(new TextEncoder().encode('RIFF\x10\x00\x00\x00WAVEjunkjunkjunk'), 'undecodable');
  const badOgg = new Uint8Array(200);
  badOgg.set(new TextEncoder().encode('OggS'));
  await rejects(badOgg, 'undecodable');
  const noisePackets = { head, packets: packets.map((packet) => packet.map((_, i) => (i * 31 + 7) % 256)) };
  await rejects(webmOpusFile(noisePackets), 'undecodable');
});

test('no bytes, or a WAV without samples, is empty', async () => {
  await rejects(new Uint8Array(), 'empty');
  await rejects(wavFile(new Float32Array(), 16_000, 16), 'empty');
  await rejects(webmOpusFile({ head: oggOpusPackets(await oggOpusFile(speech)).head, packets: [] }), 'empty');
});

test(`a sample over ${MAX_VOICE_SECONDS} s is too long, in WAV and in Opus`, async () => {
  const long = new Float32Array((MAX_VOICE_SECONDS + 1) * 8000);
  await rejects(wavFile(long, 8000, 8), 'too-long');
  await rejects(await oggOpusFile(long, 8000, 6), 'too-long');
  const limit = await decodeVoiceSample(wavFile(new Float32Array(MAX_VOICE_SECONDS * 8000), 8000, 8));
  assert.equal(limit.samples.length, MAX_VOICE_SECONDS * 16_000);
});
