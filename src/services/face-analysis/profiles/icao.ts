/**
 * The ICAO-like default profile (docs/face-analysis.md#profiles): a frontal, neutral, evenly lit and
 * sharp face, constructed as an ISO/IEC 19794-5 token image (480 × 640, eyes at 45% of the height,
 * 25% of the width apart). Kept as a TypeScript string so the build (tsc, which copies no other files)
 * ships it in dist/ too.
 */
export const ICAO_PROFILE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<faceProfile name="icao" description="ICAO-like passport photo: frontal pose, eyes open, mouth closed, neutral expression, uniform background">
  <!-- ISO/IEC 19794-5 token frontal image: width W, height W / 0.75, eye midpoint at (0.5 W, 0.6 W), eyes 0.25 W apart. -->
  <construction width="480" height="640" eyeLineY="0.45" interEyeDistance="0.25" eyeCenterX="0.5"/>
  <metric name="SINGLE_FACE_PRESENT" values="1"/>
  <!-- Pose: ICAO allows about 5 degrees of yaw and pitch and 8 of roll. -->
  <metric name="HEAD_POSE_YAW" min="-5" max="5"/>
  <metric name="HEAD_POSE_PITCH" min="-5" max="5"/>
  <metric name="HEAD_POSE_ROLL" min="-8" max="8"/>
  <metric name="EYES_OPEN" min="60"/>
  <metric name="EYES_VISIBLE" min="60"/>
  <metric name="MOUTH_CLOSED" min="60"/>
  <!-- Both measured from the mesh and the skin colour (docs/face-analysis.md#metrics). -->
  <metric name="EXPRESSION_NEUTRALITY" min="50"/>
  <metric name="FACE_OCCLUSION_PREVENTION" min="60"/>
  <metric name="BACKGROUND_UNIFORMITY" min="50"/>
  <metric name="ILLUMINATION_UNIFORMITY" min="50"/>
  <metric name="UNDER_EXPOSURE_PREVENTION" min="50"/>
  <metric name="OVER_EXPOSURE_PREVENTION" min="50"/>
  <metric name="DYNAMIC_RANGE" min="5"/>
  <metric name="SHARPNESS" min="50"/>
  <!-- The spec's recommended eye distance for a front camera; a constructed token has 120 pixels. -->
  <metric name="INTER_EYE_DISTANCE" min="90"/>
</faceProfile>
`;
