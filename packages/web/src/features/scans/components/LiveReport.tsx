import { Empty, Spin, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isFinishedStatus, ScanStatus } from '@linkaudit/core';
import { ScanFailureNote } from '../../../components/scan-status/ScanFailureNote';
import { EChart, type ChartOption } from '../../../components/charts/EChart';
import { useBrokenLinksSummary } from '../api/get-broken-links-summary';

/** The expanded row of a scan: its broken links and the failure reasons as bars (SPEC §2). */
export function LiveReport({ scanId, status }: { scanId: string; status: number }) {
  const { t } = useTranslation();
  const summary = useBrokenLinksSummary(scanId, !isFinishedStatus(status));
  const option = useMemo<ChartOption | undefined>(() => {
    const reasons = summary.data?.reasons ?? [];
    if (reasons.length === 0) return undefined;
    return {
      grid: { left: 8, right: 16, top: 8, bottom: 8, containLabel: true },
      tooltip: {},
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: {
        type: 'category',
        data: reasons.map((reason) =>
          t(`failureReason.${reason.failureReason}`, reason.failureReason),
        ),
      },
      series: [
        {
          type: 'bar',
          colorBy: 'data',
          data: reasons.map((reason) => reason.numberOfReferences),
        },
      ],
    };
  }, [summary.data, t]);

  if (summary.isPending) return <Spin />;
  if (summary.isError) return null;
  // A failed scan says why rather than "no broken link found" (issue 37).
  if (summary.data.status === ScanStatus.Failed) {
    return <ScanFailureNote status={summary.data.status} logMessage={summary.data.logMessage} />;
  }
  if (summary.data.links.length === 0) {
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.empty.noBrokenLink')} />
    );
  }
  return (
    <div className="live-report">
      {option && (
        <EChart
          option={option}
          height={40 + summary.data.reasons.length * 32}
          label={t('report.charts.failureReasons')}
        />
      )}
      <Typography.Text strong>{t('report.sections.brokenLinks')}</Typography.Text>
      <Table
        size="small"
        rowKey="targetUri"
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        dataSource={summary.data.links}
        columns={[
          { title: t('report.columns.target'), dataIndex: 'targetUri', ellipsis: true },
          { title: t('report.columns.statusCode'), dataIndex: 'statusCode', width: 90 },
          {
            title: t('report.columns.reason'),
            dataIndex: 'failureReason',
            width: 200,
            render: (reason: string | null) => (reason ? t(`failureReason.${reason}`, reason) : ''),
          },
          { title: t('report.columns.references'), dataIndex: 'referenceCount', width: 110 },
        ]}
      />
    </div>
  );
}
