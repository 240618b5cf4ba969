import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { EChartProps } from './chart-types';

// The charts load on demand (issue 37): echarts is the largest library of the app (about 200 kB
// of gzip), and a screen's text and tables need not wait for it. A chart's box keeps its size
// while it loads, so nothing moves when it is drawn.
const EChartCanvas = lazy(() => import('./EChartCanvas'));

export { chartColors, type ChartOption, type EChartProps } from './chart-types';

/** One echarts chart that follows its box's size. */
export function EChart(props: EChartProps) {
  const height = props.height ?? 260;
  return (
    <Suspense
      fallback={
        <div className="chart-loading" style={{ height }} aria-busy="true" aria-label={props.label}>
          <Skeleton.Node active style={{ width: '100%', height }} />
        </div>
      }
    >
      <EChartCanvas {...props} />
    </Suspense>
  );
}
