import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import { SEVERITY_RANK } from '../alerts/evaluator.ts';
import type { Alert, KnownAlertType } from '../contract/alert.ts';
import type { EventBus } from '../events/bus.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { ChannelHealth } from './channel-health.ts';
import { ChannelsRepo, toStored } from './channels-repo.ts';
import { alertMessage } from './message.ts';
import type { OutboxRepo } from './outbox-repo.ts';
import type { OutboxWorker } from './outbox-worker.ts';
import { inQuietHours } from './quiet-hours.ts';

const OWNER = 'notifications';
const CHANNEL_FAILING = 'CHANNEL_FAILING' satisfies KnownAlertType;
/** How often unacknowledged CRITICAL alerts are looked for; escalation is at most this late. */
export const ESCALATION_CHECK_MS = 60_000;
/**
 * A channel hears of the same kind of alert from the same device at most once in this window unless it
 * got worse: a reading flapping around its threshold raises a new alert every few minutes, and a phone
 * that buzzes all night gets muted (the e-mail notifier keeps the same 30 minutes per cause).
 */
export const REPEAT_WINDOW_MS = 30 * 60_000;

/** What the dispatcher asks of the alerts feature. */
export interface EscalationSource {
  dueForEscalation(dueMs: number): Alert[];
  markEscalated(id: number): void;
}

export interface DispatcherDeps {
  bus: EventBus;
  channels: ChannelsRepo;
  outbox: OutboxRepo;
  worker: OutboxWorker;
  alerts: EscalationSource;
  settings: SettingsService;
  clock: Clock;
  logger: Logger;
  publicUrl: () => string;
  /** Which channels are failing: news of a failing channel goes only to the others (./channel-health.ts). */
  health?: Pick<ChannelHealth, 'isFailing'>;
}

/**
 * Decides who hears of an alert: each channel at or above its minimum severity and outside its quiet
 * hours, once per alert and severity. An unacknowledged CRITICAL goes again to every channel every
 * `systemSettings.escalateAfterMinutes`, quiet hours or not, until someone acknowledges or it resolves.
 */
export class NotificationDispatcher {
  #off: (() => void) | null = null;
  #timer: TimerHandle | null = null;
  /** Last alert sent per channel and cause (type and device), with its severity rank. In memory: a restart may send one repeat. */
  readonly #lastSent = new Map<string, { atMs: number; rank: number }>();

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.#off = this.deps.bus.on('alertRaised', OWNER, ({ alert }) => this.onAlert(alert));
    this.#scheduleEscalation();
  }

  stop(): void {
    this.#off?.();
    this.#off = null;
    if (this.#timer) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  onAlert(alert: Alert): void {
    const nowMs = this.deps.clock.now();
    let queued = 0;
    for (const row of this.deps.channels.list()) {
      const channel = toStored(row);
      if (SEVERITY_RANK[alert.severity] < SEVERITY_RANK[channel.minSeverity]) continue;
      if (inQuietHours(channel.quietHours, nowMs)) continue;
      if (alert.alertType === CHANNEL_FAILING && this.deps.health?.isFailing(channel.channelId)) continue;
      if (this.deps.outbox.alreadyQueued(Number(alert._id), channel.channelId, alert.severity)) continue;
      // A failing channel has no device: the news of each one is its own.
      const subject = alert.alertType === CHANNEL_FAILING ? alert._id : (alert.deviceId ?? '');
      const cause = `${channel.channelId}|${alert.alertType}|${subject}`;
      const last = this.#lastSent.get(cause);
      if (last && nowMs - last.atMs < REPEAT_WINDOW_MS && SEVERITY_RANK[alert.severity] <= last.rank) continue;
      this.#lastSent.set(cause, { atMs: nowMs, rank: SEVERITY_RANK[alert.severity] });
      this.deps.outbox.enqueue({ channelId: channel.channelId, alertId: Number(alert._id), reason: 'alert', message: alertMessage(alert, 'alert', this.deps.publicUrl()) });
      queued++;
    }
    if (queued > 0) this.deps.worker.kick();
  }

  /** Forgets causes whose window has passed, so the map stays as small as the recent alerts. */
  #forgetOld(nowMs: number): void {
    for (const [cause, last] of this.#lastSent) if (nowMs - last.atMs >= REPEAT_WINDOW_MS) this.#lastSent.delete(cause);
  }

  /** Sends every due unacknowledged CRITICAL again to every channel (also called by tests). */
  escalateDue(): void {
    this.#forgetOld(this.deps.clock.now());
    const afterMs = this.deps.settings.get().systemSettings.escalateAfterMinutes * 60_000;
    const due = this.deps.alerts.dueForEscalation(this.deps.clock.now() - afterMs);
    const channels = this.deps.channels.list();
    for (const alert of due) {
      for (const row of channels) {
        this.deps.outbox.enqueue({ channelId: row.channelId, alertId: Number(alert._id), reason: 'escalation', message: alertMessage(alert, 'escalation', this.deps.publicUrl()) });
      }
      this.deps.alerts.markEscalated(Number(alert._id));
      this.deps.logger.warn({ alertId: alert._id, channels: channels.length }, 'critical alert not acknowledged: sent again to every channel');
    }
    if (due.length > 0 && channels.length > 0) this.deps.worker.kick();
  }

  #scheduleEscalation(): void {
    this.#timer = this.deps.clock.setTimeout(() => {
      try {
        this.escalateDue();
      } catch (err) {
        this.deps.logger.error({ err }, 'escalation check failed');
      }
      this.#scheduleEscalation();
    }, ESCALATION_CHECK_MS);
  }
}
