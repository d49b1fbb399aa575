import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lfcc, linearFilterbank } from '../../../../src/engines/voice/features/lfcc.js';
import { powerSpectrogram } from '../../../../src/engines/voice/features/power-spectrum.js';
import { bandLimitCues } from '../../../../src/engines/voice/spoof-cues/band-limit.js';
import { pauseNoise } from '../../../../src/engines/voice/spoof-cues/breath-noise.js';
import { frameLevelsDb } from '../../../../src/engines/voice/spoof-cues/frame-levels.js';
import { globalVarianceRatio } from '../../../../src/engines/voice/spoof-cues/global-variance.js';
import { fundamentalLevel } from '../../../../src/engines/voice/spoof-cues/fundamental-level.js';
import { harmonicFrames } from '../../../../src/engines/voice/spoof-cues/harmonic-frames.js';
import { harmonicPhase } from '../../../../src/engines/voice/spoof-cues/harmonic-phase.js';
import { harmonicity, PITCH_FRAME, PITCH_HOP } from '../../../../src/engines/voice/spoof-cues/harmonicity.js';
import { longTermSpectrum } from '../../../../src/engines/voice/spoof-cues/long-term-spectrum.js';
import { lowFrequencyRolloff } from '../../../../src/engines/voice/spoof-cues/low-frequency-rolloff.js';
import { mainsHum } from '../../../../src/engines/voice/spoof-cues/mains-hum.js';
import { periodicity } from '../../../../src/engines/voice/spoof-cues/periodicity.js';
import { reverberationTail } from '../../../../src/engines/voice/spoof-cues/reverberation-tail.js';
import { spectralFlatness } from '../../../../src/engines/voice/spoof-cues/spectral-flatness.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';
import { concatSamples, silence, soxEffects, whiteNoise } from '../../../helpers/speech.js';

const RATE = 16_000;
const spectrumOf = (samples: Float32Array) => powerSpectrogram(samples, { sampleRate: RATE });
const ltasOf = (samples: Float32Array) => longTermSpectrum(spectrumOf(samples));

/** A voiced-speech stand-in: a glottal-like pulse train at `f0` (jitter: relative random period change). */
function pulseTrain(seconds: number, f0: number, jitter: number, seed = 3): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(Math.round(seconds * RATE));
  let next = 0;
  while (next < out.length) {
    for (let i = 0; i < 40 && next + i < out.length; i++) out[next + i] = (out[next + i] ?? 0) + 0.5 * Math.exp(-i / 6);
    next += Math.round((RATE / f0) * (1 + jitter * (2 * random() - 1)));
  }
  return out;
}

/** Noise bursts of 200 ms separated by 200 ms of `gap` (a syllable rhythm with sharp offsets). */
function bursts(gap: (seconds: number) => Float32Array, count = 8): Float32Array {
  const parts: Float32Array[] = [];
  for (let i = 0; i < count; i++) parts.push(whiteNoise(0.2, -20, 10 + i), gap(0.2));
  return concatSamples(...parts);
}

/** Convolution with an exponentially decaying noise tail: a room of reverberation time t60 seconds. */
function reverberate(samples: Float32Array, t60: number): Float32Array {
  const random = seededRandom(7);
  const length = Math.round(t60 * RATE);
  const impulse = new Float32Array(length);
  impulse[0] = 1;
  for (let i = 1; i < length; i++) impulse[i] = 0.3 * (2 * random() - 1) * 10 ** ((-3 * i) / length);
  const out = new Float32Array(samples.length + length);
  // Sparse direct convolution: only the tail's first 4000 taps matter for the falls measured (50 ms spans).
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] ?? 0;
    if (x === 0) continue;
    for (let k = 0; k < Math.min(length, 4000); k += 1) out[i + k] = (out[i + k] ?? 0) + x * (impulse[k] ?? 0);
  }
  return out;
}

test('linearFilterbank: evenly spaced triangles over the band, each covering bins', () => {
  const bank = linearFilterbank({ sampleRate: RATE, fftLength: 512, filters: 20, lowHz: 0, highHz: 8000 });
  assert.equal(bank.length, 20);
  const starts = bank.map((filter) => filter.firstBin);
  const steps = starts.slice(1).map((start, i) => start - (starts[i] ?? 0));
  assert.ok(
    steps.every((step) => Math.abs(step - 12) <= 1),
    `steps ${steps.join(',')}`,
  );
  assert.throws(
    () => linearFilterbank({ sampleRate: RATE, fftLength: 512, filters: 4, lowHz: 0, highHz: 9000 }),
    RangeError,
  );
});

