/**
 * The lenient "selfie" default profile (docs/face-analysis.md#profiles): one face, roughly frontal,
 * exposed and sharp enough, as a phone's front camera gives it. Kept as a TypeScript string so the
 * build (tsc, which copies no other files) ships it in dist/ too.
 */
export const SELFIE_PROFILE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<faceProfile name="selfie" description="Lenient selfie: one face, pose within 20 degrees, usable exposure and sharpness">
  <!-- A looser framing than ICAO: more of the head and shoulders around smaller eyes. -->
  <construction width="480" height="640" eyeLineY="0.42" interEyeDistance="0.2" eyeCenterX="0.5"/>
  <metric name="SINGLE_FACE_PRESENT" values="1"/>
  <metric name="HEAD_POSE_YAW" min="-20" max="20"/>
  <metric name="HEAD_POSE_PITCH" min="-20" max="20"/>
  <metric name="HEAD_POSE_ROLL" min="-20" max="20"/>
  <metric name="UNDER_EXPOSURE_PREVENTION" min="30"/>
  <metric name="OVER_EXPOSURE_PREVENTION" min="30"/>
  <metric name="SHARPNESS" min="30"/>
  <!-- The spec's recommended eye distance for a back camera, the smaller of its two. -->
  <metric name="INTER_EYE_DISTANCE" min="60"/>
</faceProfile>
`;
