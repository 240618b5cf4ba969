import { Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  brokenAnchorReason,
  type DuplicateAnchorRow,
  type FileTypeRow,
  type LinkRow,
  type PageInclusionRow,
  type PageRow,
  type ReportData,
  type RuleRow,
} from '@linkaudit/core';
import { ResponsiveTable } from '../../../components/tables/ResponsiveTable';
import { RulesEnglishNote } from '../../../components/ui/RulesEnglishNote';
import { translateMessage } from '../../../lib/errors';
import { formatRank, formatSize } from '../../../lib/format';
import { ruleCategoryKey } from '../../../lib/rule-category';
import { useReportTab, type TabView } from '../api/get-report';
import { linkTriageTarget, ruleTriageTarget } from '../api/triage';
import { IgnoreWord } from './RuleGroups';
import { SuggestionCell } from './SuggestionCell';
import { triageColumn, triageRowClass, useShowsTriage } from './TriageControl';

type Paging = { view: TabView; onView: (view: TabView) => void };

function pagination<Row>(
  data: ReportData<Row> | undefined,
  { view, onView }: Paging,
  t: TFunction,
) {
  return {
    current: view.page,
    pageSize: view.pageSize,
    total: data?.total ?? 0,
    showSizeChanger: true,
    showTotal: (total: number, [from, to]: [number, number]) =>
      t('report.paging.range', { from, to, total }),
    pageSizeOptions: [20, 50, 100, 200],
    onChange: (page: number, pageSize: number) => onView({ ...view, page, pageSize }),
  };
}

function useLinkColumns(scanId: string, showTriage: boolean): ColumnsType<LinkRow> {
  const { t } = useTranslation();
  // What a row is read for first (issue 37): the link, where it is, why it is broken, the mark
  // and the fix; the details after. No column is pinned: pinned ones covered the reason at
  // 1366 px (a broken anchor read "200" and nothing else) and the link itself on a phone.
  return [
    // Addresses wrap rather than being cut: the broken link is what the row is about.
    {
      title: t('report.columns.target'),
      dataIndex: 'targetUri',
      width: 300,
      render: (url: string) => <span className="report-url">{url}</span>,
    },
    {
      title: t('report.columns.source'),
      dataIndex: 'sourceUri',
      width: 240,
      render: (url: string) => <span className="report-url">{url}</span>,
    },
    {
      title: t('report.columns.reason'),
      dataIndex: 'failureReason',
      width: 180,
      render: (reason: string | null, row) =>
        reason ? t(`failureReason.${reason}`, reason) : translateMessage(row.statusDetail ?? '', t),
    },
    { title: t('report.columns.statusCode'), dataIndex: 'statusCode', width: 90 },
    ...(showTriage
      ? [triageColumn<LinkRow>(scanId, t('report.triage.column'), linkTriageTarget)]
      : []),
    {
      title: t('report.suggestion.column'),
      key: 'suggestion',
      width: 260,
      render: (_, row) => <SuggestionCell suggestion={row.suggestion} />,
    },
    {
      title: t('report.columns.error'),
      dataIndex: 'errorMessage',
      width: 200,
      render: (message: string | null, row) =>
        message
          ? translateMessage(message, t)
          : row.failureReason === brokenAnchorReason && row.anchor
            ? t('report.anchorNotFound', { anchor: row.anchor.replace(/^#/, '') })
            : message,
    },
    { title: t('report.columns.references'), dataIndex: 'referenceCount', width: 100 },
    {
      title: t('report.columns.line'),
      key: 'line',
      width: 90,
      render: (_, row) => `${row.line}:${row.column}`,
    },
  ];
}

const rowKey = (row: { targetUri: string; sourceUri: string; line: number; column: number }) =>
  `${row.targetUri}|${row.sourceUri}|${row.line}|${row.column}`;

/** True once the element has come near the viewport, and from then on. */
function useSeen(): [(node: HTMLElement | null) => void, boolean] {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!node || seen) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: '300px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [node, seen]);
  return [setNode, seen];
}

/**
 * The rows of one group, read when the group is expanded and has come into view: Expand All on
 * a page of 200 groups reads and draws the few groups on screen, not 200 tables at once.
 */
function LinkGroupRows({
  scanId,
  view,
  groupKey,
}: {
  scanId: string;
  view: TabView;
  groupKey: string;
}) {
  const [watch, seen] = useSeen();
  const field = view.groupBy === 'reason' ? 'reason' : view.groupBy;
  const query = useReportTab(
    'link',
    scanId,
    { ...view, groupBy: 'none', page: 1, pageSize: 100, [field]: groupKey },
    seen,
  );
  const columns = useLinkColumns(scanId, useShowsTriage(scanId, query.data?.lists));
  // About the height of a small table, so only the groups near the screen count as seen.
  if (!seen) return <div ref={watch} aria-busy="true" style={{ minHeight: 120 }} />;
  return (
    <ResponsiveTable<LinkRow>
      size="small"
      rowKey={rowKey}
      cardLabel={(row) => row.targetUri}
      rowClassName={triageRowClass}
      loading={query.isPending}
      dataSource={query.data?.lists ?? []}
      columns={columns}
      pagination={false}
      scroll={{ x: columns.length > 8 ? 1680 : 1480 }}
    />
  );
}

/** The Link tab: link occurrences (broken, all, broken anchors), or their groups. */
export function LinkTable({
  scanId,
  data,
  loading,
  expanded,
  onExpand,
  ...paging
}: Paging & {
  scanId: string;
  data: ReportData<LinkRow> | undefined;
  loading: boolean;
  expanded: string[];
  onExpand: (keys: string[]) => void;
}) {
  const { t } = useTranslation();
  const columns = useLinkColumns(scanId, useShowsTriage(scanId, data?.lists));
  const status = paging.view.status ?? 'broken';
  const empty = {
    emptyText: t(status === 'broken' ? 'report.empty.zeroBroken' : 'report.empty.noData'),
  };
  if (paging.view.groupBy !== 'none') {
    return (
      <Table<{ key: string; count: number }>
        className="report-groups"
        rowKey="key"
        loading={loading}
        locale={empty}
        dataSource={data?.groups ?? []}
        pagination={pagination(data, paging, t)}
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => onExpand(keys.map(String)),
          expandedRowRender: (group) => (
            <LinkGroupRows scanId={scanId} view={paging.view} groupKey={group.key} />
          ),
        }}
        columns={[
          {
            title: t(`report.groupBy.${paging.view.groupBy}`),
            dataIndex: 'key',
            ellipsis: true,
            render: (key: string) =>
              paging.view.groupBy === 'reason' ? t(`failureReason.${key}`, key) : key,
          },
          { title: t('report.columns.count'), dataIndex: 'count', width: 120 },
        ]}
      />
    );
  }
  return (
    <ResponsiveTable<LinkRow>
      rowKey={rowKey}
      cardLabel={(row) => row.targetUri}
      rowClassName={triageRowClass}
      loading={loading}
      locale={empty}
      dataSource={data?.lists ?? []}
      columns={columns}
      pagination={pagination(data, paging, t)}
      scroll={{ x: columns.length > 8 ? 1680 : 1480 }}
      size="middle"
    />
  );
}