test('lfcc: a flat (white) spectrum has near-zero cepstrum beyond c0, a tilted one does not', async () => {
  const white = whiteNoise(2, -20, 5);
  const flat = lfcc(powerSpectrogram(white, { sampleRate: RATE, preEmphasis: 0 }));
  const tilted = lfcc(
    powerSpectrogram(await soxEffects(white, ['lowpass', '-1', '1000']), { sampleRate: RATE, preEmphasis: 0 }),
  );
  const meanC1 = (c: { frames: number; coefficients: number; values: Float32Array }) => {
    let sum = 0;
    for (let f = 0; f < c.frames; f++) sum += c.values[f * c.coefficients + 1] ?? 0;
    return sum / c.frames;
  };
  assert.equal(flat.coefficients, 20);
  assert.ok(Math.abs(meanC1(flat)) < 0.5, `white c1 ${meanC1(flat)}`);
  assert.ok(meanC1(tilted) > 3, `low-passed c1 ${meanC1(tilted)}`);
});

test('band limit: a 4 kHz low-pass lowers the high-band ratio and the spectral edge', async () => {
  const hiss = whiteNoise(2, -40, 9);
  const noisy = pulseTrain(2, 120, 0.02).map((x, i) => x + (hiss[i] ?? 0));
  const limited = await soxEffects(noisy, ['sinc', '-4000']);
  const a = bandLimitCues(ltasOf(noisy), 7000);
  const b = bandLimitCues(ltasOf(limited), 7000);
  assert.ok(b.high4to7 < a.high4to7 - 2, `high4to7 ${a.high4to7} -> ${b.high4to7}`);
  assert.ok(b.edge < 0.65 && a.edge > 0.9, `edge ${a.edge} -> ${b.edge}`);
});

test('low-frequency roll-off: a small-loudspeaker high-pass lowers the 60-250 Hz share', async () => {
  const voiced = pulseTrain(2, 110, 0.02);
  const played = await soxEffects(voiced, ['highpass', '-2', '400']);
  assert.ok(lowFrequencyRolloff(ltasOf(played)) < lowFrequencyRolloff(ltasOf(voiced)) - 0.5);
});

test('fundamental level: a 300 Hz loudspeaker high-pass takes the fundamental down by about its attenuation there, at two pitches', async () => {
  const levelOf = (samples: Float32Array): number =>
    fundamentalLevel(
      harmonicFrames(samples, { periods: harmonicity(samples).periods, frame: PITCH_FRAME, hop: PITCH_HOP }),
    );
  // (Above ~170 Hz the pitch track takes a perfectly regular pulse train an octave low: real voices are not.)
  for (const f0 of [110, 150]) {
    const voiced = pulseTrain(2, f0, 0.03);
    const played = await soxEffects(voiced, ['highpass', '-2', '300']);
    // A 2-pole Butterworth high-pass at 300 Hz: 10·log10(r⁴ / (1 + r⁴)) dB at r = f / 300.
    const gainDb = (f: number): number => 10 * Math.log10((f / 300) ** 4 / (1 + (f / 300) ** 4));
    const harmonicsDb = 10 * Math.log10([2, 3, 4].reduce((sum, k) => sum + 10 ** (gainDb(k * f0) / 10), 0) / 3);
    const expected = gainDb(f0) - harmonicsDb;
    const drop = levelOf(played) - levelOf(voiced);
    assert.ok(
      Math.abs(drop - expected) < 2.5,
      `F0 ${f0}: dropped ${drop.toFixed(1)} dB, expected ${expected.toFixed(1)}`,
    );
  }
  // No voiced frame: 0, not NaN.
  const none = harmonicFrames(whiteNoise(1, -20, 2), {
    periods: new Float64Array(50),
    frame: PITCH_FRAME,
    hop: PITCH_HOP,
  });
  assert.equal(none.count, 0);
  assert.equal(fundamentalLevel(none), 0);
});

test('mains hum: 50 Hz at -40 dBFS stands out; without it the cue stays near 0', () => {
  const voiced = pulseTrain(3, 130, 0.03);
  const hiss = whiteNoise(3, -45, 4);
  const noisy = voiced.map((x, i) => x + (hiss[i] ?? 0));
  const hummed = noisy.map((x, i) => x + 0.01 * Math.sin((2 * Math.PI * 50 * i) / RATE));
  const clean = mainsHum(noisy, RATE);
  const withHum = mainsHum(hummed, RATE);
  assert.ok(clean < 1, `clean ${clean}`);
  assert.ok(withHum > clean + 1.5, `hum ${clean} -> ${withHum}`);
});

