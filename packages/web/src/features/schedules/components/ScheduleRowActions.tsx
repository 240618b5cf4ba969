import {
  DeleteOutlined,
  EditOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { App, Button, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  ScanStatus,
  ScheduleStatus,
  type CreateScanResponse,
  type ScheduledScan,
} from '@linkaudit/core';
import { busy } from '../../../lib/busy';
import { paths } from '../../../config/paths';
import { toastSuccess } from '../../../lib/notify';
import { useDeleteSchedule, useSetSchedulePaused } from '../api/change-schedule';
import { hasRunUnderway } from '../api/get-schedules';
import { useRunScheduleNow } from '../api/run-schedule-now';

function ActionButton({
  label,
  icon,
  onClick,
  loading = false,
  disabled,
  danger,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  loading?: boolean;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        icon={icon}
        aria-label={label}
        loading={busy(loading)}
        disabled={disabled}
        danger={danger}
        onClick={onClick}
      />
    </Tooltip>
  );
}

/** Run now, pause or resume, edit and delete (with confirmation) of one schedule (SPEC §2). */
export function ScheduleRowActions({
  schedule,
  onEdit,
}: {
  schedule: ScheduledScan;
  onEdit: (schedule: ScheduledScan) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const runAnswered = useRunAnswer();
  const runNow = useRunScheduleNow();
  const setPaused = useSetSchedulePaused(t('schedule.list.updateFailed'));
  const remove = useDeleteSchedule(t('schedule.list.deleteFailed'));
  const paused = schedule.status === ScheduleStatus.Paused;

  const confirmDelete = () => {
    void modal.confirm({
      title: t('schedule.list.deleteTitle'),
      content: t('schedule.list.deleteText', { url: schedule.url }),
      okText: t('schedule.list.delete'),
      okButtonProps: { danger: true },
      cancelText: t('scan.answers.close'),
      onOk: () => remove.mutateAsync(schedule.id),
    });
  };

  return (
    <Space>
      <ActionButton
        label={t('schedule.list.runNow')}
        icon={<ThunderboltOutlined />}
        loading={runNow.isPending}
        disabled={hasRunUnderway(schedule)}
        onClick={() => runNow.mutate(schedule.id, { onSuccess: runAnswered })}
      />
      <ActionButton
        label={paused ? t('schedule.list.resume') : t('schedule.list.pause')}
        icon={paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
        loading={setPaused.isPending}
        onClick={() => setPaused.mutate({ id: schedule.id, paused: !paused })}
      />
      <ActionButton
        label={t('schedule.list.edit')}
        icon={<EditOutlined />}
        onClick={() => onEdit(schedule)}
      />
      <ActionButton
        label={t('schedule.list.delete')}
        icon={<DeleteOutlined />}
        danger
        onClick={confirmDelete}
      />
    </Space>
  );
}

/** A run started now answers like a scan submission: queued, or SPEC §8's 12 and 13 dialogs. */
function useRunAnswer() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const offerUpgrade = (title: string, content: string) =>
    modal.confirm({
      title,
      content,
      okText: t('scan.answers.upgrade'),
      cancelText: t('scan.answers.close'),
      onOk: () => navigate(paths.pricing.path),
    });
  return (answer: CreateScanResponse) => {
    if (answer.status === ScanStatus.MonthlyLimitReached) {
      offerUpgrade(t('scan.answers.monthlyLimit.title'), t('scan.answers.monthlyLimit.text'));
    } else if (answer.status === ScanStatus.LowCreditWarning) {
      offerUpgrade(
        t('scan.answers.lowCredit.title'),
        t('schedule.list.lowCredit', { count: answer.remainingUrls ?? 0 }),
      );
    } else {
      toastSuccess(
        answer.queuePosition
          ? t('scan.answers.queuedAt', { n: answer.queuePosition })
          : t('scan.answers.queued'),
      );
    }
  };
}
