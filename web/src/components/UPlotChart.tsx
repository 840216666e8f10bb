// A uPlot wrapper in the Grafana style: the plot is created once per `options`, `setData` runs when the
// data changes, `setSize` follows the container's width, and the plot is destroyed on unmount.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface UPlotChartProps {
  /** Build the options for a given width; called only when `optionsKey` changes (or on first mount). */
  makeOptions: (width: number) => uPlot.Options;
  optionsKey: string;
  data: uPlot.AlignedData;
  className?: string;
}

export function UPlotChart({ makeOptions, optionsKey, data, className }: UPlotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;
  const makeOptionsRef = useRef(makeOptions);
  makeOptionsRef.current = makeOptions;

  // Create (and rebuild only when the options change), destroy on unmount.
  useEffect(() => {
    const container = containerRef.current!;
    const plot = new uPlot(makeOptionsRef.current(container.clientWidth || 300), dataRef.current, container);
    plotRef.current = plot;
    const observer = new ResizeObserver(() => {
      const width = container.clientWidth;
      if (width > 0 && width !== plot.width) plot.setSize({ width, height: plot.height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [optionsKey]);

  useEffect(() => {
    plotRef.current?.setData(data);
  }, [data]);

  return <div ref={containerRef} className={className} />;
}