test('reverberation tail: a 0.6 s room tail measurably raises the steepest level falls', () => {
  const dry = bursts(silence);
  const wet = reverberate(dry, 0.6);
  const dryFall = reverberationTail(frameLevelsDb(spectrumOf(dry)));
  const wetFall = reverberationTail(frameLevelsDb(spectrumOf(wet)));
  assert.ok(dryFall < -30, `dry ${dryFall}`);
  assert.ok(wetFall > dryFall + 10, `dry ${dryFall} -> wet ${wetFall}`);
});

test('periodicity: a pulse train is voiced, noise is not; a steady period has less jitter than a jittered one', () => {
  const steady = periodicity(pulseTrain(2, 120, 0));
  const jittered = periodicity(pulseTrain(2, 120, 0.08));
  const noise = periodicity(whiteNoise(2, -20, 2));
  assert.ok(steady.voicedShare > 0.9 && steady.voicing > 0.8, JSON.stringify(steady));
  assert.ok(noise.voicedShare < 0.2, JSON.stringify(noise));
  assert.ok(jittered.jitter > steady.jitter, `${steady.jitter} vs ${jittered.jitter}`);
});

test('spectral flatness: white noise is flat, a harmonic vowel-like tone is peaky', () => {
  const harmonics = new Float32Array(RATE);
  for (let i = 0; i < harmonics.length; i++)
    for (let h = 1; h <= 15; h++)
      harmonics[i] = (harmonics[i] ?? 0) + Math.sin((2 * Math.PI * 200 * h * i) / RATE) / (4 * h);
  const noise = spectralFlatness(spectrumOf(whiteNoise(1, -20, 6)));
  const pulses = spectralFlatness(spectrumOf(harmonics));
  assert.ok(noise.mean > -0.8 && noise.mean < -0.1, `noise ${noise.mean}`); // -0.25 unwindowed; pre-emphasis tilts it
  assert.ok(pulses.mean < noise.mean - 0.6, `harmonics ${pulses.mean}`);
});

test('pause noise: digital silence between bursts reads far lower than a breathy noise floor', () => {
  const digital = bursts(silence);
  const breathy = bursts((s) => whiteNoise(s, -55, 12));
  const mask = (samples: Float32Array) => {
    const levels = frameLevelsDb(spectrumOf(samples));
    // Speech = the bursts: frames whose centre falls in an even 200 ms slot.
    return pauseNoise(levels, (f) => Math.floor((f * 160 + 200) / 3200) % 2 === 0);
  };
  const a = mask(digital);
  const b = mask(breathy);
  assert.ok(a.pauseLevel < b.pauseLevel - 20, `${a.pauseLevel} vs ${b.pauseLevel}`);
  assert.ok(b.pauseLevel < -20 && b.pauseLevel > -50, `breathy ${b.pauseLevel}`);
});

/** A tone of harmonics of an F0 contour (Hz per sample) up to `topHz`, plus `noise` white noise. */
function harmonicTone(f0: (i: number) => number, topHz: number, noise: number, seconds = 2): Float32Array {
  const random = seededRandom(11);
  const out = new Float32Array(seconds * RATE);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const hz = f0(i);
    phase += hz / RATE;
    let sum = 0;
    for (let k = 1; k * hz < topHz; k++) sum += Math.cos(2 * Math.PI * k * phase) / k ** 0.5;
    out[i] = 0.02 * sum + noise * (2 * random() - 1);
  }
  return out;
}

/** Adds white noise band-passed to 4-7 kHz by sox. */
async function withHighBandNoise(samples: Float32Array, seed: number): Promise<Float32Array> {
  const noise = await soxEffects(whiteNoise(samples.length / RATE, -25, seed), ['sinc', '4000-7000']);
  return Float32Array.from(samples, (v, i) => v + (noise[i] ?? 0));
}

