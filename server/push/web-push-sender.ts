import type { Agent } from 'node:https';
import type { WebPushError } from 'web-push';
import type { PushMessage } from '../contract/push.ts';
import { pushKeysProblem } from './subscription-keys.ts';
import type { VapidKeys } from './vapid-keys.ts';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

/**
 * What became of one push: delivered; `gone` (404/410: the browser unsubscribed or the subscription
 * expired; or its keys are not ones a push can be encrypted for: no later attempt can succeed, so it
 * must be forgotten); or failed, `retryable` when trying later may work (timeouts, network errors, 429
 * and 5xx from the push service).
 */
export type PushOutcome = { status: 'delivered' } | { status: 'gone'; message: string } | { status: 'failed'; retryable: boolean; message: string };

export interface WebPushSenderOptions {
  vapid: VapidKeys;
  /** VAPID subject (config webPush.subject): whom the push service may contact about this sender. */
  subject: string;
  /** Only for tests: an agent that trusts a loopback push receiver's certificate. */
  agent?: Agent;
  timeoutMs?: number;
}

/**
 * One Web Push message to one browser through its push service (RFC 8030), encrypted for it (RFC 8291)
 * and signed with the gateway's VAPID key (RFC 8292), by the `web-push` package. It never throws: every
 * result is a PushOutcome, so a caller such as a notification outbox can record it and decide on a retry.
 */
export class WebPushSender {
  readonly #options: WebPushSenderOptions;

  constructor(options: WebPushSenderOptions) {
    this.#options = options;
  }

  async send(target: PushTarget, message: PushMessage, delivery: { urgency: PushUrgency; ttlSeconds: number }): Promise<PushOutcome> {
    const { vapid, subject, agent, timeoutMs = 10_000 } = this.#options;
    // Subscriptions are checked when made; one stored before that check could never be sent to.
    const badKeys = pushKeysProblem(target.keys);
    if (badKeys) return { status: 'gone', message: badKeys.message };
    // Loaded on the first push: most gateways never send one, and its code would sit on their heap.
    const webPush = (await import('web-push')).default;
    try {
      await webPush.sendNotification(target, JSON.stringify(message), {
        vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: delivery.ttlSeconds,
        urgency: delivery.urgency,
        // One notification per alert on the push service too: a newer message with the same topic
        // replaces one still waiting for a phone that is offline.
        topic: topicOf(message.tag),
        timeout: timeoutMs,
        ...(agent ? { agent } : {}),
      });
      return { status: 'delivered' };
    } catch (err) {
      if (err instanceof webPush.WebPushError) {
        const pushError = err as WebPushError;
        const text = `push service answered ${pushError.statusCode}${pushError.body ? `: ${String(pushError.body).slice(0, 120)}` : ''}`;
        if (pushError.statusCode === 404 || pushError.statusCode === 410) return { status: 'gone', message: text };
        return { status: 'failed', retryable: pushError.statusCode === 429 || pushError.statusCode >= 500, message: text };
      }
      return { status: 'failed', retryable: true, message: (err as Error).message.slice(0, 200) };
    }
  }
}

/** A Topic header is at most 32 base64url characters (RFC 8030 5.4). */
function topicOf(tag: string): string {
  return Buffer.from(tag).toString('base64url').slice(0, 32);
}
