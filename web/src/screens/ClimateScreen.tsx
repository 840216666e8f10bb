// Climate program (docs/climate.md): the targets now, today's curve with the sun times, the period editor.
import { useMemo } from 'react';
import { useClimateCurve, useClimateNow, useClimateProgram } from '../api/climate.ts';
import { QueryGate } from '../components/DataState.tsx';
import { formatClock } from '../format.ts';
import { CurrentTargets } from './climate/CurrentTargets.tsx';
import { ProgramCurve } from './climate/ProgramCurve.tsx';
import { ProgramEditor } from './climate/ProgramEditor.tsx';
import './climate/climate.css';

export function ClimateScreen() {
  const program = useClimateProgram();
  const now = useClimateNow();
  // Today from local midnight, so the curve reads like a day.
  const fromIso = useMemo(() => {
    const d = new Date();
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).toISOString();
  }, []);
  const curve = useClimateCurve(fromIso);
  const sun = now.data?.sun ?? null;
  return (
    <div className="screen">
      <h2 className="screen-title">Climate Program</h2>
      <CurrentTargets />
      <section className="card">
        <div className="card-header">
          <h3>Today</h3>
          {sun && (
            <span className="climate-sun muted" data-testid="climate-sun">
              Sunrise {sun.sunrise ? formatClock(Date.parse(sun.sunrise)) : '---'} · Sunset {sun.sunset ? formatClock(Date.parse(sun.sunset)) : '---'}
            </span>
          )}
        </div>
        <QueryGate query={curve} what="the program's curve">
          {curve.data && curve.data.length > 0 ? (
            <ProgramCurve points={curve.data} sunrise={sun?.sunrise ?? null} sunset={sun?.sunset ?? null} />
          ) : (
            <p className="muted">No program yet: save one below and its day is drawn here.</p>
          )}
        </QueryGate>
      </section>
      <section className="card">
        <h3>Periods</h3>
        <p className="muted">
          Each period starts at a clock time or a sun event; over its ramp the targets move from the previous period's to its own.
          Devices follow the program when their automation says so (Device Control, Automation).
        </p>
        <QueryGate query={program} what="the climate program">
          {program.data !== undefined && <ProgramEditor program={program.data} />}
        </QueryGate>
      </section>
    </div>
  );
}
