import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  LoadingOutlined,
  PauseCircleOutlined,
  StopOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScanStatus } from '@linkaudit/core';

/** SPEC §4 icons: 5, 8, 9, 11 spinner; 6 clock; 1 and 10 check; 2 and 4 ban; 3 warning. */
function statusIcon(status: number) {
  switch (status) {
    case ScanStatus.InProgress:
    case ScanStatus.Cancelling:
    case ScanStatus.RuleChecking:
    case ScanStatus.Finalizing:
      return <LoadingOutlined data-icon="spinner" />;
    case ScanStatus.Queued:
      return <ClockCircleOutlined data-icon="clock" />;
    case ScanStatus.Complete:
    case ScanStatus.OverMaxLinks:
      return <CheckCircleOutlined data-icon="check" style={{ color: '#389e0d' }} />;
    case ScanStatus.Cancelled:
    case ScanStatus.Timeout:
      return <StopOutlined data-icon="ban" style={{ color: '#8c8c8c' }} />;
    case ScanStatus.Failed:
      return <WarningOutlined data-icon="warning" style={{ color: '#d4380d' }} />;
    default:
      return <PauseCircleOutlined data-icon="paused" />;
  }
}

export function ScanStatusLabel({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Space size={6} className="scan-status" data-status={status}>
      {statusIcon(status)}
      <span>{t(`scanStatus.s${status}`)}</span>
    </Space>
  );
}
