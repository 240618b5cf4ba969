import { describeSchedule } from '@linkaudit/core/schedule-description';
import { Card, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isFinishedStatus, ScheduleStatus, type ScheduledScan } from '@linkaudit/core';
import { ScanStatusLabel } from '../../../components/scan-status/ScanStatusLabel';
import { paths, pathTo } from '../../../config/paths';
import { formatRelativeTime } from '../../../lib/relative-time';
import { scheduleWords } from '../../../lib/schedule/schedule-words';
import { useSchedules } from '../api/get-schedules';
import { skipReasonKey } from '../lib/skip-reasons';
import { ScheduleHistory } from './ScheduleHistory';
import { ScheduleRowActions } from './ScheduleRowActions';

/** A date as "3 hours ago", with the exact time on hover. */
function When({ date }: { date: string }) {
  const { i18n } = useTranslation();
  const then = new Date(date);
  return (
    <Tooltip title={then.toLocaleString(i18n.language)}>
      <span className="schedule-when">{formatRelativeTime(then, i18n.language)}</span>
    </Tooltip>
  );
}

/**
 * How the last run went and when it started; a finished run that checked links opens its
 * report.
 */
function LastRun({ schedule }: { schedule: ScheduledScan }) {
  const { t } = useTranslation();
  if (schedule.lastRun === null || schedule.statusCode === null) return t('schedule.list.never');
  const label = <ScanStatusLabel status={schedule.statusCode} />;
  return (
    <Space orientation="vertical" size={0}>
      {schedule.lastScanId && isFinishedStatus(schedule.statusCode) ? (
        <Link to={pathTo(paths.report, { scanId: schedule.lastScanId })}>{label}</Link>
      ) : (
        label
      )}
      <Typography.Text type="secondary">
        <When date={schedule.lastRun} />
      </Typography.Text>
    </Space>
  );
}

/** Runs started, and the runs skipped (SPEC's run count; ours: why the last one was skipped). */
function RunCount({ schedule }: { schedule: ScheduledScan }) {
  const { t, i18n } = useTranslation();
  const count = <span className="schedule-run-count">{schedule.runCount}</span>;
  if (schedule.skippedRuns === 0) return count;
  const reason = schedule.lastSkipReason ?? '';
  const key = skipReasonKey(reason);
  const when = schedule.lastSkipped
    ? new Date(schedule.lastSkipped).toLocaleString(i18n.language)
    : '';
  return (
    <Space size={6}>
      {count}
      <Tooltip
        title={t('schedule.list.lastSkipped', {
          date: when,
          reason: key ? t(`schedule.skipReasons.${key}`) : reason,
        })}
      >
        <Typography.Text type="warning" className="schedule-skipped">
          {t('schedule.list.skipped', { count: schedule.skippedRuns })}
        </Typography.Text>
      </Tooltip>
    </Space>
  );
}

/**
 * The user's scheduled scans (SPEC §2 Schedule screen): what runs when, how the last run went,
 * the actions, and each schedule's history in its expanded row.
 */
export function ScheduleList({
  onEdit,
  emptyText,
}: {
  onEdit: (schedule: ScheduledScan) => void;
  emptyText: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const schedules = useSchedules();

  return (
    <Card className="schedule-list" title={t('schedule.list.title')}>
      <Table<ScheduledScan>
        rowKey="id"
        size="middle"
        loading={schedules.isPending}
        dataSource={schedules.data ?? []}
        scroll={{ x: 1040 }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />,
        }}
        rowClassName="schedule-row"
        expandable={{ expandedRowRender: (schedule) => <ScheduleHistory schedule={schedule} /> }}
        columns={[
          { title: t('scan.list.url'), dataIndex: 'url', width: 180, ellipsis: true },
          {
            title: t('schedule.list.schedule'),
            key: 'description',
            width: 180,
            // SPEC §9's words first; the time of day comes with the cron description below.
            render: (_, schedule) => (
              <Space orientation="vertical" size={0}>
                <span className="schedule-words">
                  {scheduleWords(schedule.scheduleSettings, t, i18n.language)}
                </span>
                <Typography.Text type="secondary" className="schedule-description">
                  {describeSchedule(schedule.scheduleSettings, i18n.language)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('schedule.list.nextRun'),
            dataIndex: 'nextRun',
            width: 150,
            render: (date: string | null) =>
              date
                ? new Date(date).toLocaleString(i18n.language, {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  })
                : '—',
          },
          {
            title: t('schedule.list.lastRun'),
            key: 'lastRun',
            width: 170,
            render: (_, schedule) => <LastRun schedule={schedule} />,
          },
          {
            title: t('schedule.list.runs'),
            key: 'runCount',
            width: 80,
            render: (_, schedule) => <RunCount schedule={schedule} />,
          },
          {
            title: t('schedule.list.state'),
            dataIndex: 'status',
            width: 90,
            render: (status: number) =>
              status === ScheduleStatus.Paused ? (
                <Tag className="schedule-state">{t('schedule.state.paused')}</Tag>
              ) : (
                <Tag className="schedule-state" color="green">
                  {t('schedule.state.active')}
                </Tag>
              ),
          },
          {
            title: t('scan.list.actions'),
            key: 'actions',
            width: 140,
            fixed: 'right',
            render: (_, schedule) => <ScheduleRowActions schedule={schedule} onEdit={onEdit} />,
          },
        ]}
      />
    </Card>
  );
}
