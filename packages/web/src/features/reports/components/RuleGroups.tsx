import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  normalizeIgnoredWord,
  unknownWordOf,
  type RuleCount,
  type RuleGroup,
  type RuleRow,
  type TriageFilter,
} from '@linkaudit/core';
import { toastSuccess } from '../../../lib/notify';
import { ruleCategoryKey } from '../../../lib/rule-category';
import { defaultTabView, useReportTab } from '../api/get-report';
import {
  useChangeIgnoredWord,
  useIgnoredWords,
  useRuleCounts,
  useRuleGroups,
  type GroupsView,
} from '../api/rule-groups';
import { ruleTriageTarget } from '../api/triage';
import { triageColumn, triageRowClass, useShowsTriage } from './TriageControl';

/**
 * The rule tab, grouped (issue 25): counts per rule first; a rule expands into its groups of
 * identical findings (largest first, paged on the server), a group into its pages. A spelling
 * finding offers "ignore this word" when the reader owns the scan.
 */
export function RuleGroupsView({
  scanId,
  category,
  triage = 'open',
  rulesEnabled,
}: {
  scanId: string;
  category: string | undefined;
  /** Which findings by their triage mark (issue 27). */
  triage?: TriageFilter;
  rulesEnabled: boolean;
}) {
  const { t } = useTranslation();
  const counts = useRuleCounts(scanId, category, triage);
  return (
    <Table<RuleCount>
      className="rule-counts"
      rowKey="ruleId"
      loading={counts.isFetching}
      locale={{ emptyText: t(rulesEnabled ? 'report.empty.noData' : 'report.empty.noRules') }}
      dataSource={counts.data?.rules ?? []}
      pagination={false}
      expandable={{
        expandedRowRender: (rule) => <GroupsOfRule scanId={scanId} rule={rule} triage={triage} />,
      }}
      columns={[
        {
          title: t('report.columns.rule'),
          dataIndex: 'ruleName',
          render: (name: string, rule) =>
            rule.ruleURL ? (
              <Typography.Link href={rule.ruleURL} target="_blank" rel="noreferrer">
                {name}
              </Typography.Link>
            ) : (
              name
            ),
        },
        {
          title: t('report.columns.category'),
          dataIndex: 'ruleCategoryID',
          width: 150,
          render: (id: number) => t(ruleCategoryKey(id)),
        },
        { title: t('report.ruleGroups.findings'), dataIndex: 'findings', width: 110 },
        { title: t('report.ruleGroups.pages'), dataIndex: 'pages', width: 110 },
        { title: t('report.ruleGroups.groups'), dataIndex: 'groups', width: 110 },
      ]}
    />
  );
}

