/**
 * The ONNX PAD model at the security levels, measured on decided requests: every dev PAD image as a
 * one-frame `hotel` request (eval/pad-requests.ts), decided again at levels 2, 4 and 6 through
 * `decidePassiveLiveness`. Gated requests (FACE_TOO_LOW_RESOLUTION, ...) are counted apart, with what the
 * model would have said of their faces. Two threshold sets: the shipped ones (read off all dev persons'
 * live scores, so BPCER is by construction) and person-disjoint ones (each fold of persons judged at
 * thresholds read off the other folds' live scores), which show how far the shipped ones can be trusted.
 */
import type { FaceEngine } from '../src/engines/face/face-engine.js';
import { decidePassiveLiveness } from '../src/engines/liveness/passive-liveness.js';
import { levelThreshold, padCalibration, padThreshold } from '../src/engines/liveness/pad-calibration.js';
import type { PadImage } from './face-dataset.js';
import { evalContext, outcomeCounts, outcomePLive, padRequests, type PadRequestOutcome } from './pad-requests.js';

const LEVELS = [2, 4, 6] as const;
const FOLDS = 4;

export interface PadLevelRow {
  readonly level: number;
  readonly targetBpcer: number;
  /** The shipped threshold; for the person-disjoint rows, the mean of the folds' thresholds. */
  readonly threshold: number;
  readonly spoofAccepted: number;
  readonly spoofDecided: number;
  readonly liveRejected: number;
  readonly liveDecided: number;
  readonly apcer: number;
  readonly bpcer: number;
}

export interface PadLevels {
  readonly counts: Record<string, number>;
  readonly shipped: readonly PadLevelRow[];
  readonly personDisjoint: readonly PadLevelRow[];
  /** Gated faces the model scored: how many would pass the shipped level-4 threshold. */
  readonly gated: ReadonlyArray<{ outcome: string; live: boolean; faces: number; aboveLevel4: number }>;
  readonly det: ReadonlyArray<{ fmr: number; fnmr: number }>;
}

/**
 * Runs the dev PAD images as requests and measures the ONNX model at levels 2, 4 and 6.
 *
 * @example
 * const pad = await padLevels(engine, loadPadImages(dir));
 * pad.shipped.find((r) => r.level === 4)?.apcer;
 */
export async function padLevels(engine: FaceEngine, images: readonly PadImage[]): Promise<PadLevels> {
  const outcomes = await padRequests(engine, images);
  const decided = outcomes.filter((o) => o.outcome === 'decided');
  const calibration = padCalibration('onnx');
  const shipped = LEVELS.map((level) => {
    let spoofAccepted = 0;
    let liveRejected = 0;
    for (const o of decided) {
      const { request, frames } = o;
      if (!request || !frames) throw new Error(`${o.file}: a decided outcome without its request`);
      const atLevel = { ...request, workflow: { ...request.workflow, securityLevel: level } };
      const { decision } = decidePassiveLiveness(atLevel, frames, evalContext('onnx'));
      if (o.live && decision !== 'LIVE') liveRejected++;
      if (!o.live && decision === 'LIVE') spoofAccepted++;
    }
    return row(level, calibration.targetBpcerByLevel[level - 1] ?? NaN, levelThreshold(level, calibration), decided, {
      spoofAccepted,
      liveRejected,
    });
  });

  const persons = [...new Set(decided.map((o) => o.person))].sort();
  const foldOf = new Map(persons.map((p, i) => [p, i % FOLDS]));
  const personDisjoint = LEVELS.map((level) => {
    const target = calibration.targetBpcerByLevel[level - 1] ?? NaN;
    let spoofAccepted = 0;
    let liveRejected = 0;
    let thresholdSum = 0;
    for (let fold = 0; fold < FOLDS; fold++) {
      const others = decided
        .filter((o) => o.live && foldOf.get(o.person) !== fold)
        .map((o) => outcomePLive(o, 'onnx'))
        .sort((a, b) => a - b);
      const threshold = padThreshold(target, { live: others, spoof: [] });
      thresholdSum += threshold;
      for (const o of decided.filter((d) => foldOf.get(d.person) === fold)) {
        const pLive = outcomePLive(o, 'onnx');
        if (o.live && pLive < threshold) liveRejected++;
        if (!o.live && pLive >= threshold) spoofAccepted++;
      }
    }
    return row(level, target, thresholdSum / FOLDS, decided, { spoofAccepted, liveRejected });
  });

  const level4 = levelThreshold(4, calibration);
  const gatedFaces = outcomes.filter((o) => o.outcome !== 'decided' && o.face);
  const gated = [...new Set(gatedFaces.map((o) => `${o.outcome}|${o.live}`))].sort().map((key) => {
    const group = gatedFaces.filter((o) => `${o.outcome}|${o.live}` === key);
    return {
      outcome: group[0]?.outcome ?? '',
      live: group[0]?.live ?? false,
      faces: group.length,
      aboveLevel4: group.filter((o) => outcomePLive(o, 'onnx') >= level4).length,
    };
  });

  const live = decided.filter((o) => o.live).map((o) => outcomePLive(o, 'onnx'));
  const spoof = decided.filter((o) => !o.live).map((o) => outcomePLive(o, 'onnx'));
  const det = [...new Set([...live, ...spoof])]
    .sort((a, b) => a - b)
    .map((t) => ({
      fmr: spoof.filter((s) => s >= t).length / spoof.length,
      fnmr: live.filter((s) => s < t).length / live.length,
    }));
  return { counts: outcomeCounts(outcomes), shipped, personDisjoint, gated, det };
}

