/**
 * The feature row the voice spoof classifier scores: LFCC statistics of the speech frames (long silences
 * trimmed by the voice activity, so that their length cannot stand in for the attack) and the named replay
 * and synthetic-speech cues of src/engines/voice/spoof-cues/, then the sub-band cepstral statistics
 * (spoof-cues/subband-cepstra.ts) and the statistics of two representations the voice activity model
 * computes per frame (features/vad-activation-statistics.ts), which the shipped classifier's member models
 * read (VOICE_SPOOF_MEMBERS).
 */
import { lfcc } from './features/lfcc.js';
import { powerSpectrogram } from './features/power-spectrum.js';
import { bandLimitCues } from './spoof-cues/band-limit.js';
import { pauseNoise } from './spoof-cues/breath-noise.js';
import { frameLevelsDb } from './spoof-cues/frame-levels.js';
import { globalVarianceRatio } from './spoof-cues/global-variance.js';
import { fundamentalLevel } from './spoof-cues/fundamental-level.js';
import { harmonicFrames } from './spoof-cues/harmonic-frames.js';
import { harmonicPhase } from './spoof-cues/harmonic-phase.js';
import { harmonicity, PITCH_FRAME, PITCH_HOP } from './spoof-cues/harmonicity.js';
import { longTermSpectrum } from './spoof-cues/long-term-spectrum.js';
import { lowFrequencyRolloff } from './spoof-cues/low-frequency-rolloff.js';
import { mainsHum } from './spoof-cues/mains-hum.js';
import { periodicity } from './spoof-cues/periodicity.js';
import { reverberationTail } from './spoof-cues/reverberation-tail.js';
import { spectralFlatness } from './spoof-cues/spectral-flatness.js';
import { SUBBAND_CEPSTRA_NAMES, SUBBAND_VALUES, SUBBANDS, subbandCepstra } from './spoof-cues/subband-cepstra.js';
import {
  VAD_ACTIVATION_STATISTIC_NAMES,
  VAD_STATISTICS_MEMBERS,
  VAD_STATISTICS_PER_REPRESENTATION,
  vadActivationStatistics,
} from './features/vad-activation-statistics.js';
import type { SpeechActivity } from './voice-activity.js';
import { speechSamples } from './voice-activity.js';

/** Bumped whenever a feature's definition changes: the model file names the version it was trained on. */
export const VOICE_SPOOF_FEATURE_VERSION = 'voice-spoof-features/11';

const SAMPLE_RATE = 16_000;
/**
 * LFCC from 35 linear filters over 0-7 kHz (~190 Hz apart), c1..c29 (c0, the level, is left out: loudness
 * says nothing about liveness). Nothing above 7 kHz: there the training corpus differs by how each file was
 * resampled (generated attacks through sox, LibriSpeech not), and the engine's own resampler cuts recordings
 * made at 44.1/48 kHz at 7.36 kHz; a model that read that band learnt the resampler, not the attack (docs/voice.md).
 */
const FILTERS = 35;
const CEPSTRA = 29;
/** Upper edge of the LFCC filters and of the band-limit cues. */
export const SPOOF_ANALYSIS_TOP_HZ = 7000;

/** Names of the cues, in the order they close the feature row. */
export const VOICE_SPOOF_CUE_NAMES = [
  'bandLimit.high4to7',
  'bandLimit.high6to7',
  'bandLimit.edge',
  'lowFrequencyRolloff',
  'reverberationTail',
  'mainsHum',
  'spectralFlatness.mean',
  'spectralFlatness.spread',
  'periodicity.voicing',
  'periodicity.voicedShare',
  'periodicity.jitter',
  'periodicity.pitchSpread',
  'pauseNoise.pauseLevel',
  'pauseNoise.floor',
  'harmonicity.highBand',
  'harmonicity.pitchCurvature',
  'globalVariance.highOverLow',
  'harmonicPhase.coherence',
  'fundamentalLevel',
  'harmonicity.curvatureScale',
] as const;
export type VoiceSpoofCueName = (typeof VOICE_SPOOF_CUE_NAMES)[number];

