import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { METRICS } from '../../../../src/engines/face-quality/metric-catalog.js';
import { evaluateCompliance, ruleStatus } from '../../../../src/services/face-analysis/compliance.js';
import { DEFAULT_PROFILE_XML, defaultProfile } from '../../../../src/services/face-analysis/default-profiles.js';
import { constructionEyes, type FaceProfile, type MetricRule } from '../../../../src/services/face-analysis/profile.js';
import { parseProfile, validateProfile } from '../../../../src/services/face-analysis/profile-parser.js';
import { calculateRoi, roiLayout } from '../../../../src/services/face-analysis/roi.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';

const CONSTRUCTION = '<construction width="480" height="640" eyeLineY="0.45" interEyeDistance="0.25"/>';

/** A profile named "p" on line 1 with the token construction on line 2 and `body` from line 3. */
function profileXml(...body: string[]): string {
  return ['<faceProfile name="p">', `  ${CONSTRUCTION}`, ...body.map((line) => `  ${line}`), '</faceProfile>'].join(
    '\n',
  );
}

function errorsOf(xml: string): readonly string[] {
  const parsed = parseProfile(xml);
  assert.ok('errors' in parsed, 'the profile is refused');
  return parsed.errors;
}

function profileOf(xml: string): FaceProfile {
  const parsed = parseProfile(xml);
  assert.ok('profile' in parsed, `the profile is accepted: ${'errors' in parsed ? parsed.errors.join('; ') : ''}`);
  return parsed.profile;
}

