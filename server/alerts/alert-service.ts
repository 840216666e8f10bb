import { evaluateBackup } from './backup-alert.ts';
import { evaluateChannelHealth } from './channel-alert.ts';
import { evaluateStorage } from './storage-alert.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import { isStorageRefusal } from '../db/storage-refusal.ts';
import type { Alert, AlertStats, Severity } from '../contract/alert.ts';
import { MANUAL_RESOLUTION } from '../contract/alert.ts';
import type { SensorSnapshot, SensorType } from '../contract/reading.ts';
import type { EventBus } from '../events/bus.ts';
import { conflict, notFound } from '../domain/errors.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { toAlert, type AlertFilter, type AlertRow, type AlertsRepo, type NewAlert } from './alerts-repo.ts';
import type { EmailNotifier } from './email-notifier.ts';
import { evaluateCondensation, type CondensationState } from './condensation.ts';
import { evaluateSafety, evaluateSensorHealth, evaluateInstanceHealth, evaluateThresholds, SEVERITY_RANK, type AlertDraft, type Evaluation } from './evaluator.ts';

export interface AlertServiceDeps {
  repo: AlertsRepo;
  bus: EventBus;
  settings: SettingsService;
  notifier: EmailNotifier;
  clock: Clock;
  logger: Logger;
  /** Names of the auto-mode devices that depend on a sensor (a fault of it is then CRITICAL). */
  dependentsOf?: (sensorType: SensorType) => string[];
  /** Why a safety lockout's alert may not be resolved yet (its cause persists), or null. */
  lockoutCause?: (alertType: string, deviceId: string | null) => string | null;
}

const OWNER = 'alerts';
/** An unrecorded alert is told again after this long (the dispatcher's REPEAT_WINDOW_MS for stored ones). */
export const UNRECORDED_REPEAT_MS = 30 * 60_000;

/** An alert the gateway raised but could not store: what a channel needs to hear of it. */
export interface UnrecordedAlert {
  alertType: string;
  severity: Severity;
  message: string;
  deviceId: string | null;
  raisedAtMs: number;
}

/**
 * Turns what happens in the greenhouse into alerts: feeds bus events to the pure evaluator, applies its
 * decision to the database, and announces every change on the bus (the realtime bridge relays it).
 */
export class AlertService {
  #offs: Array<() => void> = [];
  /** The last snapshot, so a threshold change is applied at once rather than at the next tick. */
  #lastSnapshot: SensorSnapshot | null = null;
  /**
   * Threshold causes a person resolved or deleted while still out of range, with the alert's severity
   * (see evaluateThresholds). Kept in memory: after a restart a persisting condition is reported again.
   */
  readonly #acknowledged = new Map<string, Severity>();
  #condensation: CondensationState = { withinMarginSinceMs: null };
  /** Causes whose alert could not be stored, when they were last told and how bad (see #unrecorded). */
  readonly #unrecordedTold = new Map<string, { atMs: number; rank: number }>();

  constructor(private readonly deps: AlertServiceDeps) {}

