import { describe, expect, it } from 'vitest';
import { vpdUncertaintyKpa } from '../../../../server/sensors/climate-metrics.ts';
import { median, medianAccuracy, zoneRows, type InstanceAnswer } from '../../../../server/sensors/zone-median.ts';

const air = (sensorId: string, kind: InstanceAnswer['kind'], temperatureC: number, humidityPct: number, readAtMs = 1000): InstanceAnswer => ({
  sensorId, kind, zone: 'DHT11', values: { temperatureC, humidityPct }, readAtMs,
});

describe('zone values from several instances', () => {
  it('takes the median: odd, even, one', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("bounds the median's error: mean of two bounds, else the largest", () => {
    expect(medianAccuracy([2, 0.2])).toBeCloseTo(1.1, 10);
    expect(medianAccuracy([2, 0.2, 0.5])).toBe(2);
    expect(medianAccuracy([0.5])).toBe(0.5);
  });

  it('one row per zone with the median of each quantity, stamped with the newest read', () => {
    const rows = zoneRows([
      air('a', 'SHT4X', 20, 60, 1000),
      air('b', 'DHT22', 22, 64, 1500),
      air('c', 'DHT11', 30, 90, 1200),
      { sensorId: 'co2', kind: 'SCD4X', zone: 'DHT11', values: { co2Ppm: 800 }, readAtMs: 1100 },
      { sensorId: 'roots', kind: 'DS18B20', zone: 'SOIL_MOISTURE', values: { rootTemperatureC: 18.5 }, readAtMs: 900 },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ sensorType: 'DHT11', takenAtMs: 1500, temperatureC: 22, humidityPct: 64, co2Ppm: 800 });
    expect(rows[1]).toMatchObject({ sensorType: 'SOIL_MOISTURE', rootTemperatureC: 18.5 });
    expect(rows[1]!.soilMoisturePct).toBeUndefined();
  });

  it('carries VPD uncertainty from the sensors used: a DHT11 about ±0.3 kPa, an SHT4x far less', () => {
    const dht11 = zoneRows([air('a', 'DHT11', 25, 60)])[0]!;
    const sht4x = zoneRows([air('a', 'SHT4X', 25, 60)])[0]!;
    expect(dht11.vpdUncertaintyKpa).toBeCloseTo(0.31, 2);
    expect(sht4x.vpdUncertaintyKpa).toBeLessThan(0.1);
    // Two sensors: the mean of their bounds.
    const both = zoneRows([air('a', 'DHT11', 25, 60), air('b', 'SHT4X', 25, 60)])[0]!;
    expect(both.vpdUncertaintyKpa).toBeCloseTo(vpdUncertaintyKpa(25, 60, 1.1, 3.4), 10);
  });

  it('worst-case VPD error: |dVPD/dT|·ΔT + |dVPD/dRH|·ΔRH (es(25 °C) = 3.17 kPa)', () => {
    // dVPD/dRH = es/100 = 0.0317 kPa per %RH; dVPD/dT = es·17.625·243.04/(268.04)² · 0.4 = 0.0755 kPa per °C.
    expect(vpdUncertaintyKpa(25, 60, 0, 5)).toBeCloseTo(0.16, 2);
    expect(vpdUncertaintyKpa(25, 60, 2, 0)).toBeCloseTo(0.15, 2);
  });
});
