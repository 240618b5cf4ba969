// echarts itself (about 200 kB of gzip): loaded with the first chart a screen draws (EChart.tsx).
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { chartColors, type EChartProps } from './chart-types';

echarts.use([
  PieChart,
  BarChart,
  LineChart,
  GridComponent,
  LegendComponent,
  // The schedule history's pins on runs with new problems (issue 27).
  MarkPointComponent,
  TooltipComponent,
  CanvasRenderer,
  SVGRenderer,
]);

/**
 * One echarts chart that follows its box's size; `label` names it for screen readers. `svg`
 * draws it as SVG elements (each mark a node of its own, which a browser test can find and
 * hover) instead of on a canvas: for charts of a few hundred points.
 */
export default function EChartCanvas({
  option,
  height = 260,
  label,
  renderer = 'canvas',
}: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const chart = echarts.init(box.current, undefined, { renderer });
    chart.setOption({ color: chartColors, animation: false, ...option });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [option, renderer]);
  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
