// A pump's water per day (docs/irrigation.md): pulses, run time and litres for the last days, on the
// Devices and Analytics screens. A bar per day shows run time against the busiest day.
import type { Device } from '../../../../../server/contract/device.ts';
import { useWater } from '../../../api/irrigation.ts';
import { QueryGate } from '../../../components/DataState.tsx';

const dayLabel = (date: string) => new Date(`${date}T12:00:00`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' });
// Small runs in hundredths (a 2 s shot is 0.08 L at 2.4 L/min), larger ones in tenths.
const litresText = (l: number) => l.toFixed(l < 10 ? 2 : 1);
const duration = (s: number) => (s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);

export function WaterPerDay({ pump, days = 7 }: { pump: Device; days?: number }) {
  const query = useWater(pump.deviceId, days);
  const rows = query.data ?? [];
  const most = Math.max(1, ...rows.map((r) => r.runSeconds));
  const litres = rows.reduce((sum, r) => sum + (r.litres ?? 0), 0);
  return (
    <section className="card water-card" data-testid={`water-${pump.deviceId}`}>
      <h2 className="card-header">Water per day: {pump.deviceName}</h2>
      <QueryGate query={query} what="water per day">
        <table className="water-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Runs</th>
              <th scope="col">Run time</th>
              <th scope="col">Litres</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.date}>
                <td>{dayLabel(r.date)}</td>
                <td>{r.pulses}</td>
                <td>
                  <span className="water-bar" style={{ inlineSize: `${(r.runSeconds / most) * 100}%` }} aria-hidden />
                  {duration(r.runSeconds)}
                </td>
                <td>{r.litres === null ? '–' : litresText(r.litres)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="field-hint">
          {pump.flowLitresPerMinute
            ? `${litresText(litres)} L in ${days === 1 ? 'today' : `${days} days`} at ${pump.flowLitresPerMinute} L/min.`
            : 'Set the pump’s flow (L/min) in its Automation Settings to see litres.'}
        </p>
      </QueryGate>
    </section>
  );
}