function row(
  level: number,
  targetBpcer: number,
  threshold: number,
  decided: readonly PadRequestOutcome[],
  errors: { spoofAccepted: number; liveRejected: number },
): PadLevelRow {
  const liveDecided = decided.filter((o) => o.live).length;
  const spoofDecided = decided.length - liveDecided;
  return {
    level,
    targetBpcer,
    threshold,
    ...errors,
    spoofDecided,
    liveDecided,
    apcer: errors.spoofAccepted / spoofDecided,
    bpcer: errors.liveRejected / liveDecided,
  };
}

/**
 * The report section of `padLevels`' result.
 *
 * @example
 * const md = padLevelsMarkdown(await padLevels(engine, images));
 */
export function padLevelsMarkdown(pad: PadLevels): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const table = (rows: readonly PadLevelRow[], thresholdName: string) =>
    [
      `| level | target BPCER | ${thresholdName} | APCER (spoofs accepted) | BPCER (live refused) |`,
      '|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.level} | ${pct(r.targetBpcer)} | ${r.threshold.toFixed(3)} | ${pct(r.apcer)} (${r.spoofAccepted}/${r.spoofDecided}) | ${pct(r.bpcer)} (${r.liveRejected}/${r.liveDecided}) |`,
      ),
    ].join('\n');
  const counts = Object.entries(pad.counts)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const gated = pad.gated.length
    ? [
        '| stopped by | class | faces the model scored | of them above the level-4 threshold |',
        '|---|---|---|---|',
        ...pad.gated.map((g) => `| ${g.outcome} | ${g.live ? 'live' : 'spoof'} | ${g.faces} | ${g.aboveLevel4} |`),
      ].join('\n')
    : 'No gated request had a face the model scored.';
  return `Every dev PAD image sent as a one-frame \`hotel\` request and decided through \`decidePassiveLiveness\` with the
ONNX model (the default, \`VERIPORT_PAD_MODEL=onnx\`). Outcomes: ${counts}. APCER and BPCER below are over the
decided requests only (LIVE or SPOOF); the request checks (-8: a frame under 120 px) and the quality gates are
reported apart.

Shipped thresholds (pad-onnx-calibration.json: read off these same live scores, so BPCER meets its target by
construction; APCER is the measurement):

${table(pad.shipped, 'P(live) threshold')}

Person-disjoint thresholds (4 folds of persons; each fold judged at thresholds read off the other folds' live scores):

${table(pad.personDisjoint, 'mean threshold')}

What the model says of the faces the gates stopped first (they are not decided on PAD):

${gated}
`;
}