  start(): void {
    const { bus } = this.deps;
    this.#offs = [
      bus.on('sampleTaken', OWNER, ({ snapshot }) => {
        this.#lastSnapshot = snapshot;
        this.#evaluateSnapshot(snapshot);
        const condensation = evaluateCondensation(snapshot, this.#condensation, this.deps.repo.activeByCause(), this.deps.clock.now());
        this.#condensation = condensation.state;
        this.#apply(condensation.evaluation);
      }),
      bus.on('settingsChanged', OWNER, () => {
        if (this.#lastSnapshot) this.#evaluateSnapshot(this.#lastSnapshot);
      }),
      bus.on('sensorHealthChanged', OWNER, (event) => {
        const dependents = event.healthy ? [] : (this.deps.dependentsOf?.(event.sensorType) ?? []);
        this.#apply(evaluateSensorHealth(event, this.deps.repo.activeByCause(), dependents));
      }),
      bus.on('sensorInstanceHealthChanged', OWNER, (event) => this.#apply(evaluateInstanceHealth(event, this.deps.repo.activeByCause()))),
      bus.on('safetyEvent', OWNER, (event) => this.#apply(evaluateSafety(event, this.deps.repo.activeByCause()))),
      bus.on('backupOutcome', OWNER, (event) => this.#apply(evaluateBackup(event, this.deps.repo.activeByCause()))),
      bus.on('storageChecked', OWNER, (event) => this.#apply(evaluateStorage(event, this.deps.repo.activeByCause()))),
      bus.on('channelHealthChanged', OWNER, (event) => this.#apply(evaluateChannelHealth(event, this.deps.repo.activeByCause()))),
    ];
  }

  async stop(): Promise<void> {
    for (const off of this.#offs) off();
    this.#offs = [];
    await this.deps.notifier.flush();
    this.deps.notifier.close();
  }

  list(filter: AlertFilter): Alert[] {
    return this.deps.repo.list(filter).map(toAlert);
  }

  stats(): AlertStats {
    return this.deps.repo.stats();
  }

  /** An alert created by a person or another system (POST); it has no cause, so no deduplication. */
  create(alert: Omit<NewAlert, 'causeKey'>): Alert {
    return this.#raise({ ...alert, causeKey: null });
  }

  resolve(id: number, actionTaken: string = MANUAL_RESOLUTION): Alert {
    this.#refuseWhileLockedOut(id);
    const row = this.deps.repo.resolve(id, actionTaken);
    if (!row) {
      const existing = this.deps.repo.findById(id);
      if (!existing) throw notFound(`Alert ${id} not found`);
      throw conflict(`Alert ${id} is already resolved`);
    }
    this.#acknowledge(row);
    const alert = toAlert(row);
    this.deps.bus.emit('alertResolved', { alert });
    return alert;
  }

  /**
   * A person saw the alert (dashboard, or the link in a notification): an unacknowledged CRITICAL is no
   * longer sent again. Acknowledging twice keeps the first; a resolved alert is 409 (nothing to stop).
   */
  acknowledge(id: number, by: string): Alert {
    const existing = this.deps.repo.findById(id);
    if (!existing) throw notFound(`Alert ${id} not found`);
    if (existing.isResolved) throw conflict(`Alert ${id} is already resolved`);
    const alert = toAlert(this.deps.repo.acknowledge(id, by)!);
    if (existing.acknowledgedAt === null) this.deps.bus.emit('alertAcknowledged', { alert });
    return alert;
  }

  /** Active CRITICAL alerts nobody acknowledged since `dueMs` (created or last sent again before it). */
  dueForEscalation(dueMs: number): Alert[] {
    return this.deps.repo.dueForEscalation(dueMs).map(toAlert);
  }

  markEscalated(id: number): void {
    this.deps.repo.markEscalated(id);
  }

  /** Deletes an unresolved alert; resolved alerts are history and stay (409). */
  delete(id: number): void {
    const existing = this.deps.repo.findById(id);
    if (!existing) throw notFound(`Alert ${id} not found`);
    if (existing.isResolved) throw conflict(`Alert ${id} is resolved; resolved alerts are kept as history`);
    this.#refuseWhileLockedOut(id);
    this.deps.repo.delete(id);
    this.#acknowledge(existing);
  }

  /** A lockout's alert (dry run, run budget, cut-off) stays while its cause does: 409 saying why. */
  #refuseWhileLockedOut(id: number): void {
    const row = this.deps.repo.findById(id);
    if (!row || row.isResolved) return;
    const cause = this.deps.lockoutCause?.(row.alertType, row.deviceId);
    if (cause) throw conflict(`Alert ${id} cannot be resolved while its cause persists: ${cause}`);
  }

  #acknowledge(row: AlertRow): void {
    if (row.causeKey?.startsWith('threshold:')) this.#acknowledged.set(row.causeKey, row.severity);
  }

  #evaluateSnapshot(snapshot: SensorSnapshot): void {
    const thresholds = this.deps.settings.get().alertThresholds;
    this.#apply(evaluateThresholds(snapshot, thresholds, this.deps.repo.activeByCause(), this.deps.clock.now(), this.#acknowledged));
  }

  #apply(evaluation: Evaluation): void {
    for (const causeKey of evaluation.clearAcknowledged) this.#acknowledged.delete(causeKey);
    for (const resolution of evaluation.resolve) {
      let row: AlertRow | undefined;
      try {
        row = this.deps.repo.resolve(resolution.id, resolution.actionTaken);
      } catch (err) {
        if (!isStorageRefusal(err)) throw err;
        // Stays active in the database; resolved at a later reading once writes are taken again.
        this.deps.logger.warn({ err: err.message, alertId: resolution.id }, 'alert not resolved: the storage refuses writes');
        continue;
      }
      if (row) this.deps.bus.emit('alertResolved', { alert: toAlert(row) });
    }
    for (const draft of evaluation.escalate) {
      let row: AlertRow | undefined;
      try {
        row = this.deps.repo.escalate(draft.id, { severity: draft.severity, message: draft.message, value: draft.value });
      } catch (err) {
        if (!isStorageRefusal(err)) throw err;
        this.#unrecorded(draft, err);
        continue;
      }
      if (!row) continue;
      const alert = toAlert(row);
      // Same _id: the dashboard replaces the alert it shows (spec: a realtime event replaces by _id).
      this.deps.bus.emit('alertRaised', { alert });
      this.deps.notifier.notify(alert, draft.causeKey);
    }
    for (const draft of evaluation.raise) {
      const { causeKey, alertType, severity, message, deviceId, value, threshold } = draft;
      this.#acknowledged.delete(causeKey);
      try {
        this.#raise({ causeKey, alertType, severity, message, deviceId, value, threshold });
      } catch (err) {
        if (isStorageRefusal(err)) this.#unrecorded(draft, err);
        // The unique index on active cause keys refused a duplicate: the alert is already there.
        else this.deps.logger.error({ err, causeKey }, 'alert not raised');
      }
    }
  }

  /**
   * An alert raised or made worse that the storage refused: nowhere to keep it, the outbox included, so
   * the notifications feature sends it past the outbox (docs/storage.md, "When the storage refuses a
   * write"). Its cause persists, so it comes again at every evaluation: it is told again only when it
   * got worse, or after the repeat window, as the dispatcher spaces a flapping alert.
   */
  #unrecorded(draft: AlertDraft, err: Error): void {
    const nowMs = this.deps.clock.now();
    for (const [cause, last] of this.#unrecordedTold) if (nowMs - last.atMs >= UNRECORDED_REPEAT_MS) this.#unrecordedTold.delete(cause);
    const rank = SEVERITY_RANK[draft.severity];
    const last = this.#unrecordedTold.get(draft.causeKey);
    if (last && rank <= last.rank) return;
    this.#unrecordedTold.set(draft.causeKey, { atMs: nowMs, rank });
    this.deps.logger.error({ causeKey: draft.causeKey, severity: draft.severity, err: err.message }, 'alert not stored (the storage refuses writes): sent past the outbox');
    const alert = { alertType: draft.alertType, severity: draft.severity, message: draft.message, deviceId: draft.deviceId, raisedAtMs: nowMs };
    this.deps.bus.emit('alertUnrecorded', { alert, error: err.message });
  }

  #raise(alert: NewAlert): Alert {
    const created = toAlert(this.deps.repo.insert(alert));
    this.deps.bus.emit('alertRaised', { alert: created });
    this.deps.notifier.notify(created, alert.causeKey);
    return created;
  }
}
