import Type, { type Static } from 'typebox';
import { DEVICE_ID_PATTERN, VisibleText } from '../contract/common.ts';
import { DeviceType } from '../contract/device.ts';
import { SensorInstanceEntrySchema, type SensorInstanceEntry } from './sensor-instances.ts';

const Pin = Type.Integer({ minimum: 0, maximum: 27, description: 'BCM GPIO number' });

const RelayDevice = Type.Object({
  deviceId: Type.String({ minLength: 1, maxLength: 64, pattern: DEVICE_ID_PATTERN }),
  deviceName: VisibleText({ maxLength: 100 }),
  deviceType: DeviceType,
  powerW: Type.Number({ minimum: 0, maximum: 10000 }),
});

/**
 * One configured hardware output. `device` makes it appear as a device at start; an output without
 * one is free, and a device added from the dashboard may be bound to it.
 */
const Output = Type.Object({
  outputId: Type.String({ minLength: 1, maxLength: 64 }),
  kind: Type.Union([Type.Literal('relay'), Type.Literal('servo')]),
  /**
   * The kind of device this output physically drives (docs/decisions.md, Safety beyond the rules): only a
   * device of this type may be bound to it, and safety treats it as this type. Defaults to the
   * `device`'s type (SERVO for a servo); required for a free relay.
   */
  type: Type.Optional(DeviceType),
  pin: Pin,
  /** Relay boards that switch on a low level (most opto-isolated boards). */
  activeLow: Type.Boolean({ default: false }),
  /** Servo pulse widths in microseconds (SG90: about 500-2400). */
  openPulseUs: Type.Integer({ minimum: 500, maximum: 2500, default: 2000 }),
  closedPulseUs: Type.Integer({ minimum: 500, maximum: 2500, default: 1000 }),
  device: Type.Optional(RelayDevice),
  /** A pump's flow while running, litres per minute (water accounting); a device may set its own. */
  flowLitresPerMinute: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000 })),
});

/**
 * The MQTT bridge (docs/decisions.md, Fleet): off while `url` is unset. The password (or credentials inside
 * the url) is never printed: config errors and logs show the url without its user info.
 */
const Mqtt = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, description: 'mqtt://, mqtts://, ws:// or wss:// broker url' })),
    username: Type.Optional(Type.String({ minLength: 1 })),
    password: Type.Optional(Type.String()),
    /** Topics live under `<baseTopic>/<greenhouseId>/`; no MQTT wildcards, no leading or trailing slash. */
    baseTopic: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^#+/]+(/[^#+/]+)*$', default: 'greenhouse' }),
    clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    homeAssistant: Type.Object(
      {
        discovery: Type.Boolean({ default: true }),
        prefix: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^#+/]+(/[^#+/]+)*$', default: 'homeassistant' }),
      },
      { default: {} },
    ),
    /** Most events (sensor ticks, alerts) held while the broker is away or slow; the oldest go first. */
    queueLimit: Type.Integer({ minimum: 10, maximum: 100000, default: 1000 }),
  },
  { default: {} },
);

