import { Empty, Spin, Table, Tag } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ScheduledRun, ScheduledScan } from '@linkaudit/core';
import { EChart, type ChartOption } from '../../../components/charts/EChart';
import { ScanStatusLabel } from '../../../components/scan-status/ScanStatusLabel';
import { paths, pathTo } from '../../../config/paths';
import { formatDuration } from '../../../lib/format';
import { useVisibleWidth } from '../../../lib/use-visible-width';
import { useScheduledRuns } from '../api/get-scheduled-runs';
import { runHistory } from '../lib/run-history';

// Three colours of the shared palette that stay apart on one chart.
const lineColors = { badLinks: '#d4380d', totalLinks: '#1677ff', minutes: '#722ed1' };

/** The expanded row of a schedule: its last 100 completed runs as lines and as a list (SPEC §2). */
export function ScheduleHistory({ schedule }: { schedule: ScheduledScan }) {
  const frame = useRef<HTMLDivElement>(null);
  // The row's cell pads 16 px on each side; the history stays within the visible part.
  const visible = useVisibleWidth(frame, '.ant-table-content');
  return (
    <div
      className="schedule-history-frame"
      ref={frame}
      style={visible ? { width: visible - 32 } : {}}
    >
      <HistoryBody schedule={schedule} />
    </div>
  );
}

function HistoryBody({ schedule }: { schedule: ScheduledScan }) {
  const { t } = useTranslation();
  const runs = useScheduledRuns(schedule);
  if (runs.isPending) return <Spin />;
  if (runs.isError) return null; // the global handler has shown why
  if (runs.data.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('schedule.history.empty')} />;
  }
  return (
    <div className="schedule-history" data-testid="schedule-history">
      <HistoryChart runs={runs.data} />
      <RunTable runs={runs.data} />
    </div>
  );
}

function HistoryChart({ runs }: { runs: ScheduledRun[] }) {
  const { t, i18n } = useTranslation();
  const option = useMemo<ChartOption>(() => {
    const history = runHistory(runs);
    const line = (name: string, data: number[], color: string, yAxisIndex = 0) => ({
      name,
      type: 'line',
      data,
      yAxisIndex,
      color,
      showSymbol: true,
    });
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 8, right: 8, top: 48, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: history.completed.map((date) =>
          new Date(date).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
        ),
      },
      yAxis: [
        { type: 'value', name: t('schedule.history.links'), minInterval: 1 },
        { type: 'value', name: t('schedule.history.minutes'), splitLine: { show: false } },
      ],
      series: [
        {
          ...line(t('schedule.history.badLinks'), history.badLinks, lineColors.badLinks),
          // Issue 27: a pin on each run that found problems the run before had not; hovered, it
          // says how many.
          markPoint: {
            symbol: 'pin',
            symbolSize: 36,
            label: { formatter: '!' },
            tooltip: {
              trigger: 'item',
              formatter: ({ value }: { value: number }) =>
                t('schedule.history.newProblemsTip', { count: value }),
            },
            data: history.newProblems.flatMap((isNew, index) =>
              isNew
                ? [
                    {
                      name: t('schedule.history.newProblems'),
                      coord: [index, history.badLinks[index] ?? 0],
                      value: runs[index]?.newProblems ?? 0,
                    },
                  ]
                : [],
            ),
          },
        },
        line(t('schedule.history.totalLinks'), history.totalLinks, lineColors.totalLinks),
        line(t('schedule.history.duration'), history.minutes, lineColors.minutes, 1),
      ],
    };
  }, [runs, t, i18n.language]);
  // SVG: at most 100 runs, and each pin is an element of its own (e2e/schedule-history.spec.ts).
  return <EChart option={option} height={280} label={t('schedule.history.chart')} renderer="svg" />;
}

/** The same runs newest first, each with its report. */
function RunTable({ runs }: { runs: ScheduledRun[] }) {
  const { t, i18n } = useTranslation();
  const newestFirst = useMemo(() => [...runs].reverse(), [runs]);
  return (
    <Table<ScheduledRun>
      size="small"
      rowKey="scanId"
      className="schedule-runs"
      dataSource={newestFirst}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 560 }}
      columns={[
        {
          title: t('schedule.history.completed'),
          dataIndex: 'dateCompleted',
          render: (date: string | null, run) =>
            new Date(date ?? run.dateCreated).toLocaleString(i18n.language),
        },
        {
          title: t('scan.list.status'),
          dataIndex: 'status',
          render: (status: number) => <ScanStatusLabel status={status} />,
        },
        { title: t('scan.list.links'), dataIndex: 'totalLinks' },
        { title: t('scan.list.badLinks'), dataIndex: 'badLinks' },
        {
          // Issue 27: the runs the chart marks.
          title: t('schedule.history.newProblems'),
          dataIndex: 'newProblems',
          render: (added: number | null) =>
            added ? (
              <Tag color="red">{t('schedule.history.newCount', { count: added })}</Tag>
            ) : null,
        },
        {
          title: t('scan.list.duration'),
          dataIndex: 'duration',
          render: (duration: number) => formatDuration(duration, t),
        },
        {
          title: t('schedule.history.report'),
          dataIndex: 'scanId',
          render: (scanId: string, run) =>
            run.totalLinks > 0 && (
              <Link to={pathTo(paths.report, { scanId })}>{t('schedule.history.openReport')}</Link>
            ),
        },
      ]}
    />
  );
}
