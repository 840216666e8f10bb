import { describe, expect, it } from 'vitest';
import { fieldToCell, programFrom, toRow } from '../../../web/src/screens/climate/period-form.ts';

describe('the climate editor\'s rows', () => {
  it('round-trips a period; a blank humidity is null, numbers go as typed for the gateway to check', () => {
    const period = { start: 'sunset-15', heatBelowC: 16, ventAboveC: 21, humidityAbovePct: null, rampMinutes: 45 };
    const row = toRow(period);
    expect(row).toEqual({ start: 'sunset-15', heatBelowC: '16', ventAboveC: '21', humidityAbovePct: '', rampMinutes: '45' });
    const program = programFrom([{ ...row, start: ' 06:00 ' }], 'open', { crop: null, stages: [] });
    expect(program).toEqual({ crop: null, stages: [], windowSafePosition: 'open', periods: [{ ...period, start: '06:00' }] });
  });

  it('finds the input the gateway named', () => {
    expect(fieldToCell('periods.1.rampMinutes')).toEqual({ row: 1, key: 'rampMinutes' });
    expect(fieldToCell('crop.startDate')).toBeNull();
    expect(fieldToCell(undefined)).toBeNull();
  });
});
