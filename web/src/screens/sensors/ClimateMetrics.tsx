// Climate metrics: VPD and dew point from the air zone's newest reading, with the honest uncertainty
// the air sensors actually used give VPD (from their datasheet accuracy: about ±0.3 kPa with a DHT11,
// under ±0.1 with an SHT4x), and the daily light integral estimated from the LDR. The Overview shows today; the Sensors screen the last seven days too.
import { CloudFog, Gauge, SunMedium } from 'lucide-react';
import { readingsBySensor, useLatestReadings } from '../../api/queries.ts';
import { useLightIntegral } from '../../api/automation.ts';
import './sensors.css';

const fixed = (value: number | undefined, digits: number) => (typeof value === 'number' ? value.toFixed(digits) : '---');

export function ClimateMetrics({ withDays = false }: { withDays?: boolean }) {
  const climate = readingsBySensor(useLatestReadings().data).DHT11;
  const days = useLightIntegral(7).data ?? [];
  const today = days.at(-1);
  return (
    <section className="card climate-metrics" data-testid="climate-metrics">
      <h3>Climate</h3>
      <div className="grid grid-3">
        <div data-testid="metric-vpd">
          <p className="stat-label">
            <Gauge size={16} aria-hidden /> VPD (kPa)
          </p>
          <p className="stat-value">{fixed(climate?.vpdKpa, 2)}</p>
          {climate?.vpdUncertaintyKpa !== undefined && (
            <p className="field-hint">±{climate.vpdUncertaintyKpa.toFixed(2)} kPa from the air sensors' datasheet accuracy</p>
          )}
        </div>
        <div data-testid="metric-dew-point">
          <p className="stat-label">
            <CloudFog size={16} aria-hidden /> Dew Point (°C)
          </p>
          <p className="stat-value">{fixed(climate?.dewPointC, 1)}</p>
          {climate?.temperature !== undefined && climate.dewPointC !== undefined && (
            <p className="field-hint">{(climate.temperature - climate.dewPointC).toFixed(1)} °C above the air</p>
          )}
        </div>
        <div data-testid="metric-dli">
          <p className="stat-label">
            <SunMedium size={16} aria-hidden /> Light Today (mol/m², estimated)
          </p>
          <p className="stat-value">{today ? today.dliMol.toFixed(1) : '---'}</p>
          <p className="field-hint">{today ? `${today.hoursOfLight.toFixed(1)} h of light so far; ` : ''}estimated from lux</p>
        </div>
      </div>
      {withDays && days.length > 0 && (
        <table className="dli-table" data-testid="dli-table">
          <caption>Daily light integral (estimated from the light sensor)</caption>
          <thead>
            <tr>
              <th>Day</th>
              <th>DLI (mol/m²/day)</th>
              <th>Hours of light</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td>{d.dliMol.toFixed(1)}</td>
                <td>{d.hoursOfLight.toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
