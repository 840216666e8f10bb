import type { Clock } from '../../common/clock.ts';
import { and, asc, desc, eq, gte, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  EMPTY_RULES,
  type AutomationRules,
  type ControlLog,
  type ControlSource,
  type Device,
  type DeviceStatus,
  type DeviceType,
  type OutputBinding,
  type SensorLossAction,
} from '../contract/device.ts';
import type { WiredOutput as OutputConfig } from '../config/schema.ts';
import { deviceIdKey, deviceNameKey } from '../../common/device-names.ts';
import { toIso, type Db } from '../db/open.ts';
import { controlLog, devices } from '../db/schema.ts';
import { untilWritten, untilWrittenByKey, WriteGeneration } from '../db/write-generation.ts';

type DeviceRow = typeof devices.$inferSelect;
type LogRow = typeof controlLog.$inferSelect;

export interface NewDevice {
  deviceId: string;
  deviceName: string;
  deviceType: DeviceType;
  location: string;
  powerConsumption: number;
  outputId: string | null;
  status: DeviceStatus;
}

export interface DevicePatch {
  deviceName?: string;
  location?: string;
  powerConsumption?: number;
  outputId?: string | null;
  autoMode?: boolean;
  automationRules?: AutomationRules;
  sensorLossAction?: SensorLossAction;
  sensorLossDutyPct?: number | null;
  flowLitresPerMinute?: number | null;
}

export interface StateChange {
  deviceId: string;
  action: string;
  previousStatus: DeviceStatus;
  newStatus: DeviceStatus;
  source: ControlSource;
  actor: string;
  reason: string;
  atMs: number;
  /** A roof window's opening (0-100); default fully open when opened, 0 when closed. */
  openPct?: number;
}

export interface DevicesRepoDeps {
  db: Db;
  greenhouseId: string;
  outputs: readonly OutputConfig[];
  /**
   * Whether the hardware could open an output. Fixed once the hardware is open (outputs are opened at
   * start and never again), which is why Devices carrying it may be kept until the database is written.
   */
  isAvailable: (outputId: string) => boolean;
  clock: Clock;
}

/**
 * The `devices` and `control_log` tables. Knows the configured outputs so every Device it returns
 * carries its binding; `isAvailable` says whether the hardware could open that output.
 */
export class DevicesRepo {
  readonly #outputs: Map<string, OutputConfig>;
  readonly greenhouseId: string;
  #explain: ((device: Device, all?: readonly Device[]) => Device) | null = null;
  #prepared: TickStatements | null = null;
  /**
   * The rows as Devices and each device's newest log entry, kept until anything is written: every
   * sampling tick asks for them a dozen times (safety, rules, locks, alerts) and they change only on a
   * switch or an edit (server/db/write-generation.ts). Frozen, since every caller shares them.
   */
  readonly #plainDevices: () => readonly Device[];
  readonly #newestLog: (deviceId: string) => ControlLog | null;
  /**
   * States the hardware is in but the database could not take (a full SD card, a file system gone
   * read-only: ControlService, and the safe state at start). Every reader sees them until the device's
   * next state change is written; the gateway starts with every output off, so none outlives the process.
   */
  readonly #unrecorded = new Map<string, { change: StateChange; why: string }>();
  /** Devices whose auto mode Turn Off All switched off but could not write (see #unrecorded): read as off. */
  readonly #autoModeHeldOff = new Set<string>();

