/**
 * What a browser really records decodes: headless Chromium plays generated speech into a MediaRecorder
 * (WebM/Opus, its only audio container) and the bytes it hands back go through decodeVoiceSample and the
 * voice activity detector. Complements the WebM files the unit tests assemble themselves.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { detectSpeech } from '../../src/engines/voice/voice-activity.js';
import { decodeVoiceSample } from '../../src/engines/voice/voice-decoding.js';
import { synthesizeSpeech } from '../helpers/speech.js';

const CHROMIUM = '/usr/bin/chromium';

/** Records `samples` (16 kHz) with MediaRecorder in a page of headless Chromium; resolves with the file bytes. */
async function recordInChromium(samples: Float32Array): Promise<Uint8Array> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    const base64 = await page.evaluate(async (values: number[]) => {
      const context = new AudioContext({ sampleRate: 48_000 });
      const buffer = context.createBuffer(1, values.length, 16_000);
      buffer.copyToChannel(Float32Array.from(values), 0);
      const source = context.createBufferSource();
      source.buffer = buffer;
      const destination = context.createMediaStreamDestination();
      source.connect(destination);
      const recorder = new MediaRecorder(destination.stream, { mimeType: 'audio/webm;codecs=opus' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event): void => void chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      const ended = new Promise((resolve) => (source.onended = resolve));
      recorder.start();
      source.start();
      await ended;
      await new Promise((resolve) => setTimeout(resolve, 200));
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    }, Array.from(samples));
    return new Uint8Array(Buffer.from(base64, 'base64'));
  } finally {
    await browser.close();
  }
}

test(
  'a WebM/Opus recording of Chromium MediaRecorder decodes to the speech it recorded',
  { timeout: 60_000 },
  async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium is missing at ${CHROMIUM}: run bash scripts/setup-system.sh`);
    const speech = await synthesizeSpeech({ text: 'my voice is my password' });
    const recording = await recordInChromium(speech);
    const audio = await decodeVoiceSample(recording);
    assert.equal(audio.format, 'webm-opus');
    assert.equal(audio.sampleRate, 16_000);
    // Recording runs in real time from start() to stop(): the speech plus up to ~0.5 s around it.
    const seconds = audio.samples.length / 16_000;
    assert.ok(seconds > speech.length / 16_000 - 0.1 && seconds < speech.length / 16_000 + 0.8, `${seconds} s`);
    const recorded = await detectSpeech(audio.samples);
    const original = await detectSpeech(speech);
    assert.ok(
      Math.abs(recorded.speechSeconds - original.speechSeconds) < 0.25,
      `${recorded.speechSeconds} s of speech`,
    );
  },
);
