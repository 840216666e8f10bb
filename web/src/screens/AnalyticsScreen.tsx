// Analytics Dashboard (docs/product.md §2, "Analytics"): averages, trends, device distribution, hourly
// activity and per-sensor / per-device performance for a chosen range, plus the CSV report download.
import { useState } from 'react';
import { Download } from 'lucide-react';
import { api, errorMessage } from '../api/client.ts';
import { ANALYTICS_RANGES, useDeviceStats, useHourlyActivity, useSensorStats } from '../api/analytics.ts';
import { useGreenhouseId } from '../api/queries.ts';
import { useSensorHistory } from '../api/sensors.ts';
import { HistoryStaleNote, QueryGate, UnreachableNotice } from '../components/DataState.tsx';
import { toast } from '../components/toast/index.ts';
import { AverageCards } from './analytics/AverageCards.tsx';
import { DeviceDistribution } from './analytics/DeviceDistribution.tsx';
import { HourlyActivity } from './analytics/HourlyActivity.tsx';
import { DevicePerformance, SensorPerformance } from './analytics/Performance.tsx';
import { EnvironmentalTrends } from './sensors/EnvironmentalTrends.tsx';
// The shared trends chart's tooltip styles live with the Sensors screen.
import './sensors/sensors.css';
import './analytics/analytics.css';
import { useDevices } from '../api/queries.ts';
import { WaterPerDay } from './devices/irrigation/WaterPerDay.tsx';
import './devices/irrigation/irrigation.css';

export function AnalyticsScreen() {
  const [hours, setHours] = useState(24);
  const [exporting, setExporting] = useState(false);
  const greenhouseId = useGreenhouseId();
  const statsQuery = useSensorStats(hours);
  const hourlyQuery = useHourlyActivity(hours);
  const historyQuery = useSensorHistory(hours, 'all');
  const devicesQuery = useDeviceStats();
  const stats = statsQuery.data ?? [];
  const hourly = hourlyQuery.data ?? [];
  const history = historyQuery.readings;
  const devices = devicesQuery.data ?? null;
  // Water per day follows the range in whole days (at least one, at most the 90 the gateway answers).
  const pumps = (useDevices().data ?? []).filter((d) => d.deviceType === 'WATER_PUMP');
  const waterDays = Math.min(90, Math.max(1, Math.ceil(hours / 24)));

  async function exportReport() {
    setExporting(true);
    try {
      await api.download(`/api/analytics/export/${greenhouseId}?hours=${hours}`, `greenhouse-report-${hours}h.csv`);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to export report'));
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="screen">
      <div className="analytics-head">
        <h1 className="screen-title">Analytics Dashboard</h1>
        <div className="analytics-controls">
          <label className="field analytics-range">
            <span className="sr-only">Time range</span>
            <select aria-label="Time range" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {ANALYTICS_RANGES.map((r) => (
                <option key={r.hours} value={r.hours}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn btn-primary" onClick={exportReport} disabled={exporting}>
            <Download size={16} aria-hidden /> Export Report
          </button>
        </div>
      </div>
      <AverageCards stats={stats} />
      <section className="card">
        <h2 className="card-header">Environmental Trends</h2>
        {historyQuery.isError && !historyQuery.neverLoaded && <HistoryStaleNote error={historyQuery.error} />}
        {historyQuery.isError && historyQuery.neverLoaded ? (
          <UnreachableNotice what="history" error={historyQuery.error} />
        ) : history.length === 0 ? (
          <div className="empty-state">
            <strong>No data available</strong>
            <p>Sensor readings will appear here once data is collected</p>
          </div>
        ) : (
          <div className="chart-box" data-testid="trends-chart">
            <EnvironmentalTrends readings={history} hours={hours} />
          </div>
        )}
      </section>
      <div className="grid grid-2">
        <QueryGate query={devicesQuery} what="device statistics">
          <DeviceDistribution stats={devices} />
        </QueryGate>
        <QueryGate query={hourlyQuery} what="hourly activity">
          <HourlyActivity buckets={hourly} />
        </QueryGate>
      </div>
      <div className="grid grid-2">
        <QueryGate query={statsQuery} what="sensor statistics">
          <SensorPerformance stats={stats} />
        </QueryGate>
        <QueryGate query={devicesQuery} what="device statistics">
          <DevicePerformance stats={devices} />
        </QueryGate>
      </div>
      {pumps.length > 0 && (
        <div className="water-section">
          {pumps.map((pump) => (
            <WaterPerDay key={pump.deviceId} pump={pump} days={waterDays} />
          ))}
        </div>
      )}
    </div>
  );
}