function GroupsOfRule({
  scanId,
  rule,
  triage,
}: {
  scanId: string;
  rule: RuleCount;
  triage: TriageFilter;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<GroupsView>({ page: 1, pageSize: 20 });
  const groups = useRuleGroups(scanId, rule.ruleId, { ...view, triage });
  return (
    <Table<RuleGroup>
      className="rule-groups"
      size="small"
      rowKey="key"
      loading={groups.isFetching}
      dataSource={groups.data?.lists ?? []}
      pagination={{
        current: view.page,
        pageSize: view.pageSize,
        total: groups.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [20, 50, 100],
        showTotal: (total: number, [from, to]: [number, number]) =>
          t('report.paging.range', { from, to, total }),
        onChange: (page: number, pageSize: number) => setView({ page, pageSize }),
      }}
      expandable={{
        expandedRowRender: (group) => (
          <RowsOfGroup
            scanId={scanId}
            ruleId={rule.ruleId}
            group={group.key}
            shared={group.message}
            triage={triage}
          />
        ),
      }}
      columns={[
        {
          title: t('report.columns.finding'),
          key: 'finding',
          render: (_, group) => (
            <Space wrap>
              <FindingText message={group.message} snippet={group.snippet} fallback={group.key} />
              <IgnoreWord scanId={scanId} message={group.message} />
            </Space>
          ),
        },
        { title: t('report.ruleGroups.findings'), dataIndex: 'findings', width: 100 },
        { title: t('report.ruleGroups.pages'), dataIndex: 'pages', width: 100 },
        {
          title: t('report.ruleGroups.firstPage'),
          dataIndex: 'firstUri',
          ellipsis: true,
          width: '35%',
        },
      ]}
    />
  );
}

/** A group's rows; the message its findings share is on the group's line, not repeated here. */
function RowsOfGroup({
  scanId,
  ruleId,
  group,
  shared,
  triage,
}: {
  scanId: string;
  ruleId: string;
  group: string;
  shared: string | null;
  triage: TriageFilter;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState({ ...defaultTabView, pageSize: 20, ruleId, group });
  const rows = useReportTab('ruleResult', scanId, { ...view, triage });
  const showTriage = useShowsTriage(scanId, rows.data?.lists);
  return (
    <Table<RuleRow>
      className="rule-group-rows"
      size="small"
      rowKey={(row) => `${row.uri}|${row.line}|${row.column}`}
      rowClassName={triageRowClass}
      loading={rows.isFetching}
      dataSource={rows.data?.lists ?? []}
      pagination={{
        current: view.page,
        pageSize: view.pageSize,
        total: rows.data?.total ?? 0,
        showSizeChanger: false,
        onChange: (page: number) => setView({ ...view, page }),
      }}
      columns={[
        { title: t('report.columns.page'), dataIndex: 'uri', ellipsis: true },
        ...(showTriage
          ? [triageColumn<RuleRow>(scanId, t('report.triage.column'), ruleTriageTarget)]
          : []),
        { title: t('report.columns.line'), dataIndex: 'line', width: 80 },
        { title: t('report.columns.position'), dataIndex: 'column', width: 90 },
        {
          title: t('report.columns.finding'),
          key: 'finding',
          ellipsis: true,
          render: (_, row) => (
            <Space size="small">
              {row.message !== shared && row.message}
              <FindingText message={null} snippet={row.snippet} />
            </Space>
          ),
        },
      ]}
    />
  );
}

/**
 * A finding: what the rule says it found, else the source it points at (as code); a group whose
 * findings differ in both shows its key (the message with addresses and figures blanked, or the
 * markup its findings point at).
 */
function FindingText({
  message,
  snippet,
  fallback = '',
}: {
  message: string | null;
  snippet: string | null;
  fallback?: string;
}) {
  if (message) return <span>{message}</span>;
  const code = snippet ?? fallback;
  return code ? <Typography.Text code>{code}</Typography.Text> : null;
}

/**
 * "Ignore this word" on a spelling finding (its message names the unknown word): the word joins
 * the site's list and the next scans of the site accept it; once ignored the row says so and
 * offers to undo. Nothing is shown to a reader who does not own the scan.
 */
export function IgnoreWord({ scanId, message }: { scanId: string; message: string | null }) {
  const { t } = useTranslation();
  const words = useIgnoredWords(scanId);
  const change = useChangeIgnoredWord(scanId);
  const word = unknownWordOf(message);
  if (!word || !words.data) return null;
  const ignored = words.data.words.includes(normalizeIgnoredWord(word));
  const act = (ignore: boolean) =>
    change.mutate(
      { word, ignore },
      {
        onSuccess: () =>
          toastSuccess(
            t(ignore ? 'report.ruleGroups.ignoredToast' : 'report.ruleGroups.undoneToast', {
              word,
            }),
          ),
      },
    );
  if (ignored) {
    return (
      <span className="ignored-word">
        <Tag color="green">{t('report.ruleGroups.ignored')}</Tag>
        <Button size="small" type="link" loading={change.isPending} onClick={() => act(false)}>
          {t('report.ruleGroups.undo')}
        </Button>
      </span>
    );
  }
  return (
    <Button size="small" loading={change.isPending} onClick={() => act(true)}>
      {t('report.ruleGroups.ignore')}
    </Button>
  );
}