describe('face profile parsing', () => {
  it('reads names, construction and rules, with required by default and eyeCenterX 0.5 by default', () => {
    const profile = profileOf(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<faceProfile name=" test &amp; more " description="for tests">',
        '  <!-- a comment is fine -->',
        `  ${CONSTRUCTION}`,
        '  <metric name="HEAD_POSE_YAW" min="-8" max="8"/>',
        '  <metric name="SHARPNESS" min="4e1" required="false"/>',
        '  <metric name="SINGLE_FACE_PRESENT" values="1"/>',
        '  <metric name="EYES_OPEN" max="  90.5 "/>',
        '  <metric name="IMAGE_WIDTH" values="480, 720 1080"/>',
        '</faceProfile>',
      ].join('\n'),
    );
    assert.equal(profile.name, 'test & more');
    assert.equal(profile.description, 'for tests');
    assert.deepEqual(profile.construction, {
      width: 480,
      height: 640,
      eyeLineY: 0.45,
      interEyeDistance: 0.25,
      eyeCenterX: 0.5,
    });
    assert.deepEqual(profile.rules, [
      { metric: 'HEAD_POSE_YAW', kind: 'range', required: true, min: -8, max: 8 },
      { metric: 'SHARPNESS', kind: 'range', required: false, min: 40 },
      { metric: 'SINGLE_FACE_PRESENT', kind: 'values', required: true, values: [1] },
      { metric: 'EYES_OPEN', kind: 'range', required: true, max: 90.5 },
      { metric: 'IMAGE_WIDTH', kind: 'values', required: true, values: [480, 720, 1080] },
    ]);
    assert.deepEqual(validateProfile(profileXml('<metric name="SHARPNESS" min="40"/>')), []);
  });

  it('accepts a byte-order mark and counts columns without it', () => {
    assert.deepEqual(errorsOf('\uFEFF<faceProfile/>'), [
      'line 1, column 1: <faceProfile> is missing the attribute name',
      'line 1, column 1: <faceProfile> has no <construction> element',
    ]);
  });

  it('reports malformed XML with the parser line and column', () => {
    assert.deepEqual(errorsOf('<faceProfile name="p">\n  <metric name="SHARPNESS" min="40">\n</faceProfile>'), [
      "line 3, column 1: malformed XML: Expected closing tag 'metric' (opened in line 2, col 3) instead of closing tag 'faceProfile'.",
    ]);
    assert.deepEqual(errorsOf('<faceProfile name="p" name="q"/>'), [
      "line 1, column 23: malformed XML: Attribute 'name' is repeated.",
    ]);
    assert.deepEqual(errorsOf('<faceProfile name=p/>'), [
      "line 1, column 14: malformed XML: Attribute 'name' is without value.",
    ]);
    assert.deepEqual(errorsOf('not xml'), ["line 1, column 1: malformed XML: char 'n' is not expected."]);
    assert.deepEqual(errorsOf(''), ['line 1: malformed XML: Start tag expected.']);
  });

  it('requires one <faceProfile> root with a name', () => {
    assert.deepEqual(errorsOf(`<profile name="p">${CONSTRUCTION}</profile>`), [
      'line 1, column 1: the root element must be <faceProfile>, found <profile>',
    ]);
    assert.deepEqual(errorsOf(`<faceProfile>${CONSTRUCTION}</faceProfile>`), [
      'line 1, column 1: <faceProfile> is missing the attribute name',
    ]);
    assert.deepEqual(errorsOf(`<faceProfile name="  ">${CONSTRUCTION}</faceProfile>`), [
      'line 1, column 1: <faceProfile> has an empty name',
    ]);
    assert.deepEqual(errorsOf(`${profileXml()}\n<faceProfile name="q"/>`), [
      'line 4, column 1: a second root element <faceProfile>; a profile has one <faceProfile>',
    ]);
  });

  it('refuses unknown attributes, unknown elements and stray text', () => {
    assert.deepEqual(errorsOf(`<faceProfile name="p" version="2">${CONSTRUCTION}</faceProfile>`), [
      'line 1, column 1: <faceProfile> has an unknown attribute version; allowed: name, description',
    ]);
    assert.deepEqual(
      errorsOf(profileXml('<metric name="SHARPNESS" minimum="40" min="40"/>', '<rule name="SHARPNESS"/>', 'some text')),
      [
        'line 1, column 1: unexpected text "some text" in <faceProfile>',
        'line 3, column 3: <metric> has an unknown attribute minimum; allowed: name, min, max, values, required',
        'line 4, column 3: unknown element <rule> in <faceProfile>; expected <construction> or <metric>',
      ],
    );
    assert.deepEqual(errorsOf(profileXml('<metric name="SHARPNESS" min="40"><note/>sharp</metric>')), [
      'line 3, column 3: unexpected text "sharp" in <metric>',
      'line 3, column 37: unexpected element <note> in <metric>, which takes only attributes',
    ]);
  });

  it('refuses an unknown metric and a metric listed twice', () => {
    assert.deepEqual(errorsOf(profileXml('<metric name="BLUR" min="1"/>', '<metric name="sharpness" min="1"/>')), [
      'line 3, column 3: unknown metric "BLUR" (docs/face-analysis.md#metrics lists the names)',
      'line 4, column 3: unknown metric "sharpness" (docs/face-analysis.md#metrics lists the names)',
    ]);
    assert.deepEqual(
      errorsOf(
        profileXml(
          '<metric name="SHARPNESS" min="40"/>',
          '<metric name="EYES_OPEN" min="40"/>',
          '<metric name="SHARPNESS" max="90"/>',
        ),
      ),
      ['line 5, column 3: metric SHARPNESS is listed twice (first at line 3, column 3)'],
    );
    assert.deepEqual(errorsOf(profileXml('<metric min="40"/>', '<metric name="" min="40"/>')), [
      'line 3, column 3: <metric> is missing the attribute name',
      'line 4, column 3: <metric> has an empty name',
    ]);
  });

  it('checks the bounds: numbers, min not above max, inside the metric range, and some rule given', () => {
    assert.deepEqual(errorsOf(profileXml('<metric name="HEAD_POSE_YAW" min="10" max="-10"/>')), [
      'line 3, column 3: metric HEAD_POSE_YAW: min 10 is greater than max -10',
    ]);
    assert.deepEqual(
      errorsOf(
        profileXml(
          '<metric name="SHARPNESS" min="high" max=""/>',
          '<metric name="EYES_OPEN" min="0x10"/>',
          '<metric name="MOUTH_CLOSED" max="1e999"/>',
        ),
      ),
      [
        'line 3, column 3: metric SHARPNESS: min "high" is not a number',
        'line 3, column 3: metric SHARPNESS: max "" is not a number',
        'line 4, column 3: metric EYES_OPEN: min "0x10" is not a number',
        'line 5, column 3: metric MOUTH_CLOSED: max "1e999" is not a number',
      ],
    );
    assert.deepEqual(
      errorsOf(
        profileXml(
          '<metric name="HEAD_POSE_YAW" min="-95" max="95"/>',
          '<metric name="SINGLE_FACE_PRESENT" values="1 -1"/>',
        ),
      ),
      [
        "line 3, column 3: metric HEAD_POSE_YAW: min -95 is outside the metric's range -90 to 90",
        "line 3, column 3: metric HEAD_POSE_YAW: max 95 is outside the metric's range -90 to 90",
        "line 4, column 3: metric SINGLE_FACE_PRESENT: value -1 is outside the metric's range 0 to 100",
      ],
    );
    assert.deepEqual(
      errorsOf(profileXml('<metric name="SHARPNESS"/>', '<metric name="EYES_OPEN" required="false"/>')),
      [
        'line 3, column 3: metric SHARPNESS has no rule: give min and/or max, or values',
        'line 4, column 3: metric EYES_OPEN has no rule: give min and/or max, or values',
      ],
    );
  });

  it('checks exact-value rules and the required flag', () => {
    assert.deepEqual(errorsOf(profileXml('<metric name="SINGLE_FACE_PRESENT" values="1" max="2"/>')), [
      'line 3, column 3: metric SINGLE_FACE_PRESENT: values cannot be combined with min or max',
    ]);
    assert.deepEqual(
      errorsOf(
        profileXml(
          '<metric name="SINGLE_FACE_PRESENT" values=" , "/>',
          '<metric name="IMAGE_WIDTH" values="480,wide"/>',
        ),
      ),
      [
        'line 3, column 3: metric SINGLE_FACE_PRESENT: values is empty',
        'line 4, column 3: metric IMAGE_WIDTH: value "wide" is not a number',
      ],
    );
    assert.deepEqual(errorsOf(profileXml('<metric name="SHARPNESS" min="40" required="yes"/>')), [
      'line 3, column 3: metric SHARPNESS: required must be true or false, found "yes"',
    ]);
  });

  it('requires one valid <construction> with the eyes inside the image', () => {
    assert.deepEqual(errorsOf('<faceProfile name="p"><metric name="SHARPNESS" min="40"/></faceProfile>'), [
      'line 1, column 1: <faceProfile> has no <construction> element',
    ]);
    assert.deepEqual(errorsOf(profileXml(CONSTRUCTION)), [
      'line 3, column 3: <construction> is given twice (first at line 2, column 3); a profile has one',
    ]);
    assert.deepEqual(
      errorsOf(
        '<faceProfile name="p"><construction height="640.5" eyeLineY="0" interEyeDistance="1" eyeCenterX="half" scale="2"/></faceProfile>',
      ),
      [
        'line 1, column 23: <construction> has an unknown attribute scale; allowed: width, height, eyeLineY, interEyeDistance, eyeCenterX',
        'line 1, column 23: <construction> is missing the attribute width',
        'line 1, column 23: <construction> height must be a whole number of pixels from 1 to 16384, found "640.5"',
        'line 1, column 23: <construction> eyeLineY must be a number between 0 and 1 (exclusive), found "0"',
        'line 1, column 23: <construction> interEyeDistance must be a number between 0 and 1 (exclusive), found "1"',
        'line 1, column 23: <construction> eyeCenterX must be a number between 0 and 1 (exclusive), found "half"',
      ],
    );
    assert.deepEqual(
      errorsOf(
        '<faceProfile name="p"><construction width="0" height="20000" eyeLineY="0.5" interEyeDistance="0.5" eyeCenterX="0.8"/></faceProfile>',
      ),
      [
        'line 1, column 23: <construction> width must be a whole number of pixels from 1 to 16384, found "0"',
        'line 1, column 23: <construction> height must be a whole number of pixels from 1 to 16384, found "20000"',
      ],
    );
    assert.deepEqual(
      errorsOf(
        '<faceProfile name="p"><construction width="480" height="640" eyeLineY="0.5" interEyeDistance="0.5" eyeCenterX="0.8"/></faceProfile>',
      ),
      [
        'line 1, column 23: <construction> puts an eye outside the image (eyeCenterX 0.8 ± interEyeDistance 0.5 / 2 must stay between 0 and 1)',
      ],
    );
  });

  it("accepts a rule at each metric's catalog bounds", () => {
    const rules = Object.values(METRICS).map(
      (metric) => `<metric name="${metric.name}" min="${metric.min}" max="${metric.max}"/>`,
    );
    assert.equal(profileOf(profileXml(...rules)).rules.length, Object.keys(METRICS).length);
  });

  it('collects every error of a profile, in document order', () => {
    const errors = errorsOf(
      [
        '<faceProfile>',
        '  <construction width="480" height="640" eyeLineY="2" interEyeDistance="0.25"/>',
        '  <metric name="NOPE" min="1"/>',
        '  <metric name="SHARPNESS" min="9" max="1"/>',
        '  <extra/>',
        '</faceProfile>',
      ].join('\n'),
    );
    assert.deepEqual(errors, [
      'line 1, column 1: <faceProfile> is missing the attribute name',
      'line 2, column 3: <construction> eyeLineY must be a number between 0 and 1 (exclusive), found "2"',
      'line 3, column 3: unknown metric "NOPE" (docs/face-analysis.md#metrics lists the names)',
      'line 4, column 3: metric SHARPNESS: min 9 is greater than max 1',
      'line 5, column 3: unknown element <extra> in <faceProfile>; expected <construction> or <metric>',
    ]);
  });
  it('reports at most 100 errors and counts the rest', () => {
    const errors = errorsOf(profileXml(...Array.from({ length: 150 }, () => '<metric name="SHARPNESS" min="1"/>')));
    assert.equal(errors.length, 101);
    assert.equal(errors[100], '… and 49 more errors');
  });
});

