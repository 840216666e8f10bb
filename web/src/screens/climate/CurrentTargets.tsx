// The targets in force now, as the Overview and the program screen show them: heat below, vent above,
// dehumidify above, the period or why the safe targets hold, and when they next change.
import { Link } from 'react-router';
import { useClimateNow } from '../../api/climate.ts';
import { formatClock } from '../../format.ts';
import './climate.css';

export function CurrentTargets({ linkToEditor = false }: { linkToEditor?: boolean }) {
  const { data } = useClimateNow();
  if (!data) return null;
  if (data.heatBelowC === null) {
    if (!linkToEditor) return null;
    return (
      <section className="card" data-testid="climate-targets">
        <h3>Climate Targets</h3>
        <p className="muted">No climate program: each device follows its own rules. <Link to="/dashboard/climate">Set up a program</Link></p>
      </section>
    );
  }
  return (
    <section className="card" data-testid="climate-targets">
      <div className="card-header">
        <h3>Climate Targets</h3>
        {linkToEditor && <Link to="/dashboard/climate">Edit program</Link>}
      </div>
      <div className="climate-now">
        <span>Heat below <strong className="climate-heat">{data.heatBelowC} °C</strong></span>
        <span>Vent above <strong className="climate-vent">{data.ventAboveC} °C</strong></span>
        {data.humidityAbovePct !== null && <span>Dehumidify above <strong>{data.humidityAbovePct} %</strong></span>}
      </div>
      <p className={data.clockSynchronised ? 'muted' : 'settings-warning'} data-testid="climate-period-text">
        {data.text}
        {data.nextChangeAt && ` · next change ${formatClock(Date.parse(data.nextChangeAt))}`}
      </p>
    </section>
  );
}