/**
 * Every feature's name, in row order: the LFCC means (the speech frames' average spectral envelope on a
 * linear scale), then the cues, then the sub-band cepstral statistics (three bands of SUBBAND_VALUES), then
 * the VAD statistics (means and deviations of the decoder's 64 activations, then of the first LSTM layer's 64
 * outputs). (Full-band LFCC deviations and delta deviations were tried too: they did not lower the
 * leave-one-attack-out error, docs/voice.md.)
 */
export const VOICE_SPOOF_FEATURE_NAMES: readonly string[] = [
  ...Array.from({ length: CEPSTRA }, (_, c) => `lfcc.mean.c${c + 1}`),
  ...VOICE_SPOOF_CUE_NAMES,
  ...SUBBAND_CEPSTRA_NAMES,
  ...VAD_ACTIVATION_STATISTIC_NAMES,
];

/** Row index of the first sub-band value. */
const SUBBAND_OFFSET = CEPSTRA + VOICE_SPOOF_CUE_NAMES.length;
/** Row index of the first VAD activation statistic. */
const VAD_OFFSET = SUBBAND_OFFSET + SUBBANDS.length * SUBBAND_VALUES;
/** The cues' row indices: every member's range and density terms check them. */
const CUE_COLUMNS = VOICE_SPOOF_CUE_NAMES.map((_, i) => CEPSTRA + i);

/**
 * The feature blocks of the fused classifier's member models, each the row columns its model reads: per
 * sub-band that band's SUBBAND_VALUES values, then one member on the 128 statistics of the VAD decoder's
 * activations and one on the 128 of its first LSTM layer's outputs; each followed by the 20 cues (its range and
 * density terms check the cues).
 *
 * @example
 * VOICE_SPOOF_MEMBERS.map((member) => member.columns.length); // [57, 57, 57, 148, 148]
 */
export const VOICE_SPOOF_MEMBERS: readonly { readonly name: string; readonly columns: readonly number[] }[] = [
  ...SUBBANDS.map(({ name }, b) => ({
    name,
    columns: [
      ...Array.from({ length: SUBBAND_VALUES }, (_, k) => SUBBAND_OFFSET + b * SUBBAND_VALUES + k),
      ...CUE_COLUMNS,
    ],
  })),
  ...VAD_STATISTICS_MEMBERS.map((name, r) => ({
    name,
    columns: [
      ...Array.from(
        { length: VAD_STATISTICS_PER_REPRESENTATION },
        (_, k) => VAD_OFFSET + r * VAD_STATISTICS_PER_REPRESENTATION + k,
      ),
      ...CUE_COLUMNS,
    ],
  })),
];

export interface VoiceSpoofFeatures {
  /** One value per VOICE_SPOOF_FEATURE_NAMES entry. */
  readonly row: Float64Array;
  readonly cues: Readonly<Record<VoiceSpoofCueName, number>>;
  /** Spectrogram frames (10 ms) the LFCC statistics were taken over. */
  readonly speechFrames: number;
}

/**
 * The spoof feature row of a 16 kHz mono sample and its voice activity.
 *
 * @example
 * const activity = await detectSpeech(samples);
 * const { row, cues } = voiceSpoofFeatures(samples, activity);
 * cues.mainsHum; // ≈ 0 for a phone recording, > 1 with mains hum in it
 */