export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  host: Type.String({ minLength: 1, default: '0.0.0.0' }),
  dataDir: Type.String({ minLength: 1, default: './data' }),
  hardware: Type.Union([Type.Literal('simulator'), Type.Literal('raspberry-pi')], { default: 'simulator' }),
  /** Seeds a demo admin and shows its hint on the login screen. Default: on in simulator mode only. */
  demo: Type.Optional(Type.Boolean()),
  greenhouseId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', default: 'greenhouse-001' }),
  /**
   * Extra names the gateway may be reached by (a DNS name, a reverse proxy's host), beside its own
   * addresses, host name and localhost; any other Host header is refused with 421 (DNS rebinding).
   */
  allowedHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:_-]+$' }), { maxItems: 100, default: [] }),
  /** Largest accepted request body. */
  bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 10485760, default: 1048576 }),
  /**
   * Who may self-register (docs/decisions.md, Users and roles): `approval` gives a viewer that asked for a
   * role an admin grants; `open` gives the asked role at once (demos, labs); `closed` refuses.
   */
  registration: Type.Union([Type.Literal('approval'), Type.Literal('open'), Type.Literal('closed')], { default: 'approval' }),
  /** A session (one sign-in and its refreshes) ends this many days after the sign-in. */
  sessionMaxDays: Type.Number({ minimum: 0.001, maximum: 365, default: 30 }),
  /** Self-registrations per client (IP address) per window; a flood of accounts is refused with 429. */
  registrationRateLimit: Type.Object(
    {
      max: Type.Integer({ minimum: 1, maximum: 10000, default: 10 }),
      windowMs: Type.Integer({ minimum: 1000, maximum: 86400000, default: 3600000 }),
    },
    { default: {} },
  ),
  /** Caps that keep one client from exhausting the gateway's file descriptors (docs/decisions.md, Limits). */
  limits: Type.Object(
    {
      websocketsPerAccount: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
      websocketsTotal: Type.Integer({ minimum: 1, maximum: 100000, default: 200 }),
      /** Not-yet-authenticated websockets per address; a quarter of websocketsTotal is the most they take in all. */
      anonymousWebsocketsPerAddress: Type.Integer({ minimum: 1, maximum: 1000, default: 4 }),
      /** Open TCP connections in all (HTTP and websocket); more are dropped at accept. */
      connectionsTotal: Type.Integer({ minimum: 10, maximum: 100000, default: 1000 }),
      /** Open TCP connections one address may hold; more are dropped at accept (a phone uses about 6). */
      connectionsPerAddress: Type.Integer({ minimum: 4, maximum: 100000, default: 64 }),
      /** Devices in the registry: adding one more is refused (409); a thousand made /metrics 400 KB. */
      maxDevices: Type.Integer({ minimum: 1, maximum: 10000, default: 100 }),
      /** Request headers must arrive within this time; slow clients are dropped. */
      headersTimeoutMs: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
      /** An idle keep-alive connection is closed after this time. */
      keepAliveTimeoutMs: Type.Integer({ minimum: 100, maximum: 120000, default: 5000 }),
    },
    { default: {} },
  ),
  loginRateLimit: Type.Object(
    {
      max: Type.Integer({ minimum: 1, maximum: 10000, default: 10 }),
      windowMs: Type.Integer({ minimum: 1000, maximum: 86400000, default: 60000 }),
    },
    { default: {} },
  ),
  sensors: Type.Object(
    {
      /**
       * Every sensor the gateway reads, by kind (server/config/sensor-instances.ts). When set it is the
       * whole list and the keys below are ignored; when unset they become one instance each.
       */
      instances: Type.Optional(Type.Unsafe<SensorInstanceEntry[]>(Type.Array(SensorInstanceEntrySchema, { maxItems: 64 }))),
      dht11: Type.Object({ pin: Pin }, { default: { pin: 4 } }),
      ads1115: Type.Object(
        {
          bus: Type.Integer({ minimum: 0, maximum: 10, default: 1 }),
          address: Type.Integer({ minimum: 0x48, maximum: 0x4b, default: 0x48 }),
          ldrChannel: Type.Integer({ minimum: 0, maximum: 3, default: 0 }),
          soilChannel: Type.Integer({ minimum: 0, maximum: 3, default: 1 }),
          /** Raw ADC counts of the capacitive probe in dry air and in water (calibrate per probe). */
          soilDryRaw: Type.Integer({ minimum: 0, maximum: 32767, default: 17500 }),
          soilWetRaw: Type.Integer({ minimum: 0, maximum: 32767, default: 7500 }),
          /** Raw-to-lux curve of the LDR divider: points [raw, lux], interpolated in log space. */
          lightCurve: Type.Array(Type.Tuple([Type.Number({ minimum: 0 }), Type.Number({ minimum: 0 })]), {
            minItems: 2,
            default: [
              [1000, 1],
              [8000, 100],
              [16000, 1000],
              [24000, 10000],
              [30000, 60000],
            ],
          }),
        },
        { default: {} },
      ),
      hcsr04: Type.Object(
        {
          triggerPin: Pin,
          echoPin: Pin,
          /** Distance from the sensor to the tank bottom: water level = depth - measured distance. */
          tankDepthCm: Type.Number({ minimum: 5, maximum: 400 }),
        },
        { default: { triggerPin: 23, echoPin: 24, tankDepthCm: 100 } },
      ),
    },
    { default: {} },
  ),
  outputs: Type.Array(Output, {
    default: [
      { outputId: 'relay-1', kind: 'relay', pin: 17, activeLow: true, device: { deviceId: 'pump-1', deviceName: 'Irrigation Pump', deviceType: 'WATER_PUMP', powerW: 45 } },
      { outputId: 'relay-2', kind: 'relay', pin: 27, activeLow: true, device: { deviceId: 'fan-1', deviceName: 'Ventilation Fan', deviceType: 'FAN', powerW: 60 } },
      { outputId: 'relay-3', kind: 'relay', pin: 22, activeLow: true, device: { deviceId: 'light-1', deviceName: 'LED Grow Light', deviceType: 'LED_LIGHT', powerW: 150 } },
      { outputId: 'relay-4', kind: 'relay', pin: 5, activeLow: true, device: { deviceId: 'heater-1', deviceName: 'Heater', deviceType: 'HEATER', powerW: 800 } },
      { outputId: 'relay-5', kind: 'relay', pin: 6, activeLow: true, device: { deviceId: 'cooling-1', deviceName: 'Evaporative Cooler', deviceType: 'COOLING_SYSTEM', powerW: 250 } },
      { outputId: 'servo-1', kind: 'servo', pin: 18, device: { deviceId: 'window-1', deviceName: 'Roof Window', deviceType: 'SERVO', powerW: 5 } },
      { outputId: 'relay-6', kind: 'relay', type: 'WATER_PUMP', pin: 13, activeLow: true },
      { outputId: 'relay-7', kind: 'relay', type: 'FAN', pin: 19, activeLow: true },
      { outputId: 'relay-8', kind: 'relay', type: 'LED_LIGHT', pin: 26, activeLow: true },
    ],
  }),
  simulator: Type.Object(
    {
      seed: Type.Integer({ default: 42 }),
      /** Simulated seconds per real second. */
      timeScale: Type.Number({ minimum: 0.001, maximum: 100000, default: 1 }),
      /** Simulated clock start (ISO-8601); default: now. */
      startAt: Type.Optional(Type.String({ format: 'date-time' })),
    },
    { default: {} },
  ),
  /**
   * Whether the wall clock is trusted (docs/hardware.md, "Time without a clock"): `check` waits for
   * systemd-timesyncd's marker, `assume` trusts the clock as it is. Default: `check` on a Raspberry Pi
   * (no real-time clock), `assume` in simulator mode.
   */
  clockSync: Type.Object(
    {
      mode: Type.Optional(Type.Union([Type.Literal('check'), Type.Literal('assume')])),
      markerPath: Type.String({ minLength: 1, default: '/run/systemd/timesync/synchronized' }),
    },
    { default: {} },
  ),
  /** Where the greenhouse stands: sunrise/sunset schedules need it (decimal degrees, north and east positive). */
  site: Type.Object(
    {
      latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
      longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    },
    { default: {} },
  ),
  light: Type.Object(
    {
      /**
       * PPFD (µmol/m²/s) per lux, to estimate the daily light integral from the LDR: 0.0185 for
       * sunlight (Thimijan & Heins 1983); white LEDs are nearer 0.014-0.019 depending on their spectrum.
       */
      ppfdPerLux: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.0185 }),
    },
    { default: {} },
  ),
  /**
   * Where backups go (docs/storage.md, Backups). Unset: `backups/` in the data dir. Set (an absolute
   * path, e.g. a USB stick mounted at /media/greenhouse-backup): there only; when it is missing, not
   * writable or not a mounted disk of its own, the backup is skipped with an alert, never written to
   * the SD card instead.
   */
  backup: Type.Object(
    {
      dir: Type.Optional(Type.String({ minLength: 2, pattern: '^/' })),
    },
    { default: {} },
  ),
  mqtt: Mqtt,
  /**
   * HTTPS beside HTTP (docs/https.md): off while `port` is null. Without `certFile`/`keyFile` the
   * gateway issues its own certificate from a local CA kept in `<dataDir>/tls/` for its host names,
   * its addresses, `allowedHosts` and `hostNames`; with both, it serves the grower's pair as it is.
   */
  https: Type.Object(
    {
      port: Type.Union([Type.Integer({ minimum: 0, maximum: 65535 }), Type.Null()], { default: null }),
      certFile: Type.Optional(Type.String({ minLength: 1 })),
      keyFile: Type.Optional(Type.String({ minLength: 1 })),
      hostNames: Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:_-]+$' }), { maxItems: 50, default: [] }),
    },
    { default: {} },
  ),
  /**
   * Web Push (docs/https.md): the VAPID subject the push services may contact about this sender, a
   * `mailto:` or `https:` URL. Apple's service refuses a subject at `localhost`: set a real address.
   */
  webPush: Type.Object(
    {
      subject: Type.String({ pattern: '^(mailto:|https://)', default: 'mailto:greenhouse-gateway@example.invalid' }),
      /**
       * Push services a subscription's endpoint may point at (`*.` matches any subdomain): the gateway
       * POSTs to that URL, so a signed-in viewer must not be able to aim it at any host of the LAN.
       * Chrome/Android, Firefox, Safari/iOS and Edge by default.
       */
      endpointHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^(\\*\\.)?[A-Za-z0-9.:_-]+$' }), {
        maxItems: 50,
        default: ['fcm.googleapis.com', 'android.googleapis.com', '*.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'],
      }),
    },
    { default: {} },
  ),
  /** Alert channels (server/notifications/README.md); the channels themselves are managed from the dashboard. */
  notifications: Type.Object(
    {
      /**
       * The dashboard's address as a grower's phone reaches it, for the link in a notification (ntfy's
       * click opens the alert to acknowledge). Unset: http://<host name>.local:<port>.
       */
      publicUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
      /** The Telegram Bot API's base address (a local stand-in in tests). */
      telegramApiUrl: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://api.telegram.org' }),
    },
    { default: {} },
  ),
  smtp: Type.Union(
    [
      Type.Object({
        host: Type.String({ minLength: 1 }),
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        secure: Type.Boolean({ default: false }),
        user: Type.Optional(Type.String()),
        pass: Type.Optional(Type.String()),
        from: Type.String({ minLength: 3 }),
      }),
      Type.Null(),
    ],
    { default: null },
  ),
});

export type Config = Static<typeof ConfigSchema>;
export type OutputConfig = Config['outputs'][number];
export type MqttConfig = Config['mqtt'];

/** A configured output as the loaded config holds it: its wired type always set. */
export type WiredOutput = OutputConfig & { type: DeviceType };

/** The type an output is wired for: its `type`, else its device's, else SERVO for a servo; null if unknown. */
export function wiredTypeOf(output: Pick<OutputConfig, 'type' | 'kind' | 'device'>): DeviceType | null {
  return output.type ?? output.device?.deviceType ?? (output.kind === 'servo' ? 'SERVO' : null);
}
