import { describe, expect, it } from 'vitest';
import { snapshotOf } from '../../support/snapshots.ts';
import { CONDENSATION_PERSIST_MS, evaluateCondensation } from '../../../server/alerts/condensation.ts';
import { climateMetrics, dewPointC, vpdKpa } from '../../../server/sensors/climate-metrics.ts';
import { dailyLightIntegral, LIGHT_BUCKET_MS, windowStartMs } from '../../../server/sensors/light-integral.ts';

describe('VPD and dew point (Magnus, docs/decisions.md constants)', () => {
  it('matches values worked by hand', () => {
    // es(20 °C) = 0.61094·exp(17.625·20/263.04) = 0.61094·exp(1.34010) = 2.3334 kPa.
    expect(vpdKpa(20, 0)).toBeCloseTo(2.3334, 3);
    expect(vpdKpa(20, 100)).toBe(0);
    expect(vpdKpa(20, 50)).toBeCloseTo(1.1667, 3);
    // Saturated air's dew point is the air temperature; 20 °C at 50 %RH: 9.26 °C.
    expect(dewPointC(20, 100)).toBeCloseTo(20, 6);
    expect(dewPointC(20, 50)).toBeCloseTo(9.26, 1);
    expect(dewPointC(20, 0)).toBeNull();
  });

  it('rounds for the wire and needs both values', () => {
    expect(climateMetrics(20, 50)).toEqual({ vpdKpa: 1.17, dewPointC: 9.3 });
    expect(climateMetrics(null, 50)).toEqual({});
    expect(climateMetrics(20, 0)).toEqual({ vpdKpa: 2.33 });
  });
});

describe('condensation-risk alert', () => {
  const T0 = Date.UTC(2026, 0, 10, 2, 0, 0);
  const active = new Map();

  it('raises only when the air stays within the margin of its dew point, and resolves past margin + band', () => {
    // 12 °C at 95 %RH: dew point 11.2 °C, 0.8 °C away.
    let state = { withinMarginSinceMs: null as number | null };
    const at = (ms: number, t: number, rh: number, current = active) => {
      const out = evaluateCondensation(snapshotOf({ temperature: t, humidity: rh }, ms), state, current, ms);
      state = out.state;
      return out.evaluation;
    };
    expect(at(T0, 12, 95).raise).toHaveLength(0);
    expect(at(T0 + CONDENSATION_PERSIST_MS - 1, 12, 95).raise).toHaveLength(0);
    const raised = at(T0 + CONDENSATION_PERSIST_MS, 12, 95).raise;
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ alertType: 'CONDENSATION_RISK', causeKey: 'climate:condensation', threshold: 2 });
    const open = new Map([['climate:condensation', { id: 7, causeKey: 'climate:condensation', severity: 'MEDIUM' as const }]]);
    // 2.5 °C away: past the margin, not yet past margin + band.
    expect(at(T0 + CONDENSATION_PERSIST_MS + 60_000, 16, 85, open).resolve).toHaveLength(0);
    expect(at(T0 + CONDENSATION_PERSIST_MS + 120_000, 20, 70, open).resolve).toEqual([expect.objectContaining({ id: 7 })]);
  });

  it('a damp spell interrupted by a dry reading starts counting again; stale readings change nothing', () => {
    let state = { withinMarginSinceMs: null as number | null };
    const at = (ms: number, t: number, rh: number, readAtMs = ms) => {
      const out = evaluateCondensation(snapshotOf({ temperature: t, humidity: rh }, readAtMs), state, active, ms);
      state = out.state;
      return out.evaluation.raise;
    };
    at(T0, 12, 95);
    at(T0 + 5 * 60_000, 20, 60);
    expect(at(T0 + CONDENSATION_PERSIST_MS, 12, 95)).toHaveLength(0);
    const before = state;
    expect(at(T0 + 3 * CONDENSATION_PERSIST_MS, 12, 95, T0)).toHaveLength(0);
    expect(state).toBe(before);
  });
});

describe('daily light integral', () => {
  it('integrates lux × ppfdPerLux over each bucket, per local day, with hours above 1000 lux', () => {
    const day = new Date(2026, 5, 1).getTime();
    // Two hours at 20,000 lux and one at 500 lux on day 1; one hour at 10,000 lux on day 2.
    const hourOf = (startMs: number, lux: number) => Array.from({ length: 12 }, (_, i) => ({ atMs: startMs + i * LIGHT_BUCKET_MS, meanLux: lux }));
    const buckets = [
      ...hourOf(day + 10 * 3_600_000, 20_000),
      ...hourOf(day + 11 * 3_600_000, 20_000),
      ...hourOf(day + 18 * 3_600_000, 500),
      ...hourOf(day + 24 * 3_600_000 + 12 * 3_600_000, 10_000),
    ];
    const days = dailyLightIntegral(buckets, LIGHT_BUCKET_MS, 0.0185);
    // 20,000 lux × 0.0185 = 370 µmol/m²/s; × 7,200 s = 2.664 mol; 500 lux for an hour adds 0.0333 mol.
    expect(days).toEqual([
      { date: '2026-06-01', dliMol: 2.7, hoursOfLight: 2 },
      { date: '2026-06-02', dliMol: 0.67, hoursOfLight: 1 },
    ]);
  });

  it('the window starts at local midnight N-1 days back', () => {
    const now = new Date(2026, 5, 10, 15, 30).getTime();
    expect(windowStartMs(now, 1)).toBe(new Date(2026, 5, 10).getTime());
    expect(windowStartMs(now, 7)).toBe(new Date(2026, 5, 4).getTime());
  });
});
