// Climate metrics: VPD and dew point from the air zone's newest reading, with the uncertainty the air
// sensors actually used give VPD (about ±0.3 kPa with a DHT11, under ±0.1 with an SHT4x), and the daily light integral estimated
// from the LDR. The Overview shows today; the Sensors screen the last seven days too. VPD and dew point
// come only from a DHT11 that is online (sensors/sensor-health.ts), in the chosen temperature unit.
import { CloudFog, Gauge, SunMedium } from 'lucide-react';
import { useLightIntegral } from '../../api/automation.ts';
import { useSensorHealth } from '../../sensors/useSensorHealth.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import './sensors.css';

/** server/alerts/condensation.ts CONDENSATION_MARGIN_C: closer than this to the dew point, water condenses. */
const CONDENSATION_MARGIN_C = 2;

const fixed = (value: number | undefined, digits: number) => (typeof value === 'number' ? value.toFixed(digits) : '---');

export function ClimateMetrics({ withDays = false }: { withDays?: boolean }) {
  const climate = useSensorHealth().trusted.DHT11;
  const unit = useTemperatureUnit();
  const symbol = unitSymbol(unit);
  // A difference of temperatures converts by the scale only (1 °C = 1.8 °F), without the offset.
  const spread = climate?.temperature !== undefined && climate.dewPointC !== undefined ? (climate.temperature - climate.dewPointC) * (unit === 'F' ? 1.8 : 1) : undefined;
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
          {/* The uncertainty the air sensors actually used give VPD, from their datasheet accuracy. */}
          {climate?.vpdUncertaintyKpa !== undefined && (
            <p className="field-hint">±{climate.vpdUncertaintyKpa.toFixed(2)} kPa from the air sensors' datasheet accuracy</p>
          )}
        </div>
        <div data-testid="metric-dew-point">
          <p className="stat-label">
            <CloudFog size={16} aria-hidden /> Dew Point ({symbol})
          </p>
          <p className="stat-value">{fixed(toUnit(climate?.dewPointC, unit) ?? undefined, 1)}</p>
          {spread !== undefined && (
            <p className="field-hint" data-testid="dew-point-spread">
              {spread.toFixed(1)} {symbol} below the air temperature{spread < CONDENSATION_MARGIN_C * (unit === 'F' ? 1.8 : 1) ? ': condensation likely' : ''}
            </p>
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
