import { Alert, Segmented, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import {
  changeStates,
  problemKinds,
  type ChangeState,
  type ProblemKind,
  type ScanChangeRow,
  type TriageTarget,
} from '@linkaudit/core';
import { ResponsiveTable } from '../../../components/tables/ResponsiveTable';
import { useScanChanges, type ChangesView as View } from '../api/get-changes';
import { TriageControl, TriageFilterSelect, triageRowClass } from './TriageControl';

const stateColors: Record<ChangeState, string> = {
  new: 'red',
  still: 'orange',
  fixed: 'green',
  removed: 'default',
};

/** "Since the previous scan: 2 new, 3 still, 1 fixed", at the top of the summary (issue 27). */
export function ChangeCounts({ scanId }: { scanId: string }) {
  const { t } = useTranslation();
  const changes = useScanChanges(scanId);
  if (!changes.data) return null;
  const { counts, previousScanId } = changes.data;
  return (
    <Alert
      className="report-change-counts"
      type={counts.new > 0 ? 'warning' : 'info'}
      showIcon
      message={
        previousScanId
          ? t('report.changes.counts', { ...counts })
          : t('report.changes.firstScan', { count: counts.new })
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/** What a mark of a change row names: a problem this scan has (not a fixed one, nor a certificate). */
function changeTriageTarget(row: ScanChangeRow): TriageTarget | undefined {
  if (row.state === 'fixed' || row.state === 'removed' || row.kind === 'certificate')
    return undefined;
  if (row.kind === 'rule') {
    return row.ruleId ? { kind: 'rule', target: row.target, ruleId: row.ruleId } : undefined;
  }
  return { kind: row.kind, target: row.target };
}

function useColumns(scanId: string): ColumnsType<ScanChangeRow> {
  const { t, i18n } = useTranslation();
  return [
    {
      title: t('report.changes.columns.state'),
      dataIndex: 'state',
      width: 110,
      render: (state: ChangeState) => (
        <Tag color={stateColors[state]}>{t(`report.changes.state.${state}`)}</Tag>
      ),
    },
    {
      title: t('report.changes.columns.kind'),
      dataIndex: 'kind',
      width: 140,
      render: (kind: ProblemKind) => t(`report.changes.kind.${kind}`),
    },
    // The whole address, wrapped (issue 37: cut at 1366 px); a finding's rule under it, so link
    // rows have no empty Rule column.
    {
      title: t('report.changes.columns.target'),
      dataIndex: 'target',
      render: (target: string, row) => (
        <>
          <span className="report-url">{target}</span>
          {row.detail && (
            <Typography.Text type="secondary" className="change-rule">
              {t('report.changes.rule', { rule: row.detail })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: t('report.triage.column'),
      key: 'triage',
      width: 200,
      render: (_, row) => (
        <TriageControl scanId={scanId} target={changeTriageTarget(row)} triage={row.triage} />
      ),
    },
    {
      title: t('report.changes.columns.firstSeen'),
      dataIndex: 'firstSeen',
      width: 200,
      render: (firstSeen: string | null) =>
        firstSeen ? new Date(firstSeen).toLocaleString(i18n.language) : '',
    },
  ];
}

/**
 * The Changes tab (issue 27): every problem of the scan as new or still (since its first-seen
 * date), and those of the previous scan now fixed, filtered by state, kind and triage mark
 * (ignored ones hidden by default) on the server; a marked problem shows its mark.
 */
export function ChangesView({
  scanId,
  view,
  onView: setView,
}: {
  scanId: string;
  /** The filters and page (the report's toolbar exports the same rows as CSV). */
  view: View;
  onView: (view: View) => void;
}) {
  const { t } = useTranslation();
  const changes = useScanChanges(scanId, view);
  const columns = useColumns(scanId);
  const counts = changes.data?.counts;
  const stateOptions = [
    { value: 'all', label: t('report.changes.all') },
    ...changeStates.map((state) => ({
      value: state,
      label: `${t(`report.changes.state.${state}`)} (${counts?.[state] ?? 0})`,
    })),
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ChangeCounts scanId={scanId} />
      <Space wrap>
        <Segmented
          aria-label={t('report.changes.stateFilter')}
          value={view.state ?? 'all'}
          options={stateOptions}
          onChange={(value) =>
            setView({
              ...view,
              page: 1,
              state: value === 'all' ? undefined : (value as ChangeState),
            })
          }
        />
        <Select
          aria-label={t('report.changes.kindFilter')}
          allowClear
          placeholder={t('report.changes.kindFilter')}
          style={{ minWidth: 200 }}
          value={view.kind}
          onChange={(kind?: ProblemKind) => setView({ ...view, page: 1, kind })}
          options={problemKinds.map((kind) => ({
            value: kind,
            label: t(`report.changes.kind.${kind}`),
          }))}
        />
        <TriageFilterSelect
          value={view.triage}
          ignored={changes.data?.ignored}
          onChange={(triage) => setView({ ...view, page: 1, triage })}
        />
      </Space>
      <ResponsiveTable<ScanChangeRow>
        cardLabel={(row) => row.target}
        rowKey={(row) => `${row.state}|${row.kind}|${row.target}|${row.detail ?? ''}`}
        rowClassName={triageRowClass}
        loading={changes.isPending}
        dataSource={changes.data?.rows ?? []}
        columns={columns}
        locale={{ emptyText: <Typography.Text>{t('report.changes.empty')}</Typography.Text> }}
        pagination={{
          current: view.page,
          pageSize: view.pageSize,
          total: changes.data?.total ?? 0,
          onChange: (page, pageSize) => setView({ ...view, page, pageSize }),
        }}
        scroll={{ x: 960 }}
        size="middle"
      />
    </Space>
  );
}
