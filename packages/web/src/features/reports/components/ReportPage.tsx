import {
  DownloadOutlined,
  FilePdfOutlined,
  PrinterOutlined,
  RedoOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Segmented, Select, Space, Spin, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ScanStatus, type ReportSummary, type ReportTab, type TriageFilter } from '@linkaudit/core';
import { PowerBiButton } from '../../../components/power-bi/PowerBiButton';
import { PageHeading } from '../../../components/ui/PageHeading';
import { paths, pathTo } from '../../../config/paths';
import { createScan } from '../../../lib/api/create-scan';
import { showAlert } from '../../../lib/alert-dialog';
import { actionErrorTexts, errorMessages, translateMessage } from '../../../lib/errors';
import { LoginDialogSlot } from '../../../lib/login-dialog';
import { toastError, toastSuccess } from '../../../lib/notify';
import { ruleCategoryKey } from '../../../lib/rule-category';
import { getSessionToken } from '../../../lib/session';
import {
  defaultTabView,
  downloadTabCsv,
  linkStatuses,
  useReportSummary,
  useReportTab,
  type TabView,
} from '../api/get-report';
import {
  DuplicateAnchorTable,
  FileTypeTable,
  LinkTable,
  PageInclusionTable,
  PageTable,
  RuleTable,
} from './ReportTables';
import { RuleGroupsView } from './RuleGroups';
import {
  defaultChangesView,
  downloadChangesCsv,
  type ChangesView as ChangesFilter,
} from '../api/get-changes';
import { ChangeCounts, ChangesView } from './ChangesView';
import { SettingsDialog } from './SettingsDialog';
import { settingsOf, SummaryView } from './SummaryView';
import { TriageFilterSelect } from './TriageControl';

type TabKey = 'summary' | 'changes' | ReportTab;

/**
 * How many of a tab's problems the owner ignored (issue 27), from the summary's figures: link
 * occurrences and broken anchor links on the link tab (as its rows count), findings on the rule
 * tab; undefined elsewhere or when the site has no ignore marks.
 */
function ignoredOf(
  summary: ReportSummary,
  tab: TabKey,
  status: TabView['status'],
): number | undefined {
  const ignored = summary.ignored;
  if (!ignored) return undefined;
  if (tab === 'ruleResult') return ignored.findings;
  if (tab !== 'link') return undefined;
  return status === 'anchor' ? ignored.brokenAnchors : ignored.badLinks + ignored.brokenAnchors;
}

const initialViews: Record<ReportTab, TabView> = {
  link: defaultTabView,
  page: defaultTabView,
  ruleResult: defaultTabView,
  fileType: defaultTabView,
  duplicateAnchor: defaultTabView,
  pageInclusion: defaultTabView,
};