describe('default profiles', () => {
  it('are valid, and the ICAO one constructs an ISO/IEC 19794-5 token image', () => {
    for (const xml of Object.values(DEFAULT_PROFILE_XML)) assert.deepEqual(validateProfile(xml), []);
    const icao = defaultProfile('icao');
    assert.equal(icao.name, 'icao');
    assert.deepEqual(icao.construction, {
      width: 480,
      height: 640,
      eyeLineY: 0.45,
      interEyeDistance: 0.25,
      eyeCenterX: 0.5,
    });
    assert.deepEqual(constructionEyes(icao.construction), { rightEye: [180, 288], leftEye: [300, 288] });
    assert.equal(defaultProfile('icao'), icao, 'parsed once');
    assert.equal(defaultProfile('selfie').name, 'selfie');
  });

  it('ICAO is stricter than selfie on every metric they share', () => {
    const icao = defaultProfile('icao');
    const selfie = defaultProfile('selfie');
    for (const rule of selfie.rules) {
      const strict = icao.rules.find((candidate) => candidate.metric === rule.metric);
      assert.ok(strict, `ICAO checks ${rule.metric} too`);
      if (rule.kind === 'range' && strict.kind === 'range') {
        assert.ok(
          (strict.min ?? -Infinity) >= (rule.min ?? -Infinity) && (strict.max ?? Infinity) <= (rule.max ?? Infinity),
          rule.metric,
        );
      }
    }
    assert.ok(icao.rules.length > selfie.rules.length);
  });
});

