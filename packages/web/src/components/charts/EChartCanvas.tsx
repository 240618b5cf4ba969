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

export type ChartOption = echarts.EChartsCoreOption;

/** The seven colours of the failure-reasons chart (SPEC §9), reused by every chart. */
export const chartColors = [
  '#d4380d',
  '#fa8c16',
  '#fadb14',
  '#52c41a',
  '#13c2c2',
  '#1677ff',
  '#722ed1',
];

/**
 * One echarts chart that follows its box's size; `label` names it for screen readers. `svg`
 * draws it as SVG elements (each mark a node of its own, which a browser test can find and
 * hover) instead of on a canvas: for charts of a few hundred points.
 */
export function EChart({
  option,
  height = 260,
  label,
  renderer = 'canvas',
}: {
  option: ChartOption;
  height?: number;
  label: string;
  renderer?: 'canvas' | 'svg';
}) {
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