  constructor(private readonly deps: DevicesRepoDeps) {
    this.greenhouseId = deps.greenhouseId;
    this.#outputs = new Map(deps.outputs.map((o) => [o.outputId, o]));
    const generation = new WriteGeneration(deps.db.$client);
    this.#plainDevices = untilWritten(generation, () => this.#statements().list.all().map((r) => deepFreeze(this.#toDevice(r))));
    this.#newestLog = untilWrittenByKey(generation, (deviceId) => {
      const row = this.#statements().newestLog.get({ deviceId });
      return row ? deepFreeze(toControlLog(row)) : null;
    });
  }

  outputConfig(outputId: string): OutputConfig | undefined {
    return this.#outputs.get(outputId);
  }

  configuredOutputs(): OutputConfig[] {
    return [...this.#outputs.values()];
  }

  /**
   * Fills `stateReason` and `locks` of every device this repo answers (list, find, state changes), so
   * no answer or event carries a stale card. Safety reads the plain rows (listPlain) to compute them.
   */
  useExplainer(explain: (device: Device, all?: readonly Device[]) => Device): void {
    this.#explain = explain;
  }

  list(): Device[] {
    // One read of the rows serves every device's locks (the interlock looks at the others).
    const plain = this.listPlain();
    return plain.map((d) => this.#explained(d, plain));
  }

  /** The rows without stateReason and locks (what safety and the lock computation read). */
  listPlain(): Device[] {
    const rows = this.#plainDevices();
    return this.#unrecorded.size === 0 && this.#autoModeHeldOff.size === 0 ? [...rows] : rows.map((device) => this.#asDriven(device));
  }

  /** Devices of this greenhouse (one COUNT, for the registry's cap). */
  count(): number {
    return this.deps.db.select({ n: sql<number>`count(*)` }).from(devices).where(eq(devices.greenhouseId, this.greenhouseId)).get()?.n ?? 0;
  }

  find(deviceId: string): Device | null {
    const device = this.findPlain(deviceId);
    return device ? this.#explained(device) : null;
  }

  /** One device's row without stateReason and locks: for readers that need its settings only. */
  findPlain(deviceId: string): Device | null {
    const device = this.#plainDevices().find((d) => d.deviceId === deviceId);
    return device ? this.#asDriven(device) : null;
  }

  /** The hardware's state of a device whose switch could not be written (see #unrecorded), and why not. */
  holdUnrecorded(change: StateChange, why: string): void {
    this.#unrecorded.set(change.deviceId, { change, why });
  }

  /** Auto mode off for a device whose automation could not be written (Turn Off All on a full card), until it is. */
  holdAutoModeOff(deviceId: string): void {
    this.#autoModeHeldOff.add(deviceId);
  }

  #asDriven(device: Device): Device {
    const held = this.#unrecorded.get(device.deviceId)?.change;
    const autoModeOff = this.#autoModeHeldOff.has(device.deviceId);
    if (!held && !autoModeOff) return device;
    const opening = held && device.deviceType === 'SERVO' ? { openPct: held.newStatus === 'OPEN' ? (held.openPct ?? 100) : 0 } : {};
    const state = held ? { status: held.newStatus, updatedAt: new Date(held.atMs).toISOString() } : {};
    return deepFreeze({ ...device, ...state, ...opening, ...(autoModeOff ? { autoMode: false } : {}) });
  }

  #explained(device: Device, all?: readonly Device[]): Device {
    return this.#explain ? this.#explain(device, all) : device;
  }

  /** Another device whose id equals `deviceId` regardless of case (common/device-names.ts). */
  idClash(deviceId: string, exceptDeviceId?: string): Device | null {
    const key = deviceIdKey(deviceId);
    return this.listPlain().find((d) => d.deviceId !== exceptDeviceId && deviceIdKey(d.deviceId) === key) ?? null;
  }

  /** Another device whose name reads the same (trimmed, spaces folded, case ignored: common/device-names.ts). */
  nameClash(deviceName: string, exceptDeviceId?: string): Device | null {
    const key = deviceNameKey(deviceName);
    return this.listPlain().find((d) => d.deviceId !== exceptDeviceId && deviceNameKey(d.deviceName) === key) ?? null;
  }

  /**
   * `write` in one immediate transaction: it holds SQLite's write lock from its first read, so a check
   * and the write it guards (a unique name, then the insert) cannot be split by another writer.
   */
  exclusive<T>(write: () => T): T {
    return this.deps.db.$client.transaction(write).immediate();
  }

  /** The device bound to an output, if any. */
  findByOutput(outputId: string): Device | null {
    const row = this.deps.db.select().from(devices).where(eq(devices.outputId, outputId)).get();
    return row ? this.#toDevice(row) : null;
  }

  insert(input: NewDevice): Device {
    const nowDate = new Date(this.deps.clock.now());
    this.deps.db
      .insert(devices)
      .values({
        deviceId: input.deviceId,
        greenhouseId: this.greenhouseId,
        name: input.deviceName,
        type: input.deviceType,
        status: input.status,
        powerW: input.powerConsumption,
        location: input.location,
        automationRules: { ...EMPTY_RULES },
        outputId: input.outputId,
        createdAt: nowDate,
        updatedAt: nowDate,
      })
      .run();
    return this.find(input.deviceId)!;
  }

  update(deviceId: string, patch: DevicePatch): Device {
    const set: Partial<typeof devices.$inferInsert> = { updatedAt: new Date(this.deps.clock.now()) };
    if (patch.deviceName !== undefined) set.name = patch.deviceName;
    if (patch.location !== undefined) set.location = patch.location;
    if (patch.powerConsumption !== undefined) set.powerW = patch.powerConsumption;
    if (patch.outputId !== undefined) set.outputId = patch.outputId;
    if (patch.autoMode !== undefined) set.autoMode = patch.autoMode;
    if (patch.automationRules !== undefined) set.automationRules = patch.automationRules;
    if (patch.sensorLossAction !== undefined) set.sensorLossAction = patch.sensorLossAction;
    if (patch.sensorLossDutyPct !== undefined) set.sensorLossDutyPct = patch.sensorLossDutyPct;
    if (patch.flowLitresPerMinute !== undefined) set.flowLitresPerMinute = patch.flowLitresPerMinute;
    this.deps.db.update(devices).set(set).where(eq(devices.deviceId, deviceId)).run();
    // The row is written: it says the device's auto mode again.
    this.#autoModeHeldOff.delete(deviceId);
    return this.find(deviceId)!;
  }

  remove(deviceId: string): void {
    this.deps.db.delete(devices).where(eq(devices.deviceId, deviceId)).run();
    this.#unrecorded.delete(deviceId);
    this.#autoModeHeldOff.delete(deviceId);
  }

  /** Writes the new status and its control-log row in one transaction (a power cut keeps both or neither). */
  recordStateChange(change: StateChange): { device: Device; controlLog: ControlLog } {
    const at = new Date(change.atMs);
    const turnedOn = change.newStatus === 'ON' || change.newStatus === 'OPEN';
    // Only a window (OPEN/CLOSED) has an opening; closed is 0 whatever was asked.
    const window = change.newStatus === 'OPEN' || change.newStatus === 'CLOSED';
    const openPct = window ? (turnedOn ? (change.openPct ?? 100) : 0) : undefined;
    const logRow = this.deps.db.transaction((tx) => {
      tx.update(devices)
        .set({
          status: change.newStatus,
          updatedAt: at,
          ...(turnedOn && change.previousStatus !== change.newStatus ? { lastActivatedAt: at } : {}),
          ...(openPct !== undefined ? { openPct } : {}),
        })
        .where(eq(devices.deviceId, change.deviceId))
        .run();
      return tx
        .insert(controlLog)
        .values({
          deviceId: change.deviceId,
          greenhouseId: this.greenhouseId,
          action: change.action,
          previousStatus: change.previousStatus,
          newStatus: change.newStatus,
          source: change.source,
          actor: change.actor,
          reason: change.reason,
          createdAt: at,
        })
        .returning()
        .get();
    });
    this.#unrecorded.delete(change.deviceId);
    return { device: this.find(change.deviceId)!, controlLog: toControlLog(logRow) };
  }

  /**
   * Newest first; `source` keeps one kind of cause. Paging back: `beforeMs` alone keeps entries strictly
   * older; with `beforeId` the cursor is (time, id), the same order as the listing, so two entries written
   * in the same millisecond are not split across a page boundary and lost.
   */
  controlLog(deviceId: string, limit: number, filter: { source?: ControlSource; beforeMs?: number; beforeId?: number } = {}): ControlLog[] {
    const where: SQL[] = [eq(controlLog.deviceId, deviceId)];
    if (filter.source) where.push(eq(controlLog.source, filter.source));
    if (filter.beforeMs !== undefined) {
      const before = new Date(filter.beforeMs);
      const older = lt(controlLog.createdAt, before);
      where.push(filter.beforeId === undefined ? older : or(older, and(eq(controlLog.createdAt, before), lt(controlLog.id, filter.beforeId)))!);
    }
    return this.deps.db
      .select()
      .from(controlLog)
      .where(and(...where))
      .orderBy(desc(controlLog.createdAt), desc(controlLog.id))
      .limit(limit)
      .all()
      .map(toControlLog);
  }

  /**
   * Every actual state change since a time, oldest first (the run ledger's memory across restarts), of
   * every device or of one (a pump's water: read on every metrics scrape, through its own index).
   */
  stateChangesSince(sinceMs: number, deviceId?: string): Array<{ deviceId: string; on: boolean; atMs: number }> {
    const statements = this.#statements();
    const rows = deviceId === undefined ? statements.stateChanges.all({ sinceMs }) : statements.deviceStateChanges.all({ sinceMs, deviceId });
    return rows.map((r) => ({ deviceId: r.deviceId, on: r.newStatus === 'ON' || r.newStatus === 'OPEN', atMs: r.createdAt.getTime() }));
  }

  /** The device's newest control-log entry (its state's reason, read for every device on every tick). */
  newestLog(deviceId: string): ControlLog | null {
    const held = this.#unrecorded.get(deviceId);
    if (!held) return this.#newestLog(deviceId);
    // The card's reason: the switch the database could not take, saying so. Never stored, so no row id.
    const { change, why } = held;
    return {
      _id: 'unrecorded',
      deviceId,
      action: change.action,
      previousStatus: change.previousStatus,
      newStatus: change.newStatus,
      source: change.source,
      actor: change.actor,
      reason: `${change.reason} (not recorded: ${why})`,
      timestamp: new Date(change.atMs).toISOString(),
    };
  }

  /** When the device last actually changed state (epoch ms), or null: the rule engine's min on/off times. */
  lastSwitchedAtMs(deviceId: string): number | null {
    // A switch the database could not take is the newest there is.
    const held = this.#unrecorded.get(deviceId);
    if (held) return held.change.atMs;
    const row = this.#statements().lastSwitch.get({ deviceId });
    return row ? row.createdAt.getTime() : null;
  }

  /** The per-tick statements (tickStatements), made on first use, once the migrations have run. */
  #statements(): TickStatements {
    this.#prepared ??= tickStatements(this.deps.db, this.greenhouseId);
    return this.#prepared;
  }

  #binding(outputId: string | null): OutputBinding | null {
    if (outputId === null) return null;
    const config = this.#outputs.get(outputId);
    if (!config) return null;
    return { outputId, kind: config.kind, pin: config.pin, available: this.deps.isAvailable(outputId) };
  }

  #toDevice(row: DeviceRow): Device {
    return {
      _id: String(row.id),
      deviceId: row.deviceId,
      greenhouseId: row.greenhouseId,
      deviceName: row.name,
      deviceType: row.type as DeviceType,
      status: row.status as DeviceStatus,
      powerConsumption: row.powerW,
      intensity: row.intensityPct,
      autoMode: row.autoMode,
      location: row.location,
      lastActivated: toIso(row.lastActivatedAt),
      automationRules: { ...EMPTY_RULES, ...(row.automationRules as Partial<AutomationRules>) },
      sensorLossAction: row.sensorLossAction,
      sensorLossDutyPct: row.sensorLossDutyPct,
      // Filled by DeviceStateView from the control log and the live safety state.
      stateReason: null,
      locks: [],
      output: this.#binding(row.outputId),
      // The device's own flow, else what its output's config says (docs/irrigation.md, water accounting).
      flowLitresPerMinute: row.flowLitresPerMinute ?? (row.outputId === null ? null : (this.#outputs.get(row.outputId)?.flowLitresPerMinute ?? null)),
      ...(row.type === 'SERVO' ? { openPct: row.openPct ?? (row.status === 'OPEN' ? 100 : 0) } : {}),
      createdAt: toIso(row.createdAt),
      updatedAt: toIso(row.updatedAt),
    };
  }
}