describe('compliance', () => {
  const yaw: MetricRule = { metric: 'HEAD_POSE_YAW', kind: 'range', required: true, min: -8, max: 8 };

  it('gives FAIL_LOW below min, FAIL_HIGH above max and OK within, bounds included', () => {
    assert.equal(ruleStatus(yaw, -8.01), 'FAIL_LOW');
    assert.equal(ruleStatus(yaw, -8), 'OK');
    assert.equal(ruleStatus(yaw, 8), 'OK');
    assert.equal(ruleStatus(yaw, 8.01), 'FAIL_HIGH');
    assert.equal(ruleStatus({ metric: 'SHARPNESS', kind: 'range', required: true, min: 40 }, 1e6), 'OK');
  });

  it('gives FAIL_VALUE for an unmet exact-value rule and for a required metric without a score', () => {
    const oneFace: MetricRule = { metric: 'SINGLE_FACE_PRESENT', kind: 'values', required: true, values: [1] };
    assert.equal(ruleStatus(oneFace, 1), 'OK');
    assert.equal(ruleStatus(oneFace, 0.1 + 0.9), 'OK');
    assert.equal(ruleStatus(oneFace, 2), 'FAIL_VALUE');
    assert.equal(ruleStatus(oneFace, 0), 'FAIL_VALUE');
    assert.equal(ruleStatus(yaw, undefined), 'FAIL_VALUE');
    assert.equal(ruleStatus(yaw, Number.NaN), 'FAIL_VALUE');
    assert.equal(ruleStatus({ ...yaw, required: false }, undefined), undefined);
  });

  it('is compliant only when every status is OK; optional unmeasured metrics do not count', () => {
    const profile = profileOf(
      profileXml(
        '<metric name="HEAD_POSE_YAW" min="-8" max="8"/>',
        '<metric name="SHARPNESS" min="40"/>',
        '<metric name="EYES_OPEN" min="50" required="false"/>',
      ),
    );
    assert.deepEqual(evaluateCompliance(profile, { HEAD_POSE_YAW: 2, SHARPNESS: 41, MOUTH_CLOSED: 0 }), {
      isCompliant: true,
      statuses: { HEAD_POSE_YAW: 'OK', SHARPNESS: 'OK' },
    });
    assert.deepEqual(evaluateCompliance(profile, { HEAD_POSE_YAW: 12, SHARPNESS: 10, EYES_OPEN: 80 }), {
      isCompliant: false,
      statuses: { HEAD_POSE_YAW: 'FAIL_HIGH', SHARPNESS: 'FAIL_LOW', EYES_OPEN: 'OK' },
    });
    assert.deepEqual(evaluateCompliance(profile, { HEAD_POSE_YAW: 0 }), {
      isCompliant: false,
      statuses: { HEAD_POSE_YAW: 'OK', SHARPNESS: 'FAIL_VALUE' },
    });
  });
});