test('harmonicity: a pulse-excited high band is periodic, a noise-filled one is not; a gliding F0 has no curvature, a wobbling one has', async () => {
  const steady = (): number => 120;
  const buzzy = harmonicity(harmonicTone(steady, 7000, 0));
  const breathy = harmonicity(await withHighBandNoise(harmonicTone(steady, 4000, 0), 4));
  assert.ok(buzzy.highBand > 0.8, `pulse-excited high band ${buzzy.highBand}`);
  assert.ok(breathy.highBand < 0.3, `noise high band ${breathy.highBand}`);
  const glide = harmonicity(harmonicTone((i) => 100 + (60 * i) / (2 * RATE), 4000, 0));
  const random = seededRandom(5);
  const wobble: number[] = Array.from({ length: 101 }, () => 120 * 2 ** (0.05 * (2 * random() - 1)));
  const wobbly = harmonicity(harmonicTone((i) => wobble[Math.floor(i / 320)] ?? 120, 4000, 0));
  assert.ok(glide.pitchCurvature < 0.005, `glide curvature ${glide.pitchCurvature}`);
  assert.ok(wobbly.pitchCurvature > 0.02, `wobble curvature ${wobbly.pitchCurvature}`);
});

test('harmonicity: the curvature of frame-to-frame jitter on a straight contour does not grow with the step, a curving one does', () => {
  const random = seededRandom(5);
  // A diphone synthesiser's contour: straight lines between targets, the recorded units' jitter on them.
  const jitter: number[] = Array.from({ length: 101 }, () => 2 ** (0.015 * (2 * random() - 1)));
  const jittered = (i: number): number => jitter[Math.floor(i / 320)] ?? 1;
  const intonation = (i: number): number => 120 * 2 ** (0.2 * Math.sin((2 * Math.PI * 1.5 * i) / RATE));
  const line = harmonicity(harmonicTone((i) => (100 + (40 * i) / (2 * RATE)) * jittered(i), 4000, 0));
  const curve = harmonicity(harmonicTone(intonation, 4000, 0));
  const voice = harmonicity(harmonicTone((i) => intonation(i) * jittered(i), 4000, 0));
  assert.ok(line.curvatureScale < 0.6, `jitter on a line ${line.curvatureScale}`);
  assert.ok(curve.curvatureScale > 1.4, `a smooth curve ${curve.curvatureScale}`);
  assert.ok(
    line.curvatureScale + 0.2 < voice.curvatureScale && voice.curvatureScale + 0.2 < curve.curvatureScale,
    `jitter on a curve ${voice.curvatureScale}`,
  );
  // No run of five voiced frames: no contour to read.
  assert.equal(harmonicity(new Float32Array(RATE)).curvatureScale, 0);
});

/**
 * Harmonics 1..10 of a 120 Hz voice with a 5 Hz, 2% vibrato (a perfectly steady tone lets the pitch track
 * read twice the period), whose phase offsets relative to the fundamental are re-drawn every `changeMs`
 * (never when undefined): the glottal cycle's shape changing at random, as a jumpy vocoder makes it.
 */
function harmonicsWithPhases(changeMs: number | undefined, seed = 13): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(2 * RATE);
  const offsets = Array.from({ length: 11 }, () => 2 * Math.PI * random());
  const every = changeMs === undefined ? Infinity : Math.round((changeMs * RATE) / 1000);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    if (i > 0 && i % every === 0) for (let k = 2; k <= 10; k++) offsets[k] = 2 * Math.PI * random();
    phase += (120 * (1 + 0.02 * Math.sin((2 * Math.PI * 5 * i) / RATE))) / RATE;
    let sum = 0;
    for (let k = 1; k <= 10; k++) sum += Math.cos(2 * Math.PI * k * phase + (offsets[k] ?? 0)) / k;
    out[i] = 0.05 * sum;
  }
  return out;
}

test('harmonicPhase: steady relative harmonic phases are coherent from frame to frame, randomly re-drawn ones are not', () => {
  const coherenceOf = (samples: Float32Array): number =>
    harmonicPhase(
      harmonicFrames(samples, { periods: harmonicity(samples).periods, frame: PITCH_FRAME, hop: PITCH_HOP }),
    ).coherence;
  const steady = coherenceOf(harmonicsWithPhases(undefined));
  const jumpy = coherenceOf(harmonicsWithPhases(10));
  assert.ok(steady > 0.6, `steady phases ${steady}`);
  assert.ok(jumpy < 0.35, `re-drawn phases ${jumpy}`);
  // Unvoiced input: no frame pairs, coherence 0.
  const noise = harmonicPhase(
    harmonicFrames(whiteNoise(1, -20, 2), { periods: new Float64Array(50), frame: PITCH_FRAME, hop: PITCH_HOP }),
  );
  assert.equal(noise.pairs, 0);
  assert.equal(noise.coherence, 0);
});

