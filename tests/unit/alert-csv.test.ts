import { describe, expect, it } from 'vitest';
import { alertsToCsv, csvCell } from '../../server/alerts/csv.ts';

describe('csv', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain')).toBe('plain');
  });
  it('neutralises formula injection', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2 °C')).toBe("'-2 °C");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
  it('writes the header and one row per alert', () => {
    const csv = alertsToCsv([
      {
        _id: '1', greenhouseId: 'g', alertType: 'TEMPERATURE_HIGH', severity: 'HIGH', message: 'Hot, very hot', deviceId: null,
        isResolved: true, createdAt: '2026-01-01T00:00:00.000Z', resolvedAt: '2026-01-01T01:00:00.000Z', actionTaken: 'Manually resolved by user',
      },
    ]);
    expect(csv).toBe(
      'createdAt,alertType,severity,message,deviceId,status,resolvedAt,actionTaken\r\n' +
        '2026-01-01T00:00:00.000Z,TEMPERATURE_HIGH,HIGH,"Hot, very hot",,resolved,2026-01-01T01:00:00.000Z,Manually resolved by user\r\n',
    );
  });
});
