import type { Logger } from 'pino';
import type { Clock } from '../../common/clock.ts';
import { MailSender } from '../alerts/mail-sender.ts';
import type { Config } from '../config/schema.ts';
import type { Db } from '../db/open.ts';
import { ChannelsRepo } from './channels-repo.ts';
import { createSenders } from './kinds/index.ts';
import { gatewayFailureMessage } from './message.ts';
import { OutboxRepo } from './outbox-repo.ts';
import { OutboxWorker, type OutboxTiming } from './outbox-worker.ts';
import { publicUrlOf } from './public-url.ts';

export interface GatewayFailureOptions {
  config: Pick<Config, 'greenhouseId' | 'notifications' | 'port' | 'smtp'>;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** What systemd says happened (e.g. "exit-code, status 1"). */
  detail: string;
  timing?: Partial<OutboxTiming>;
}

export interface GatewayFailureOutcome {
  channels: number;
  delivered: number;
}

/**
 * Sends a CRITICAL "gateway stopped" to every channel, from the OnFailure unit while the gateway is
 * down (server/notify-failure.ts). It goes through the same outbox: each channel gets one attempt now,
 * with its timeout; what fails stays pending and the gateway retries it when it runs again.
 */
export async function notifyGatewayFailure(options: GatewayFailureOptions): Promise<GatewayFailureOutcome> {
  const { config, db, clock, logger } = options;
  const channels = new ChannelsRepo({ db, clock });
  const outbox = new OutboxRepo({ db, clock });
  const mail = new MailSender(config.smtp);
  const senders = createSenders({ mail, telegramApiUrl: config.notifications.telegramApiUrl });
  const worker = new OutboxWorker({ outbox, channels, senders, clock, logger, timing: options.timing });
  const message = gatewayFailureMessage(config.greenhouseId, options.detail, publicUrlOf(config));
  const ids = channels.list().map((row) => outbox.enqueue({ channelId: row.channelId, alertId: null, reason: 'gateway-failure', message }).id);
  const attempted = Promise.all(ids.map((id) => worker.attempted(id)));
  worker.start();
  try {
    await attempted;
  } finally {
    await worker.stop();
    mail.close();
  }
  const delivered = ids.filter((id) => outbox.find(id)?.status === 'delivered').length;
  return { channels: ids.length, delivered };
}
