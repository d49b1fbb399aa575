import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import type { DeviceSignals as EngineSignals } from '../../lib/device-signals.js';
import { isStoredText, STORED_TEXT_FORMAT, StoredText } from '../../server/schemas/stored-text.js';

/**
 * The device-security profile's bodies (Doc 1 endpoints 6 and 13, and the collector post that precedes
 * them). Every member is bounded: the signals are stored as posted.
 */

// TypeBox's own checker (`Value.Check`: a stored profile is re-checked with it) knows the routes' Ajv format.
if (!FormatRegistry.Has(STORED_TEXT_FORMAT)) FormatRegistry.Set(STORED_TEXT_FORMAT, isStoredText);

const Text = (maxLength: number, description = '') => StoredText(description, { maxLength });
const Count = (maximum = 1_000_000_000) => Type.Integer({ minimum: 0, maximum });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;

const Brand = Type.Object({ brand: Text(128), version: Text(64) }, closed);

const ClientHints = Type.Object(
  {
    brands: Type.Array(Brand, { maxItems: 16 }),
    mobile: Type.Boolean(),
    platform: Text(64),
    platformVersion: Nullable(Text(64)),
    architecture: Nullable(Text(64)),
    bitness: Nullable(Text(16)),
    model: Nullable(Text(128)),
    fullVersionList: Nullable(Type.Array(Brand, { maxItems: 16 })),
  },
  closed,
);

export const DeviceSignalsBody = Type.Object(
  {
    version: Type.Literal(1, { description: 'wire format version (web/shared/device-signals.ts)' }),
    collectedAt: Type.Number({ minimum: 0, maximum: 1e14, description: "milliseconds since 1970, the device's clock" }),
    userAgent: Text(1024),
    clientHints: Nullable(ClientHints),
    platform: Text(128, 'navigator.platform'),
    vendor: Text(128, 'navigator.vendor'),
    languages: Type.Array(Text(64), { maxItems: 32 }),
    timeZone: Nullable(Text(64, 'IANA time zone')),
    timeZoneOffset: Type.Integer({ minimum: -1440, maximum: 1440, description: 'Date#getTimezoneOffset()' }),
    screen: Type.Object(
      {
        width: Count(100_000),
        height: Count(100_000),
        availWidth: Count(100_000),
        availHeight: Count(100_000),
        colorDepth: Count(256),
        pixelRatio: Type.Number({ minimum: 0, maximum: 32 }),
      },
      closed,
    ),
    viewport: Type.Object(
      {
        innerWidth: Count(100_000),
        innerHeight: Count(100_000),
        outerWidth: Count(100_000),
        outerHeight: Count(100_000),
      },
      closed,
    ),
    hardwareConcurrency: Nullable(Count(65_536)),
    deviceMemory: Nullable(Type.Number({ minimum: 0, maximum: 65_536 })),
    maxTouchPoints: Count(1000),
    pluginsLength: Count(1000),
    webgl: Nullable(Type.Object({ vendor: Text(256), renderer: Text(256) }, closed)),
    webdriver: Nullable(Type.Boolean()),
    botd: Nullable(Type.Object({ bot: Type.Boolean(), botKind: Nullable(Text(64)) }, closed)),
    automationTraces: Type.Array(Text(64), { maxItems: 32 }),
    interaction: Type.Object(
      {
        pointerMoves: Count(),
        mouseDowns: Count(),
        mouseDownsWithoutPath: Count(),
        touchDowns: Count(),
        keyDowns: Count(),
        untrustedEvents: Count(),
      },
      closed,
    ),
    fingerprint: Nullable(
      Type.Object(
        {
          visitorId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$', description: "FingerprintJS's visitorId" }),
          confidence: Type.Number({ minimum: 0, maximum: 1 }),
          version: Text(32),
        },
        closed,
      ),
    ),
    geolocation: Nullable(
      Type.Object(
        {
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
          accuracy: Type.Number({ minimum: 0, maximum: 1e8 }),
        },
        closed,
      ),
    ),
  },
  { ...closed, description: 'device signals of the browser collector, wire format version 1' },
);
export type DeviceSignalsBody = Static<typeof DeviceSignalsBody>;
// The checked body is what the engine reads: a drift between the two fails the build here.
const _sameShape: (body: DeviceSignalsBody) => EngineSignals = (body) => body;

export const DeviceSignalsResponse = Type.Object({
  apSessionId: Type.String({ description: 'send it to deviceProfile/checkDevice; single use' }),
  expiresIn: Type.Integer({ description: 'seconds it stays usable (VERIPORT_DEVICE_PROFILE_TTL_SECONDS)' }),
});

const ApSessionId = StoredText('from POST /onboarding/deviceProfile/signals', { minLength: 1, maxLength: 128 });

export const EnrollmentDeviceCheckRequest = Type.Object({
  reEnrollmentToken: StoredText('the enrollmentToken of enroll (the enrollment, or re-enrollment, in progress)', {
    minLength: 1,
    maxLength: 128,
  }),
  apSessionId: ApSessionId,
});
export type EnrollmentDeviceCheckRequest = Static<typeof EnrollmentDeviceCheckRequest>;

export const AuthenticationDeviceCheckRequest = Type.Object({
  authToken: StoredText('from authenticate, after verifyDevice', { minLength: 1, maxLength: 128 }),
  apSessionId: ApSessionId,
});
export type AuthenticationDeviceCheckRequest = Static<typeof AuthenticationDeviceCheckRequest>;

const Attribute = Type.Object({
  provider: Type.Optional(Type.String()),
  serviceOffering: Type.Optional(Type.String()),
  attributeType: Type.String(),
  dateCreated: Type.String({ description: 'MM/dd/yyyy HH:mm:ss, UTC' }),
  values: Type.Record(Type.String(), Type.String(), { description: 'one member: Doc 1 value-key rule' }),
});

const ResponseDetail = Type.Object({
  errorCode: Type.String({ description: "'' when approved; POLICY_REVIEW or POLICY_REJECT" }),
  errorDescription: Type.String({ description: "'' when approved; the failed assertions and their actions" }),
  transaction_id: Type.String(),
  userAttributes: Type.Array(Attribute),
  acquiredAttributes: Type.Array(Attribute),
  userAssertionList: Type.Array(
    Type.Object({
      provider: Type.String(),
      serviceOffering: Type.String(),
      dateAsserted: Type.String(),
      assertions: Type.Record(Type.String(), Type.Union([Type.Literal('pass'), Type.Literal('fail')]), {
        description: 'only the assertions that could be derived; pass is the safe outcome for every name',
      }),
    }),
  ),
  mbun: Type.String({ description: 'the username of the flow' }),
  forwardApiKey: Type.String(),
  policyObligation: Type.Boolean({ description: 'true for review: the caller must do more (a face check)' }),
  policyDecision: Type.Union([Type.Literal('approve'), Type.Literal('review'), Type.Literal('reject')]),
});

const ResultBase = {
  errorCode: Nullable(Type.String({ description: 'null when approved' })),
  errorMsg: Nullable(Type.String({ description: 'null when approved' })),
  responseDetail: ResponseDetail,
};

export const AuthenticationDeviceCheckResponse = Type.Object({
  ...ResultBase,
  authStatus: Type.Integer({
    description: '2 approved (authenticated), 1 review (continue with verifyFace), 0 rejected (failed)',
  }),
});

export const EnrollmentDeviceCheckResponse = Type.Object({
  ...ResultBase,
  enrollmentStatus: Type.Integer({
    description: '1 the enrollment goes on (2 if it was complete already), 0 rejected (the enrollment failed)',
  }),
});