/** Random cepstral frames (30 coefficients) whose coefficient c varies by `spread(c)` around `offset(c)`. */
function cepstralFrames(spread: (c: number) => number, offset: (c: number) => number, seed = 7) {
  const random = seededRandom(seed);
  const frames = 400;
  const coefficients = 30;
  const values = new Float32Array(frames * coefficients);
  for (let f = 0; f < frames; f++)
    for (let c = 0; c < coefficients; c++) values[f * coefficients + c] = offset(c) + spread(c) * (2 * random() - 1);
  return { values, frames, coefficients };
}

test('global variance: over-smoothed upper cepstra lower the ratio; a fixed channel colouring and the level do not move it', () => {
  const spread = (c: number): number => 3 / c;
  const live = globalVarianceRatio(cepstralFrames(spread, () => 0));
  const smoothed = globalVarianceRatio(
    cepstralFrames(
      (c) => (c >= 15 ? 0.5 : 1) * spread(c),
      () => 0,
    ),
  );
  const coloured = globalVarianceRatio(cepstralFrames(spread, (c) => (c === 0 ? 20 : 5 / c)));
  // Halving the upper cepstra's spread quarters their variance: log10(1/4) lower.
  assert.ok(Math.abs(smoothed - live - Math.log10(0.25)) < 0.05, `smoothed ${smoothed} live ${live}`);
  assert.ok(Math.abs(coloured - live) < 1e-3, `coloured ${coloured} live ${live}`);
  // Only the selected frames count: selecting the smoothed half of a mixed recording reads it as smoothed.
  const first = cepstralFrames(spread, () => 0);
  const second = cepstralFrames(
    (c) => (c >= 15 ? 0.5 : 1) * spread(c),
    () => 0,
  );
  const both = { values: new Float32Array([...first.values, ...second.values]), frames: 800, coefficients: 30 };
  assert.ok(Math.abs(globalVarianceRatio(both, (f) => f >= 400) - smoothed) < 1e-6);
  assert.throws(() => globalVarianceRatio({ values: new Float32Array(20), frames: 1, coefficients: 20 }), RangeError);
});

test('harmonicPhase is the plain per-harmonic DFT of each frame to the bit (harmonics computed two per pass)', () => {
  const samples = pulseTrain(0.6, 155, 0.02);
  for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] ?? 0) + 0.05 * Math.sin(i * 0.9);
  // A steady track: the period every frame sees is exactly 103.2 samples.
  const periods = new Float64Array(40).fill(103.2);
  const actual = harmonicPhase(harmonicFrames(samples, { periods, frame: PITCH_FRAME, hop: PITCH_HOP }));
  // The cue written the plain way: 512-sample Hann frames every 160, harmonics 1..6 one at a time.
  const window = Float64Array.from({ length: 512 }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / 511));
  const sums = new Float64Array(14);
  const previous = new Float64Array(7);
  let pairs = 0;
  for (let start = 0; start + 512 <= samples.length; start += 160) {
    const phases = [0, 1, 2, 3, 4, 5, 6].map((k) => {
      const step = (2 * Math.PI * k) / 103.2;
      const [cs, sn] = [Math.cos(step), Math.sin(step)];
      let [c, s, re, im] = [1, 0, 0, 0];
      for (let i = 0; i < 512; i++) {
        const v = (samples[start + i] ?? 0) * (window[i] ?? 0);
        re += v * c;
        im -= v * s;
        [c, s] = [c * cs - s * sn, s * cs + c * sn];
      }
      return Math.atan2(im, re);
    });
    for (let k = 2; k <= 6; k++) {
      const rps = (phases[k] ?? 0) - k * (phases[1] ?? 0);
      if (start > 0) {
        sums[2 * k] = (sums[2 * k] ?? 0) + Math.cos(rps - (previous[k] ?? 0));
        sums[2 * k + 1] = (sums[2 * k + 1] ?? 0) + Math.sin(rps - (previous[k] ?? 0));
      }
      previous[k] = rps;
    }
    if (start > 0) pairs++;
  }
  let coherence = 0;
  for (let k = 2; k <= 6; k++) coherence += Math.hypot(sums[2 * k] ?? 0, sums[2 * k + 1] ?? 0) / pairs;
  assert.equal(actual.pairs, pairs);
  assert.ok(Object.is(actual.coherence, coherence / 5), `${actual.coherence} vs ${coherence / 5}`);
});