/** Freezes a plain value and everything in it (a Device or a ControlLog shared by every caller). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function toControlLog(row: LogRow): ControlLog {
  return {
    _id: String(row.id),
    deviceId: row.deviceId,
    action: row.action,
    previousStatus: row.previousStatus as DeviceStatus,
    newStatus: row.newStatus as DeviceStatus,
    source: row.source,
    actor: row.actor,
    reason: row.reason,
    timestamp: toIso(row.createdAt),
  };
}

/**
 * The queries every sampling tick makes (the device list, each device's newest log entry and last
 * switch), prepared once: building them through drizzle and having SQLite compile them again on every
 * tick was most of a tick's main-thread time (12 ms of 13 here, so about 100 ms of the event loop every
 * tick on a Pi core; docs/performance.md).
 */
function tickStatements(db: Db, greenhouseId: string) {
  const stateChange = { deviceId: controlLog.deviceId, newStatus: controlLog.newStatus, createdAt: controlLog.createdAt };
  // A placeholder is bound as it is given: created_at's stored form, epoch ms.
  const changedSince = and(eq(controlLog.greenhouseId, greenhouseId), gte(controlLog.createdAt, sql.placeholder('sinceMs')), ne(controlLog.previousStatus, controlLog.newStatus));
  return {
    list: db.select().from(devices).where(eq(devices.greenhouseId, greenhouseId)).orderBy(devices.id).prepare(),
    stateChanges: db.select(stateChange).from(controlLog).where(changedSince).orderBy(asc(controlLog.createdAt), asc(controlLog.id)).prepare(),
    deviceStateChanges: db
      .select(stateChange)
      .from(controlLog)
      .where(and(changedSince, eq(controlLog.deviceId, sql.placeholder('deviceId'))))
      .orderBy(asc(controlLog.createdAt), asc(controlLog.id))
      .prepare(),
    newestLog: db
      .select()
      .from(controlLog)
      .where(eq(controlLog.deviceId, sql.placeholder('deviceId')))
      .orderBy(desc(controlLog.createdAt), desc(controlLog.id))
      .limit(1)
      .prepare(),
    lastSwitch: db
      .select({ createdAt: controlLog.createdAt })
      .from(controlLog)
      .where(and(eq(controlLog.deviceId, sql.placeholder('deviceId')), ne(controlLog.previousStatus, controlLog.newStatus)))
      .orderBy(desc(controlLog.createdAt), desc(controlLog.id))
      .limit(1)
      .prepare(),
  };
}

type TickStatements = ReturnType<typeof tickStatements>;
