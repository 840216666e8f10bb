// The °C/°F display preference. The gateway stores and sends Celsius; this only changes
// what the screens show. Kept in this browser's localStorage: it is a display choice of this phone,
// and the server's preferences schema is strict.
//   const unit = useTemperatureUnit();  formatTemperature(21.5, unit) -> '70.7'
import { useSyncExternalStore } from 'react';

export type TemperatureUnit = 'C' | 'F';

const STORAGE_KEY = 'temperatureUnit';
const listeners = new Set<() => void>();

export function getTemperatureUnit(): TemperatureUnit {
  return localStorage.getItem(STORAGE_KEY) === 'F' ? 'F' : 'C';
}

export function setTemperatureUnit(unit: TemperatureUnit): void {
  localStorage.setItem(STORAGE_KEY, unit);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed it.
  const onStorage = (event: StorageEvent) => event.key === STORAGE_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useTemperatureUnit(): TemperatureUnit {
  return useSyncExternalStore(subscribe, getTemperatureUnit);
}

/** Celsius to the chosen unit (null stays null). */
export function toUnit(celsius: number, unit: TemperatureUnit): number;
export function toUnit(celsius: number | null | undefined, unit: TemperatureUnit): number | null | undefined;
export function toUnit(celsius: number | null | undefined, unit: TemperatureUnit): number | null | undefined {
  if (typeof celsius !== 'number' || unit === 'C') return celsius;
  return (celsius * 9) / 5 + 32;
}

/** The chosen unit back to Celsius, kept to 0.01 °C so 64.4 °F is 18 °C again. */
export function fromUnit(value: number, unit: TemperatureUnit): number {
  if (unit === 'C' || !Number.isFinite(value)) return value;
  return Math.round((((value - 32) * 5) / 9) * 100) / 100;
}

export const unitSymbol = (unit: TemperatureUnit): string => (unit === 'F' ? '°F' : '°C');
