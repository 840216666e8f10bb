import type { Logger } from 'pino';
import type { Clock } from '../common/clock.ts';
import type { Hardware, SimulatorHardware } from '../drivers/index.ts';
import type { ResolvedConfig } from './config/load.ts';
import type { OpenedDatabase } from './db/open.ts';
import type { EventBus } from './events/bus.ts';
import type { SettingsService } from './settings/settings-service.ts';
import type { ClockSync } from './time/clock-sync.ts';

/** The hardware as the gateway holds it: `simulator` is set in simulator mode (true state, faults). */
export type GatewayHardware = Hardware & { simulator?: SimulatorHardware['simulator'] };

/**
 * What every feature is built from, built once before any of them (server/gateway.ts). The logger is
 * the process's pino instance, the one Fastify logs through too; each feature takes a child of it.
 */
export interface AppContext {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  /** Every time the domain reads or waits on; tests inject a ManualClock. */
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly database: OpenedDatabase;
  /** The sensors and outputs, already in their safe state. */
  readonly hardware: GatewayHardware;
  /** The settings every part reads (thresholds, intervals, safety limits); changes arrive on the bus. */
  readonly settings: SettingsService;
  /** Whether the wall clock can be trusted yet (schedules and retention wait for it), and its steps. */
  readonly clockSync: ClockSync;
  /** The canonical greenhouse id for an id or its alias `default`, or null for any other greenhouse. */
  resolveGreenhouse(id: string): string | null;
}

/** A feature's own logger: every line names the feature it came from. */
export function featureLogger(ctx: Pick<AppContext, 'logger'>, feature: string): Logger {
  return ctx.logger.child({ feature });
}
