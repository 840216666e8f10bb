// Control-log and device-state words a grower reads: who or what acted ("Safety", "Rule", a username),
// the action ("Turn on"), and the reason line of a card ("Safety · Off: tank low · since 02:14").
import type { ControlLog, ControlSource } from '../../../../server/contract/device.ts';
import { formatClock } from '../../format.ts';

export const SOURCE_LABELS: Record<ControlSource, string> = {
  user: 'Person',
  rule: 'Rule',
  safety: 'Safety',
  system: 'System',
  mqtt: 'MQTT',
};

/** The source filter's options, in the order a grower asks ("who switched it?" first). */
export const SOURCE_FILTERS: ReadonlyArray<{ value: ControlSource | 'all'; label: string }> = [
  { value: 'all', label: 'All sources' },
  { value: 'user', label: 'People' },
  { value: 'rule', label: 'Rules' },
  { value: 'safety', label: 'Safety' },
  { value: 'system', label: 'System' },
  { value: 'mqtt', label: 'MQTT' },
];

/** 'turn_on' -> 'Turn on'. */
export function actionWords(action: string): string {
  const text = action.replace(/_/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who or what: the username for a person, else the source and, when it says more, its actor. */
export function whoWords(entry: Pick<ControlLog, 'source' | 'actor'>): string {
  if (entry.source === 'user') return entry.actor;
  const label = SOURCE_LABELS[entry.source] ?? entry.source;
  const actor = entry.actor.trim();
  return actor === '' || actor.toLowerCase() === entry.source ? label : `${label} · ${actor.replace(/_/g, ' ')}`;
}

/** 'HH:MM' today, else 'Nov 23 HH:MM': a reason's "since" as a grower says it. */
export function sinceWords(iso: string, nowMs: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const then = new Date(at);
  const today = new Date(nowMs);
  const sameDay = then.toDateString() === today.toDateString();
  return sameDay ? formatClock(at) : `${then.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} ${formatClock(at)}`;
}

/** The card's reason line: "Safety · Off: tank low · since 02:14". */
export function reasonLine(reason: { source: ControlSource; text: string; since: string }, nowMs: number): string {
  return `${SOURCE_LABELS[reason.source] ?? reason.source} · ${reason.text} · since ${sinceWords(reason.since, nowMs)}`;
}
