// Web Push on this browser (docs/https.md): the gateway's VAPID key and this account's subscriptions
// from GET /api/push; subscribing asks for notification permission, subscribes through the service
// worker's PushManager and hands the subscription to the gateway.
import { useQuery } from '@tanstack/react-query';
import type { Severity } from '../../../server/contract/alert.ts';
import type { HttpsInfo } from '../../../server/contract/https.ts';
import type { PushStatus, PushSubscriptionView } from '../../../server/contract/push.ts';
import { api } from './client.ts';

export const pushKey = ['push'] as const;
export const httpsKey = ['https'] as const;

export function usePushStatus() {
  return useQuery({ queryKey: pushKey, queryFn: () => api.get<PushStatus>('/api/push') });
}

export function useHttpsInfo() {
  return useQuery({ queryKey: httpsKey, queryFn: () => api.get<HttpsInfo>('/api/https') });
}

/**
 * Whether this page can receive pushes: browsers give service workers and PushManager only to a secure
 * origin (https, or localhost); an iPhone gives PushManager only to a dashboard added to the Home Screen.
 */
export function pushSupport(): 'ok' | 'insecure' | 'unsupported' {
  if (!window.isSecureContext) return 'insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return 'ok';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Subscribes this browser (or updates its severity) and registers it with the gateway. */
export async function subscribeThisBrowser(publicKey: string, minSeverity: Severity): Promise<PushSubscriptionView> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site: allow them in the browser\'s site settings, then try again');
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  const applicationServerKey = keyBytes(publicKey);
  // A subscription made for another key (the data dir was reset) cannot carry the gateway's pushes.
  const existingKey = subscription?.options.applicationServerKey;
  if (subscription && existingKey && !sameBytes(new Uint8Array(existingKey), applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  return (await api.request<PushSubscriptionView>('POST', '/api/push/subscriptions', { ...subscription.toJSON(), minSeverity })).data;
}

/** Stops pushes to this browser: at the gateway first, then at the push service. */
export async function unsubscribeThisBrowser(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.request('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