export function voiceSpoofFeatures(samples: Float32Array, activity: SpeechActivity): VoiceSpoofFeatures {
  const spectrum = powerSpectrogram(samples, { sampleRate: SAMPLE_RATE });
  // A spectrogram frame counts as speech when its centre lies in a speech frame of the activity. Selecting
  // frames (rather than analysing the concatenated speech) trims the silences without splicing offsets.
  const isSpeechFrame = new Uint8Array(spectrum.frames);
  let speechFrames = 0;
  const frameLength = Math.round(SAMPLE_RATE * 0.025);
  for (let f = 0; f < spectrum.frames; f++) {
    const centre = f * spectrum.hop + frameLength / 2;
    if (activity.speech[Math.floor(centre / activity.frameSamples)] === 1) {
      isSpeechFrame[f] = 1;
      speechFrames++;
    }
  }
  // With no speech detected every frame is analysed (the services refuse such samples before scoring).
  const select = speechFrames > 0 ? (f: number): boolean => isSpeechFrame[f] === 1 : (): boolean => true;
  const ltas = longTermSpectrum(spectrum, select);
  const levels = frameLevelsDb(spectrum);
  const band = bandLimitCues(ltas, SPOOF_ANALYSIS_TOP_HZ);
  const flatness = spectralFlatness(spectrum, select);
  const speech = speechFrames > 0 ? speechSamples(samples, activity) : samples;
  const periodic = periodicity(speech);
  const harmonic = harmonicity(speech);
  const pauses = pauseNoise(levels, (f) => isSpeechFrame[f] === 1);
  const harmonics = harmonicFrames(speech, { periods: harmonic.periods, frame: PITCH_FRAME, hop: PITCH_HOP });
  const cepstra = lfcc(spectrum, { filters: FILTERS, coefficients: CEPSTRA + 1, highHz: SPOOF_ANALYSIS_TOP_HZ });
  const cues: Record<VoiceSpoofCueName, number> = {
    'bandLimit.high4to7': band.high4to7,
    'bandLimit.high6to7': band.high6to7,
    'bandLimit.edge': band.edge,
    lowFrequencyRolloff: lowFrequencyRolloff(ltas),
    reverberationTail: reverberationTail(levels),
    mainsHum: mainsHum(samples, SAMPLE_RATE),
    'spectralFlatness.mean': flatness.mean,
    'spectralFlatness.spread': flatness.spread,
    'periodicity.voicing': periodic.voicing,
    'periodicity.voicedShare': periodic.voicedShare,
    'periodicity.jitter': periodic.jitter,
    'periodicity.pitchSpread': periodic.pitchSpread,
    'pauseNoise.pauseLevel': pauses.pauseLevel,
    'pauseNoise.floor': pauses.floor,
    'harmonicity.highBand': harmonic.highBand,
    'harmonicity.pitchCurvature': harmonic.pitchCurvature,
    'globalVariance.highOverLow': globalVarianceRatio(cepstra, select),
    'harmonicPhase.coherence': harmonicPhase(harmonics).coherence,
    fundamentalLevel: fundamentalLevel(harmonics),
    'harmonicity.curvatureScale': harmonic.curvatureScale,
  };
  const row = new Float64Array(VOICE_SPOOF_FEATURE_NAMES.length);
  cepstralMeans(cepstra.values, select, spectrum.frames, row);
  VOICE_SPOOF_CUE_NAMES.forEach((name, i) => (row[CEPSTRA + i] = cues[name]));
  row.set(subbandCepstra(spectrum, select), SUBBAND_OFFSET);
  row.set(vadActivationStatistics(activity), VAD_OFFSET);
  return { row, cues, speechFrames: speechFrames > 0 ? speechFrames : spectrum.frames };
}

/** Writes the mean of c1..c29 over the selected frames into row[0 .. 29). */
function cepstralMeans(
  values: Float32Array,
  select: (frame: number) => boolean,
  frames: number,
  row: Float64Array,
): void {
  const width = CEPSTRA + 1;
  let n = 0;
  for (let f = 0; f < frames; f++) {
    if (!select(f)) continue;
    n++;
    for (let c = 1; c <= CEPSTRA; c++) row[c - 1] = (row[c - 1] ?? 0) + (values[f * width + c] ?? 0);
  }
  if (n > 0) for (let c = 0; c < CEPSTRA; c++) row[c] = (row[c] ?? 0) / n;
}