describe('region of interest', () => {
  const icao = defaultProfile('icao');

  it('is the whole frame at the construction size, with the eyes where the construction puts them', () => {
    assert.deepEqual(roiLayout(icao, { width: 480, height: 640 }), {
      roi: { x: 0, y: 0, width: 480, height: 640 },
      ...constructionEyes(icao.construction),
      interEyeDistance: 120,
    });
  });

  it('is the largest centred region of the token proportions: portrait and landscape frames', () => {
    assert.deepEqual(calculateRoi(icao, { width: 720, height: 1280 }), { x: 0, y: 160, width: 720, height: 960 });
    assert.deepEqual(calculateRoi(icao, { width: 1920, height: 1080 }), { x: 555, y: 0, width: 810, height: 1080 });
  });

  it('scales with the resolution and stays inside the frame', () => {
    const random = seededRandom(6);
    for (const profile of [icao, defaultProfile('selfie')]) {
      for (let i = 0; i < 200; i += 1) {
        const resolution = { width: 1 + Math.floor(random() * 4000), height: 1 + Math.floor(random() * 4000) };
        const { roi, rightEye, leftEye } = roiLayout(profile, resolution);
        assert.ok(roi.x >= 0 && roi.y >= 0 && roi.width >= 1 && roi.height >= 1, JSON.stringify({ resolution, roi }));
        assert.ok(
          roi.x + roi.width <= resolution.width && roi.y + roi.height <= resolution.height,
          JSON.stringify({ resolution, roi }),
        );
        for (const eye of [rightEye, leftEye])
          assert.ok(eye[0] >= roi.x && eye[0] <= roi.x + roi.width && eye[1] >= roi.y && eye[1] <= roi.y + roi.height);
        const doubled = calculateRoi(profile, { width: resolution.width * 2, height: resolution.height * 2 });
        for (const key of ['x', 'y', 'width', 'height'] as const)
          assert.ok(Math.abs(doubled[key] - 2 * roi[key]) <= 2, JSON.stringify({ resolution, roi, doubled }));
        if (roi.width >= 100 && roi.height >= 100) {
          const { width, height } = profile.construction;
          assert.ok(Math.abs(roi.width / roi.height - width / height) < 0.02, 'keeps the token proportions');
        }
      }
    }
  });

  it('widens to a profile minimum crop rule beyond the construction margins', () => {
    // The token keeps 2 eye distances left of the eye midpoint; a rule asking for 3 widens that side.
    const wider = profileOf(
      profileXml(
        '<metric name="LEFTWARD_CROP_OF_THE_FACE_IMAGE" min="3"/>',
        '<metric name="UPWARD_CROP_OF_THE_FACE_IMAGE" min="1"/>',
      ),
    );
    const { roi, rightEye, leftEye, interEyeDistance } = roiLayout(wider, { width: 1000, height: 1000 });
    const across = 3 + 2;
    const along = (0.45 * 640) / 120 + (0.55 * 640) / 120;
    assert.equal(interEyeDistance, Math.min(roi.width / across, roi.height / along));
    assert.ok(Math.abs(roi.width / roi.height - across / along) < 0.01);
    assert.ok(
      Math.abs((rightEye[0] + leftEye[0]) / 2 - roi.x - 3 * interEyeDistance) < 1,
      'eye midpoint 3 eye distances from the left edge',
    );
    assert.ok(
      Math.abs(rightEye[1] - roi.y - 2.4 * interEyeDistance) < 1,
      'the smaller upward rule leaves the token margin',
    );
  });

  it('refuses an empty resolution', () => {
    assert.throws(() => calculateRoi(icao, { width: 0, height: 640 }), RangeError);
    assert.throws(() => calculateRoi(icao, { width: 480, height: Number.NaN }), RangeError);
  });
});
