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
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
  });
  it('neutralises a formula hidden after a separator inside the text (;-separated payloads)', () => {
    // A spreadsheet that splits on ';' (or tabs, or '|') would make each of these a formula cell.
    for (const payload of ['ok;=HYPERLINK("http://x")', 'ok; =1+1', 'ok,+cmd', 'ok\t-2+3', 'ok|@SUM(A1)', 'a;;=1', 'a;\t=1']) {
      const cell = csvCell(payload);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
      for (const piece of unquoted.split(/[,;|\t\r\n]/)) expect(piece.trimStart()).not.toMatch(/^[=+\-@]/);
    }
    expect(csvCell('pump; =cmd|x')).toBe(`"pump; '=cmd|x"`);
    expect(csvCell('2026-01-01 - heater')).toBe('2026-01-01 - heater');
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
