// The 'Environmental Trends' chart (docs/product.md §9): 400 px high, 2 px lines without points, gaps not
// connected, one line per field that has data, light on its own right-hand scale; under each line the
// band between the min and max of its buckets.
import { useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import type { Reading } from '../../../../server/contract/reading.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { UPlotChart } from '../../components/UPlotChart.tsx';
import { formatTimestamp } from '../../format.ts';
import { bandPlugin, type BandColumns } from '../../sensors/band-plugin.ts';
import { axisLabel, axisLabelWidthPx, buildChartData, ownAxesShown, RIGHT_AXIS_WIDTH_PX, summarize, type Column, type SeriesSpec } from '../../sensors/chart-data.ts';
import { formatQuantity } from '../../sensors/quantities.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import { timeAxisRange } from './chart-range.ts';

const HEIGHT_PX = 400;


/** A tooltip that follows the cursor: full timestamp, then each value to one decimal with its unit. */
function tooltipPlugin(series: SeriesSpec[]): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'chart-tooltip';
        tip.style.display = 'none';
        tip.setAttribute('data-testid', 'chart-tooltip');
        u.over.appendChild(tip);
      },
      setCursor: (u) => {
        const { idx, left, top } = u.cursor;
        if (idx == null || left == null || left < 0) {
          tip.style.display = 'none';
          return;
        }
        const x = u.data[0][idx]!;
        // Built node by node, colours through the CSSOM: the gateway's Content-Security-Policy refuses
        // inline style attributes in markup.
        const time = document.createElement('div');
        time.className = 'tt-time';
        time.textContent = formatTimestamp(new Date(x * 1000).toISOString());
        const rows = series.map((s, i) => {
          const row = document.createElement('div');
          const dot = document.createElement('span');
          dot.className = 'tt-dot';
          dot.style.background = s.color;
          row.append(dot, `${s.label}: ${formatQuantity(s.field, u.data[i + 1]![idx])} ${s.unit}`);
          return row;
        });
        tip.replaceChildren(time, ...rows);
        tip.style.display = 'block';
        // Beside the cursor, on whichever side has room, and always inside the plot (a phone's plot is
        // narrower than the tooltip's natural width: it then wraps instead of running off the card).
        const maxLeft = Math.max(0, u.over.clientWidth - tip.offsetWidth);
        const flip = left > u.over.clientWidth / 2;
        const wanted = flip ? left - tip.offsetWidth - 12 : left + 12;
        tip.style.left = `${Math.min(Math.max(0, wanted), maxLeft)}px`;
        const maxTop = Math.max(0, u.over.clientHeight - tip.offsetHeight);
        tip.style.top = `${Math.min(Math.max(0, (top ?? 0) - 10), maxTop)}px`;
      },
    },
  };
}

function makeOptions(series: SeriesSpec[], hours: number, width: number, bands: () => readonly BandColumns[]): uPlot.Options {
  const hasValue = series.some((s) => s.scale === 'value');
  // lux, ppm and hPa each on their own right-hand axis, in their line's colour; as many as the width allows.
  const ownScales = [...new Map(series.filter((s) => s.scale !== 'value').map((s) => [s.scale, s])).values()];
  const shownOwnAxes = ownAxesShown(ownScales.length, width);
  const timeValues = (_u: uPlot, splits: number[]) => splits.map((s) => axisLabel(s, hours));
  // uPlot spaces ticks at least `space` px apart: wider than the widest label, labels never collide.
  const timeSpacePx = axisLabelWidthPx(hours) + 24;
  // A canvas knows no CSS 'currentColor': take the theme's text colour (black axis text on the dark theme
  // was unreadable). The options are rebuilt when the theme changes (optionsKey).
  const axisText = getComputedStyle(document.documentElement).getPropertyValue('--text-muted').trim() || '#5b6b61';
  return {
    width,
    height: HEIGHT_PX,
    plugins: [tooltipPlugin(series), bandPlugin(series, bands)],
    cursor: { points: { show: false } },
    scales: {
      x: {
        time: true,
        // The selected range, or from the first reading for a young installation (chart-range.ts).
        range: (u) => timeAxisRange(hours, u.data[0]?.[0], Date.now() / 1000),
      },
    },
    series: [
      { label: 'Time', value: (_u, v) => (v == null ? '---' : formatTimestamp(new Date(v * 1000).toISOString())) },
      ...series.map<uPlot.Series>((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        scale: s.scale,
        spanGaps: false,
        points: { show: false },
        value: (_u, v) => (v == null ? '---' : `${formatQuantity(s.field, v)} ${s.unit}`),
      })),
    ],
    axes: [
      { values: timeValues, space: timeSpacePx, stroke: axisText, grid: { stroke: 'rgba(128,128,128,0.15)' } },
      ...(hasValue ? [{ scale: 'value', stroke: axisText, grid: { stroke: 'rgba(128,128,128,0.15)' } }] : []),
      ...ownScales.map((s, i) => ({
        scale: s.scale,
        side: 1,
        show: i < shownOwnAxes,
        stroke: s.color,
        grid: { show: !hasValue && i === 0 },
        label: s.unit,
        size: RIGHT_AXIS_WIDTH_PX,
      })),
    ],
  };
}

export function EnvironmentalTrends({ readings, hours }: { readings: Reading[]; hours: number }) {
  const unit = useTemperatureUnit();
  const chart = useMemo(() => {
    const built = buildChartData(readings);
    if (unit === 'C') return built;
    // Fahrenheit: convert the temperature column and relabel its series; the rest is unchanged.
    const at = built.series.findIndex((s) => s.field === 'temperature');
    if (at < 0) return built;
    const series = built.series.map((s, i) => (i === at ? { ...s, label: `Temperature (${unitSymbol(unit)})`, unit: unitSymbol(unit) } : s));
    const columns = built.columns.map((c, i) => (i === at + 1 ? c.map((v) => toUnit(v, unit)) : c)) as typeof built.columns;
    const convert = (c: Column) => c.map((v) => toUnit(v, unit));
    const bands = built.bands.map((b, i) => (i === at ? { min: convert(b.min), max: convert(b.max) } : b));
    return { series, columns, bands };
  }, [readings, unit]);
  // Read by the band plugin at each draw: new data redraws the band without rebuilding the plot.
  const bandsRef = useRef<readonly BandColumns[]>(chart.bands);
  bandsRef.current = chart.bands;
  const seriesKey = chart.series.map((s) => s.label).join(',');
  // Options (series, axis format) change only with the set of lines or the range: rebuild then only.
  const theme = useAuth().user?.preferences.theme ?? 'light';
  const optionsKey = `${seriesKey}|${hours}|${theme}`;
  return (
    <>
      <UPlotChart
        className="trend-chart"
        optionsKey={optionsKey}
        makeOptions={(width) => makeOptions(chart.series, hours, width, () => bandsRef.current)}
        data={chart.columns as uPlot.AlignedData}
      />
      <p className="sr-only" data-testid="chart-summary">
        {summarize(chart, hours)}
      </p>
    </>
  );
}
