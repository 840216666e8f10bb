// Device Distribution: a hand-written SVG pie of device counts by type.
import type { DeviceStats } from '../../../../server/contract/device.ts';
import { deviceTypeName } from '../../names.ts';

const COLORS = ['#16a34a', '#2563eb', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];
const R = 80;

/** The SVG path of one slice from fraction `from` to `to` of a full turn, starting at 12 o'clock. */
export function slicePath(from: number, to: number): string {
  if (to - from >= 0.9999) return `M 0 ${-R} A ${R} ${R} 0 1 1 0 ${R} A ${R} ${R} 0 1 1 0 ${-R} Z`;
  const point = (f: number) => `${(R * Math.sin(2 * Math.PI * f)).toFixed(3)} ${(-R * Math.cos(2 * Math.PI * f)).toFixed(3)}`;
  return `M 0 0 L ${point(from)} A ${R} ${R} 0 ${to - from > 0.5 ? 1 : 0} 1 ${point(to)} Z`;
}

export function DeviceDistribution({ stats }: { stats: DeviceStats | null }) {
  const types = (stats?.byType ?? []).filter((t) => t.totalDevices > 0);
  const total = types.reduce((sum, t) => sum + t.totalDevices, 0);
  let start = 0;
  return (
    <section className="card">
      <h2 className="card-header">Device Distribution</h2>
      {total === 0 ? (
        <p className="empty-state">No device data available</p>
      ) : (
        <div className="analytics-pie">
          <svg viewBox="-90 -90 180 180" role="img" aria-label="Devices by type">
            {types.map((t, i) => {
              const from = start;
              start += t.totalDevices / total;
              return (
                <path key={t._id} d={slicePath(from, start)} fill={COLORS[i % COLORS.length]}>
                  <title>{`${deviceTypeName(t._id)}: ${t.totalDevices}`}</title>
                </path>
              );
            })}
          </svg>
          <ul className="analytics-legend">
            {types.map((t, i) => (
              <li key={t._id}>
                <span className="analytics-swatch" style={{ background: COLORS[i % COLORS.length] }} />
                {deviceTypeName(t._id)}: {t.totalDevices}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
