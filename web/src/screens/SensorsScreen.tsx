// Sensor Monitoring (docs/product.md §2, "Sensors"): live badge and Refresh, current readings, the
// Historical Data section (range, sensor filter, 'Environmental Trends' chart) and per-sensor details.
import { useState } from 'react';
import { Calendar, RefreshCw } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys, useLatestReadings } from '../api/queries.ts';
import { useSensorHistory, type SensorFilter } from '../api/sensors.ts';
import { HistoryStaleNote, UnreachableNotice } from '../components/DataState.tsx';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { ClimateMetrics } from './sensors/ClimateMetrics.tsx';
import { EnvironmentalTrends } from './sensors/EnvironmentalTrends.tsx';
import { ReadingCards } from './sensors/ReadingCards.tsx';
import { SensorDetailCards } from './sensors/SensorDetailCards.tsx';
import { SensorInstances } from './sensors/SensorInstances.tsx';
import './sensors/sensors.css';
import { HISTORY_RANGES } from '../history-ranges.ts';

const RANGES = HISTORY_RANGES;

const FILTERS: Array<{ value: SensorFilter; label: string }> = [
  { value: 'all', label: 'All Sensors' },
  { value: 'DHT11', label: 'Temperature & Humidity' },
  { value: 'LDR', label: 'Light Intensity' },
  { value: 'SOIL_MOISTURE', label: 'Soil Moisture' },
];

export function SensorsScreen() {
  const { connected } = useRealtime();
  const queryClient = useQueryClient();
  const latest = useLatestReadings();
  const [hours, setHours] = useState<number>(24);
  const [filter, setFilter] = useState<SensorFilter>('all');
  const history = useSensorHistory(hours, filter);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.latestReadings });
    void history.reload();
  };

  return (
    <div className="screen">
      <div className="sensors-toolbar">
        <h1 className="screen-title">Sensor Monitoring</h1>
        <div className="row">
          <span className={`badge ${connected ? 'badge-on' : 'badge-off'}`} data-testid="live-badge">
            {connected ? 'Live Data' : 'Disconnected'}
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={refresh} disabled={latest.isFetching || history.loading}>
            <RefreshCw size={16} aria-hidden /> Refresh
          </button>
        </div>
      </div>

      <ReadingCards withWater />
      <ClimateMetrics withDays />

      <section className="card" data-testid="historical-data">
        <div className="card-header">
          <h2 className="row">
            <Calendar size={20} aria-hidden data-testid="calendar-icon" /> Historical Data
          </h2>
          <div className="history-controls">
            <label>
              <span className="sr-only">Time range</span>
              <select aria-label="Time range" value={hours} onChange={(e) => setHours(Number(e.target.value))} data-testid="range-select">
                {RANGES.map((r) => (
                  <option key={r.hours} value={r.hours}>
                    {r.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span className="sr-only">Sensor</span>
              <select aria-label="Sensor" value={filter} onChange={(e) => setFilter(e.target.value as SensorFilter)} data-testid="sensor-filter">
                {FILTERS.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        <h3>Environmental Trends</h3>
        {history.isError && !history.neverLoaded && <HistoryStaleNote error={history.error} />}
        <div className="chart-box">
          {history.loading && (
            <div className="chart-loading muted" role="status">
              Loading historical data...
            </div>
          )}
          {history.isError && history.neverLoaded ? (
            <UnreachableNotice what="history" error={history.error} />
          ) : history.readings.length === 0 && !history.loading ? (
            <div className="empty-state" data-testid="chart-empty">
              <Calendar size={40} aria-hidden />
              <h3>No data available</h3>
              <p>Sensor readings will appear here once data is collected</p>
            </div>
          ) : (
            history.readings.length > 0 && <EnvironmentalTrends readings={history.readings} hours={hours} />
          )}
        </div>
      </section>

      <SensorDetailCards />
      <SensorInstances />
    </div>
  );
}
