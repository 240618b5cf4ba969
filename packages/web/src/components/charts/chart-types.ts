// What a chart is given, shared by the light EChart wrapper and the echarts module it loads.
import type { EChartsCoreOption } from 'echarts/core';

export type ChartOption = EChartsCoreOption;

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

export interface EChartProps {
  option: ChartOption;
  height?: number;
  /** Names the chart for screen readers. */
  label: string;
  /**
   * `svg` draws it as SVG elements (each mark a node of its own, which a browser test can find
   * and hover) instead of on a canvas: for charts of a few hundred points.
   */
  renderer?: 'canvas' | 'svg';
}