/** /report/{scanId}: the tabs of SPEC §2 with their toolbar; paging, grouping and filters on the server. */
export default function ReportPage() {
  const { t } = useTranslation();
  const { scanId = '' } = useParams();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [tab, setTab] = useState<TabKey>('summary');
  const [views, setViews] = useState(initialViews);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The rule tab shows counts per rule and groups first (issue 25); every row is one switch away.
  const [ruleView, setRuleView] = useState<'grouped' | 'all'>('grouped');
  const [changesView, setChangesView] = useState<ChangesFilter>(defaultChangesView);
  const summary = useReportSummary(scanId);
  const tabs = {
    link: useReportTab('link', scanId, views.link),
    page: useReportTab('page', scanId, views.page),
    ruleResult: useReportTab('ruleResult', scanId, views.ruleResult),
    fileType: useReportTab('fileType', scanId, views.fileType),
    duplicateAnchor: useReportTab('duplicateAnchor', scanId, views.duplicateAnchor),
    pageInclusion: useReportTab('pageInclusion', scanId, views.pageInclusion),
  };

  if (summary.isPending) return <Spin size="large" className="page-spin" />;
  if (summary.isError) {
    return (
      <div className="report-page">
        <PageHeading title={t('report.title')} />
        <Alert type="error" showIcon title={errorMessages(summary.error).join('\n')} />
      </div>
    );
  }
  const settings = settingsOf(summary.data);
  const setView = (which: ReportTab, view: TabView) => {
    setViews((current) => ({ ...current, [which]: view }));
    setExpanded([]);
  };
  /** The link or rule tab with the rows of one triage mark (the summary's "ignored" line). */
  const showTriaged = (which: 'link' | 'ruleResult', triage: TriageFilter) => {
    setView(which, { ...views[which], triage, page: 1 });
    setTab(which);
  };

  const chooseTab = (key: string) => {
    const next = key as TabKey;
    if (next !== 'summary' && next !== 'changes' && tabs[next].data === undefined) {
      // SPEC §8's alert, as an alert dialog that closes itself (SPEC §2 Dialogs).
      showAlert(modal, {
        title: t('report.notLoaded'),
        okText: t('billing.ok'),
        autoCloseMs: 3000,
      });
      return;
    }
    setTab(next);
    setExpanded([]);
  };

  /** A new scan with this scan's settings; a visitor signs in first and the rerun follows. */
  const rerun = async () => {
    if (!getSessionToken()) return setLoginOpen(true);
    try {
      const answer = await createScan({ scanSettings: settings });
      if (answer.status === ScanStatus.Queued) {
        // SPEC §8's Rerun text: the new scan is followed on the scan screen, where this leads.
        toastSuccess(t('scan.answers.started'));
        void navigate(paths.scan.path);
      } else if (answer.message) {
        toastError(translateMessage(answer.message, t));
      }
    } catch (error) {
      for (const text of actionErrorTexts(error, t)) toastError(text);
    }
  };

  const exportCsv = async () => {
    if (tab === 'summary') return;
    setExporting(true);
    try {
      if (tab === 'changes') await downloadChangesCsv(scanId, changesView);
      else await downloadTabCsv(tab, scanId, views[tab]);
    } catch (error) {
      for (const text of errorMessages(error)) toastError(text);
    } finally {
      setExporting(false);
    }
  };

  const current = tab === 'summary' || tab === 'changes' ? undefined : tabs[tab].data;
  const filterOptions = (current?.filterCategories ?? []).map((category) => ({
    value: category.value,
    label: `${
      tab === 'link'
        ? t(`failureReason.${category.name}`, category.name)
        : tab === 'ruleResult'
          ? t(ruleCategoryKey(Number(category.value)))
          : tab === 'pageInclusion'
            ? t(`report.inclusion.${category.name}`, category.name)
            : category.name
    } (${category.count})`,
  }));
  const linkGroups = tab === 'link' && views.link.groupBy !== 'none';
  const expandKeys =
    tab === 'summary'
      ? summary.data.brokenSamples.map((sample) => sample.failureReason)
      : (tabs.link.data?.groups ?? []).map((group) => group.key);

  const toolbar = (
    <Space wrap className="report-toolbar">
      {tab === 'link' && (
        <Select
          aria-label={t('report.toolbar.linkStatus')}
          className="report-link-status"
          value={views.link.status ?? 'broken'}
          style={{ minWidth: 150 }}
          onChange={(status) => setView('link', { ...views.link, status, page: 1 })}
          options={linkStatuses.map((value) => ({
            value,
            label: t(`report.linkStatus.${value}`),
          }))}
        />
      )}
      {tab === 'link' && (
        <Select
          aria-label={t('report.toolbar.groupBy')}
          className="report-group-by"
          value={views.link.groupBy}
          style={{ minWidth: 170 }}
          onChange={(groupBy) => setView('link', { ...views.link, groupBy, page: 1 })}
          options={(['none', 'target', 'source', 'reason'] as const).map((value) => ({
            value,
            label: t('punctuation.labelValue', {
              label: t('report.toolbar.groupBy'),
              value: t(`report.groupBy.${value}`),
            }),
          }))}
        />
      )}
      {tab !== 'summary' && tab !== 'changes' && tab !== 'duplicateAnchor' && (
        <Select
          aria-label={t('report.toolbar.filter')}
          className="report-filter"
          allowClear
          placeholder={t('report.toolbar.filter')}
          style={{ minWidth: 200 }}
          value={views[tab].category}
          onChange={(category?: string) => setView(tab, { ...views[tab], category, page: 1 })}
          options={filterOptions}
        />
      )}
      {(tab === 'link' || tab === 'ruleResult') && (
        <TriageFilterSelect
          value={views[tab].triage}
          ignored={ignoredOf(summary.data, tab, views.link.status)}
          onChange={(triage) => setView(tab, { ...views[tab], triage, page: 1 })}
        />
      )}
      {(tab === 'summary' || linkGroups) && (
        <>
          <Button onClick={() => setExpanded(expandKeys)}>{t('report.toolbar.expandAll')}</Button>
          <Button onClick={() => setExpanded([])}>{t('report.toolbar.collapseAll')}</Button>
        </>
      )}
      <Button icon={<RedoOutlined />} onClick={() => void rerun()}>
        {t('report.toolbar.rerun')}
      </Button>
      <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)}>
        {t('report.toolbar.settings')}
      </Button>
      <Button
        icon={<FilePdfOutlined />}
        onClick={() => void navigate(pathTo(paths.reportingService, { scanId }))}
      >
        {t('report.toolbar.showPdf')}
      </Button>
      <Button
        icon={<PrinterOutlined />}
        onClick={() => void navigate(`${pathTo(paths.printReport, { scanId })}?print=1`)}
      >
        {t('report.toolbar.print')}
      </Button>
      <Button
        icon={<DownloadOutlined />}
        disabled={tab === 'summary'}
        loading={exporting}
        onClick={() => void exportCsv()}
      >
        {t('report.toolbar.exportCsv')}
      </Button>
      <PowerBiButton scanId={scanId} />
    </Space>
  );

  const paging = (which: ReportTab) => ({
    view: views[which],
    onView: (view: TabView) => setView(which, view),
    loading: tabs[which].isFetching,
  });

  return (
    <div className="report-page">
      <PageHeading title={t('report.title')} lead={summary.data.url} />
      {toolbar}
      <Tabs
        activeKey={tab}
        onChange={chooseTab}
        items={[
          {
            key: 'summary',
            label: t('report.tabs.summary'),
            children: (
              <>
                <ChangeCounts scanId={scanId} />
                <SummaryView
                  summary={summary.data}
                  expanded={expanded}
                  onExpand={setExpanded}
                  onShowIgnored={(which) => showTriaged(which, 'ignored')}
                  onShowPages={() => chooseTab('page')}
                />
              </>
            ),
          },
          {
            // Issue 27: what changed since the site's previous scan.
            key: 'changes',
            label: t('report.tabs.changes'),
            children: <ChangesView scanId={scanId} view={changesView} onView={setChangesView} />,
          },
          {
            key: 'link',
            label: t('report.tabs.link'),
            children: (
              <LinkTable
                scanId={scanId}
                data={tabs.link.data}
                expanded={expanded}
                onExpand={setExpanded}
                {...paging('link')}
              />
            ),
          },
          {
            key: 'page',
            label: t('report.tabs.page'),
            children: <PageTable data={tabs.page.data} {...paging('page')} />,
          },
          {
            key: 'ruleResult',
            label: t('report.tabs.rule'),
            children: (
              <>
                <Segmented
                  className="rule-view"
                  aria-label={t('report.ruleView.label')}
                  value={ruleView}
                  onChange={setRuleView}
                  options={(['grouped', 'all'] as const).map((value) => ({
                    value,
                    label: t(`report.ruleView.${value}`),
                  }))}
                />
                {ruleView === 'grouped' ? (
                  <RuleGroupsView
                    scanId={scanId}
                    category={views.ruleResult.category}
                    triage={views.ruleResult.triage}
                    rulesEnabled={settings.selectedRules.length > 0}
                  />
                ) : (
                  <RuleTable
                    scanId={scanId}
                    data={tabs.ruleResult.data}
                    rulesEnabled={settings.selectedRules.length > 0}
                    {...paging('ruleResult')}
                  />
                )}
              </>
            ),
          },
          {
            key: 'fileType',
            label: t('report.tabs.fileType'),
            children: <FileTypeTable data={tabs.fileType.data} {...paging('fileType')} />,
          },
          {
            key: 'duplicateAnchor',
            label: t('report.tabs.duplicateAnchor'),
            children: (
              <DuplicateAnchorTable
                data={tabs.duplicateAnchor.data}
                anchorsChecked={settings.checkAnchors}
                {...paging('duplicateAnchor')}
              />
            ),
          },
          {
            key: 'pageInclusion',
            label: t('report.tabs.pageInclusion'),
            children: (
              <PageInclusionTable
                data={tabs.pageInclusion.data}
                inclusionChecked={settings.checkPageInclusion}
                {...paging('pageInclusion')}
              />
            ),
          },
        ]}
      />
      <SettingsDialog
        settings={settings}
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
      />
      <LoginDialogSlot
        open={loginOpen}
        onClose={() => setLoginOpen(false)}
        onSignedIn={() => {
          setLoginOpen(false);
          void rerun();
        }}
      />
    </div>
  );
}
