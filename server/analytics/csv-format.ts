import { csvCell } from '../domain/csv-cell.ts';

export const CSV_COLUMNS = ['timestamp', 'sensorType', 'temperature', 'humidity', 'lightIntensity', 'soilMoisture', 'waterLevel'] as const;

export type CsvRow = [takenAt: number, sensorType: string, ...values: Array<number | null>];

// Numbers are written as numbers (a negative temperature is not a formula); text goes through csvCell.
const cell = (value: number | null) => (value === null ? '' : String(value));

export function csvLine(row: CsvRow): string {
  const [takenAt, sensorType, ...values] = row;
  return `${new Date(takenAt).toISOString()},${csvCell(sensorType)},${values.map(cell).join(',')}\n`;
}