export function PageTable({
  data,
  loading,
  ...paging
}: Paging & { data: ReportData<PageRow> | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Table<PageRow>
      rowKey="uri"
      loading={loading}
      locale={{ emptyText: t('report.empty.noData') }}
      dataSource={data?.lists ?? []}
      pagination={pagination(data, paging, t)}
      scroll={{ x: 900 }}
      columns={[
        { title: t('report.columns.page'), dataIndex: 'uri', ellipsis: true },
        { title: t('report.columns.title'), dataIndex: 'title', ellipsis: true },
        { title: t('report.columns.statusCode'), dataIndex: 'statusCode', width: 90 },
        {
          title: t('report.columns.totalSize'),
          dataIndex: 'contentSize',
          width: 130,
          render: (bytes: number) => formatSize(bytes, i18n.language),
        },
        {
          title: t('report.columns.htmlSize'),
          dataIndex: 'htmlSize',
          width: 130,
          render: (bytes: number) => formatSize(bytes, i18n.language),
        },
        {
          title: t('report.columns.pageRank'),
          dataIndex: 'pageRank',
          width: 110,
          render: (rank: number | null) => (rank === null ? '' : formatRank(rank, i18n.language)),
        },
      ]}
    />
  );
}

export function RuleTable({
  scanId,
  data,
  loading,
  rulesEnabled,
  ...paging
}: Paging & {
  scanId: string;
  data: ReportData<RuleRow> | undefined;
  loading: boolean;
  rulesEnabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const showTriage = useShowsTriage(scanId, data?.lists);
  return (
    <Table<RuleRow>
      rowKey={(row) => `${row.uri}|${row.ruleId}|${row.line}|${row.column}`}
      rowClassName={triageRowClass}
      loading={loading}
      locale={{ emptyText: t(rulesEnabled ? 'report.empty.noData' : 'report.empty.noRules') }}
      title={i18n.language.startsWith('zh') ? () => <RulesEnglishNote /> : undefined}
      dataSource={data?.lists ?? []}
      pagination={pagination(data, paging, t)}
      scroll={{ x: showTriage ? 1100 : 900 }}
      columns={[
        { title: t('report.columns.page'), dataIndex: 'uri', ellipsis: true },
        ...(showTriage
          ? [triageColumn<RuleRow>(scanId, t('report.triage.column'), ruleTriageTarget)]
          : []),
        {
          title: t('report.columns.rule'),
          dataIndex: 'ruleName',
          render: (name: string, row) =>
            row.ruleURL ? (
              <Typography.Link href={row.ruleURL} target="_blank" rel="noreferrer">
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
        { title: t('report.columns.line'), dataIndex: 'line', width: 80 },
        { title: t('report.columns.position'), dataIndex: 'column', width: 90 },
        {
          title: t('report.columns.finding'),
          key: 'finding',
          ellipsis: true,
          render: (_, row) => (
            <>
              {row.message ?? row.snippet} <IgnoreWord scanId={scanId} message={row.message} />
            </>
          ),
        },
        { title: t('report.columns.note'), dataIndex: 'ruleNote', ellipsis: true },
      ]}
    />
  );
}

/** Duplicate anchors: each repeat of an id on a page, where it is and where it was first. */
export function DuplicateAnchorTable({
  data,
  loading,
  anchorsChecked,
  ...paging
}: Paging & {
  data: ReportData<DuplicateAnchorRow> | undefined;
  loading: boolean;
  anchorsChecked: boolean;
}) {
  const { t } = useTranslation();
  const place = (line: number, column: number) => t('report.place', { line, column });
  return (
    <Table<DuplicateAnchorRow>
      rowKey={(row) => `${row.uri}|${row.anchor}|${row.line}|${row.column}`}
      loading={loading}
      locale={{
        emptyText: t(
          anchorsChecked ? 'report.empty.noDuplicateAnchors' : 'report.empty.anchorsNotChecked',
        ),
      }}
      dataSource={data?.lists ?? []}
      pagination={pagination(data, paging, t)}
      scroll={{ x: 900 }}
      columns={[
        { title: t('report.columns.page'), dataIndex: 'uri', ellipsis: true },
        {
          title: t('report.columns.anchor'),
          dataIndex: 'anchor',
          width: 200,
          render: (anchor: string) => <Typography.Text code>#{anchor}</Typography.Text>,
        },
        {
          title: t('report.columns.firstDefined'),
          key: 'first',
          width: 190,
          render: (_, row) => place(row.firstLine, row.firstColumn),
        },
        {
          title: t('report.columns.definedAgain'),
          key: 'duplicate',
          width: 190,
          render: (_, row) => place(row.line, row.column),
        },
      ]}
    />
  );
}

/** How many of a page's linking pages are listed before "and n more". */
const linkedFromShown = 3;

/** Page inclusion: incoming links, linking pages, sitemap and orphan state, indexability, rank. */
export function PageInclusionTable({
  data,
  loading,
  inclusionChecked,
  ...paging
}: Paging & {
  data: ReportData<PageInclusionRow> | undefined;
  loading: boolean;
  inclusionChecked: boolean;
}) {
  const { t, i18n } = useTranslation();
  const yesNo = (value: boolean) => t(value ? 'report.inclusion.yes' : 'report.inclusion.no');
  return (
    <Table<PageInclusionRow>
      rowKey="uri"
      loading={loading}
      locale={{
        emptyText: t(inclusionChecked ? 'report.empty.noData' : 'report.empty.inclusionNotChecked'),
      }}
      dataSource={data?.lists ?? []}
      pagination={pagination(data, paging, t)}
      scroll={{ x: 1300 }}
      columns={[
        { title: t('report.columns.page'), dataIndex: 'uri', ellipsis: true, width: 320 },
        {
          title: t('report.columns.orphan'),
          dataIndex: 'orphan',
          width: 100,
          render: (orphan: boolean) =>
            orphan ? <Tag color="orange">{t('report.columns.orphan')}</Tag> : yesNo(false),
        },
        { title: t('report.columns.statusCode'), dataIndex: 'statusCode', width: 80 },
        { title: t('report.columns.incomingLinks'), dataIndex: 'incomingLinks', width: 110 },
        {
          title: t('report.columns.linkedFrom'),
          dataIndex: 'linkedFrom',
          ellipsis: true,
          render: (pages: string[]) => {
            const more = pages.length - linkedFromShown;
            const shown = pages.slice(0, linkedFromShown).join(', ');
            return more > 0 ? `${shown} ${t('report.inclusion.more', { count: more })}` : shown;
          },
        },
        {
          title: t('report.columns.inSitemap'),
          dataIndex: 'inSitemap',
          width: 120,
          render: yesNo,
        },
        {
          title: t('report.columns.indexable'),
          key: 'indexable',
          width: 180,
          render: (_, row) =>
            row.indexable
              ? yesNo(true)
              : row.notIndexableBecause
                  .map((reason) => t(`report.inclusion.notIndexable.${reason}`, reason))
                  .join(', ') || yesNo(false),
        },
        {
          title: t('report.columns.pageRank'),
          dataIndex: 'pageRank',
          width: 110,
          render: (rank: number | null) => (rank === null ? '' : formatRank(rank, i18n.language)),
        },
      ]}
    />
  );
}

export function FileTypeTable({
  data,
  loading,
  ...paging
}: Paging & { data: ReportData<FileTypeRow> | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Table<FileTypeRow>
      rowKey="contentType"
      loading={loading}
      locale={{ emptyText: t('report.empty.noData') }}
      dataSource={data?.lists ?? []}
      pagination={pagination(data, paging, t)}
      columns={[
        { title: t('report.columns.contentType'), dataIndex: 'contentType' },
        { title: t('report.columns.files'), dataIndex: 'count', width: 120 },
        {
          title: t('report.columns.totalSize'),
          dataIndex: 'totalSize',
          width: 150,
          render: (bytes: number) => formatSize(bytes, i18n.language),
        },
      ]}
    />
  );
}
