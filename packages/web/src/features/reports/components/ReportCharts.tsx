import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportSummary } from '@linkaudit/core';
import { EChart, type ChartOption } from '../../../components/charts/EChart';
import { formatSize } from '../../../lib/format';

function pie(data: Array<{ name: string; value: number }>, doughnut = false): ChartOption {
  return {
    tooltip: { trigger: 'item' },
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        type: 'pie',
        radius: doughnut ? ['45%', '70%'] : '55%',
        center: ['50%', '45%'],
        data,
        // Labels are kept to the chart's edges and long names wrap there, so a phone's narrow
        // chart does not cut them (issue 37); labels that would overlap give way to the legend.
        label: {
          show: !doughnut,
          alignTo: 'edge',
          edgeDistance: 8,
          width: 80,
          overflow: 'break',
          lineHeight: 14,
        },
        labelLine: { length: 8, length2: 0 },
        labelLayout: { hideOverlap: true },
      },
    ],
  };
}

/** Failure reasons of the broken links (SPEC §2). */
export function FailureReasonsPie({ summary }: { summary: ReportSummary }) {
  const { t } = useTranslation();
  const option = useMemo(
    () =>
      pie(
        summary.reasons.map((reason) => ({
          name: t(`failureReason.${reason.failureReason}`, reason.failureReason),
          value: reason.numberOfReferences,
        })),
      ),
    [summary.reasons, t],
  );
  return <EChart option={option} label={t('report.charts.failureReasons')} />;
}

/** Pages per size bucket, 1–5 MB (SPEC §9). */
export function PageSizePie({ summary }: { summary: ReportSummary }) {
  const { t } = useTranslation();
  const option = useMemo(
    () =>
      pie(
        summary.pageSizeBuckets
          .filter((bucket) => bucket.pages > 0)
          .map((bucket) => ({ name: bucket.label, value: bucket.pages })),
      ),
    [summary.pageSizeBuckets],
  );
  return <EChart option={option} label={t('report.charts.pageSizes')} />;
}

/** Bytes per content type, in MB of base 1000 (SPEC §9). */
export function ContentTypePie({ summary }: { summary: ReportSummary }) {
  const { t } = useTranslation();
  const option = useMemo(
    () => ({
      ...pie(
        summary.contentTypeSizes.map((row) => ({
          name: row.contentType,
          value: row.totalSize / 1_000_000,
        })),
      ),
      tooltip: {
        trigger: 'item',
        valueFormatter: (mb: number) => formatSize(mb * 1_000_000),
      },
    }),
    [summary.contentTypeSizes],
  );
  return <EChart option={option} label={t('report.charts.contentTypes')} />;
}

/** Passed and failed checks of one rule category as a doughnut. */
export function RuleCategoryDoughnut({
  name,
  passed,
  failed,
}: {
  name: string;
  passed: number;
  failed: number;
}) {
  const { t } = useTranslation();
  const option = useMemo(
    () => ({
      ...pie(
        [
          { name: t('report.rules.passed'), value: passed },
          { name: t('report.rules.failed'), value: failed },
        ],
        true,
      ),
      color: ['#52c41a', '#d4380d'],
    }),
    [passed, failed, t],
  );
  // The category's name is a caption in the page, not drawn on the canvas: it is read aloud,
  // found by search, and there is no chart title component to forget to register.
  return (
    <figure className="rule-category-chart">
      <figcaption className="rule-category-name">{name}</figcaption>
      <EChart option={option} height={200} label={name} />
    </figure>
  );
}
