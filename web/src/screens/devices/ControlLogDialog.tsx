// One device's control log, opened from its card: every state change, newest first, with when, who or
// what, the action, the state before and after, and why ("Why did it switch on at 3 am?"). Filterable by
// source and paged backwards. Viewers may read it too: it changes nothing.
import { useState } from 'react';
import type { Device } from '../../../../server/contract/device.ts';
import { useControlLog, type LogSourceFilter } from '../../api/control-log.ts';
import { errorMessage } from '../../api/client.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { formatTimestamp } from '../../format.ts';
import { actionWords, SOURCE_FILTERS, SOURCE_LABELS, whoWords } from './control-words.ts';
import { statusBadgeClass } from './device-ui.ts';

export function ControlLogDialog({ device, onClose }: { device: Device; onClose(): void }) {
  const [source, setSource] = useState<LogSourceFilter>('all');
  const log = useControlLog(device.deviceId, source);
  const entries = log.data?.pages.flat() ?? [];

  return (
    <Dialog id="control-log" title={`Control log: ${device.deviceName}`} onClose={onClose} wide>
      <div className="row control-log-filters">
        <label className="field control-log-source">
          Source
          <select name="source" value={source} onChange={(e) => setSource(e.target.value as LogSourceFilter)}>
            {SOURCE_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <p className="muted control-log-hint">Newest first. Every switch is written here, with who or what did it and why.</p>
      </div>
      {log.isPending ? (
        <div className="center-block">
          <Spinner size="md" />
        </div>
      ) : log.isError && entries.length === 0 ? (
        <p className="field-error" role="status">
          {errorMessage(log.error, 'Failed to load the control log')}
        </p>
      ) : entries.length === 0 ? (
        <p className="empty-state">{source === 'all' ? 'Nothing has switched this device yet.' : `No entries from ${SOURCE_LABELS[source].toLowerCase()}.`}</p>
      ) : (
        <ol className="control-log" data-testid="control-log">
          {entries.map((entry) => (
            <li key={entry._id} className={`control-log-entry control-log-${entry.source}`} data-testid="control-log-entry">
              <div className="control-log-head">
                <time dateTime={entry.timestamp}>{formatTimestamp(entry.timestamp)}</time>
                <span className="control-log-change" aria-label={`from ${entry.previousStatus} to ${entry.newStatus}`}>
                  <span className={statusBadgeClass(entry.previousStatus)}>{entry.previousStatus}</span>
                  <span aria-hidden>→</span>
                  <span className={statusBadgeClass(entry.newStatus)}>{entry.newStatus}</span>
                </span>
              </div>
              <p className="control-log-who">
                <strong>{whoWords(entry)}</strong> · {actionWords(entry.action)}
              </p>
              <p className="control-log-why">{entry.reason}</p>
            </li>
          ))}
        </ol>
      )}
      {log.isError && entries.length > 0 && <p className="field-error">{errorMessage(log.error, 'Failed to load older entries')}</p>}
      {log.hasNextPage && (
        <button type="button" className="btn btn-secondary" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          {log.isFetchingNextPage ? 'Loading...' : 'Older entries'}
        </button>
      )}
    </Dialog>
  );
}
