import {
  Alert,
  Button,
  Card,
  Col,
  Collapse,
  Descriptions,
  Empty,
  List,
  Row,
  Statistic,
  Typography,
} from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { scanRequestSchema, type ReportSummary } from '@linkaudit/core';
import { ScanFailureNote } from '../../../components/scan-status/ScanFailureNote';
import { ScanStatusLabel } from '../../../components/scan-status/ScanStatusLabel';
import { formatDuration } from '../../../lib/format';
import { ruleCategoryKey } from '../../../lib/rule-category';
import {
  ContentTypePie,
  FailureReasonsPie,
  PageSizePie,
  RuleCategoryDoughnut,
} from './ReportCharts';

export function EmptyState({ text }: { text: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title} className="report-section" size="small">
      {children}
    </Card>
  );
}

export function settingsOf(summary: ReportSummary) {
  try {
    return scanRequestSchema.parse(JSON.parse(summary.scanSettingsJson));
  } catch {
    return scanRequestSchema.parse({});
  }
}

/**
 * What the owner's ignore marks took out of the figures above (issue 27 triage), each part a link
 * to the tab's ignored rows where the screen can show them (not in the print summary).
 */
function IgnoredLine({
  ignored,
  onShow,
}: {
  ignored: NonNullable<ReportSummary['ignored']>;
  onShow?: (tab: 'link' | 'ruleResult') => void;
}) {
  const { t } = useTranslation();
  const parts = [
    { key: 'links', count: ignored.badLinks, tab: 'link' as const },
    { key: 'anchors', count: ignored.brokenAnchors, tab: 'link' as const },
    { key: 'findings', count: ignored.findings, tab: 'ruleResult' as const },
  ].filter((part) => part.count > 0);
  if (parts.length === 0) return null;
  // The sentence is translated whole; its list of links goes where {{items}} stands.
  const [before = '', after = ''] = t('report.triage.summary.lead', { items: '\u0000' }).split(
    '\u0000',
  );
  return (
    <Alert
      className="report-ignored"
      type="info"
      showIcon
      style={{ margin: '16px 0' }}
      title={
        <span>
          {before}
          {parts.map((part, index) => {
            const text = t(`report.triage.summary.${part.key}`, { count: part.count });
            return (
              <Fragment key={part.key}>
                {index > 0 && t('report.triage.summary.separator')}
                {onShow ? (
                  <Button
                    type="link"
                    size="small"
                    className="report-ignored-link"
                    style={{ padding: 0, height: 'auto' }}
                    onClick={() => onShow(part.tab)}
                  >
                    {text}
                  </Button>
                ) : (
                  text
                )}
              </Fragment>
            );
          })}
          {after}
        </span>
      }
    />
  );
}

/** Phases after the crawl that stopped at their time limit: what they show is partial. */
function CutShortLine({ phases }: { phases: NonNullable<ReportSummary['cutShort']> }) {
  const { t } = useTranslation();
  const names = phases.map((phase) => t(`report.cutShort.phase.${phase}`));
  return (
    <Alert
      className="report-cut-short"
      type="warning"
      showIcon
      style={{ margin: '16px 0' }}
      title={t('report.cutShort.lead', { phases: names.join(t('report.cutShort.separator')) })}
    />
  );
}

/**
 * Rendering in a browser (issue 35): why it could not, how many pages it rendered, or (off) that
 * pages look built by script and rendering would read them.
 */
function RenderingLine({ rendering }: { rendering: NonNullable<ReportSummary['rendering']> }) {
  const { t } = useTranslation();
  let type: 'info' | 'warning' = 'info';
  let text: string;
  if (rendering.unavailable) {
    type = 'warning';
    text = t('report.rendering.unavailable', { reason: rendering.unavailable });
  } else if (rendering.requested) {
    text = t('report.rendering.rendered', { count: rendering.renderedPages ?? 0 });
    if (rendering.failedPages) {
      type = 'warning';
      text += ` ${t('report.rendering.failed', { count: rendering.failedPages })}`;
    }
  } else if (rendering.scriptBuiltPages) {
    type = 'warning';
    text = t('report.rendering.scriptBuilt', {
      count: rendering.scriptBuiltPages,
      example: rendering.scriptBuiltExample,
    });
  } else {
    return null;
  }
  return (
    <Alert
      className="report-rendering"
      type={type}
      showIcon
      style={{ margin: '16px 0' }}
      title={text}
    />
  );
}

/**
 * The Summary tab and the print summary: totals, then the four sections of SPEC §2 with their
 * charts, samples and exact empty states. `expanded` opens every sample list (Expand All, print).
 */
export function SummaryView({
  summary,
  expanded,
  onExpand,
  onShowIgnored,
  onShowPages,
}: {
  summary: ReportSummary;
  expanded: string[];
  onExpand?: (keys: string[]) => void;
  /** Opens the link or rule tab on its ignored rows (the report screen; not the print view). */
  onShowIgnored?: (tab: 'link' | 'ruleResult') => void;
  /** Opens the Page tab (the report screen); the print view has no tabs to point to. */
  onShowPages?: () => void;
}) {
  const { t } = useTranslation();
  const settings = settingsOf(summary);
  const rulesEnabled = settings.selectedRules.length > 0;
  const reasonCounts = new Map(
    summary.reasons.map((reason) => [reason.failureReason, reason.numberOfReferences]),
  );
  return (
    <div className="report-summary">
      <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered>
        <Descriptions.Item label={t('report.summary.url')}>{summary.url}</Descriptions.Item>
        <Descriptions.Item label={t('report.summary.status')}>
          <ScanStatusLabel status={summary.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('report.summary.duration')}>
          {formatDuration(summary.duration, t)}
        </Descriptions.Item>
      </Descriptions>
      <ScanFailureNote status={summary.status} logMessage={summary.logMessage} />
      <Row gutter={[16, 16]} className="report-stats">
        <Col flex="1 1 150px">
          <Statistic title={t('report.summary.pages')} value={summary.numPages} />
        </Col>
        <Col flex="1 1 150px">
          <Statistic
            title={t('report.summary.links')}
            value={summary.totalLinks}
            suffix={`/ ${summary.uniqueLinks}`}
          />
        </Col>
        <Col flex="1 1 150px">
          <Statistic
            className="report-stat-broken-links"
            title={t('report.summary.brokenLinks')}
            value={summary.badLinks}
            suffix={`/ ${summary.uniqueBadLinks}`}
          />
        </Col>
        {/* Beside the broken links, as the pie and the list below show them (issue 37). */}
        {(settings.checkAnchors || summary.brokenAnchors > 0) && (
          <Col flex="1 1 150px">
            <Statistic
              className="report-stat-broken-anchors"
              title={t('report.summary.brokenAnchors')}
              value={summary.brokenAnchors}
            />
          </Col>
        )}
        <Col flex="1 1 150px">
          <Statistic title={t('report.summary.fattestPages')} value={summary.fattestPages} />
        </Col>
      </Row>
      {summary.cutShort && <CutShortLine phases={summary.cutShort} />}
      {(summary.unverifiedLinks ?? 0) > 0 && (
        <Alert
          className="report-unverified"
          type="info"
          showIcon
          style={{ margin: '16px 0' }}
          title={t('report.summary.unverified', { count: summary.unverifiedLinks })}
        />
      )}
      {summary.rendering && <RenderingLine rendering={summary.rendering} />}
      {summary.ignored && <IgnoredLine ignored={summary.ignored} onShow={onShowIgnored} />}
      {summary.totalLinks === 0 ? (
        <EmptyState text={t('report.empty.noLinksProcessed')} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Section title={t('report.sections.brokenLinks')}>
              {summary.reasons.length === 0 ? (
                <EmptyState text={t('report.empty.noBrokenLink')} />
              ) : (
                <>
                  <FailureReasonsPie summary={summary} />
                  <Collapse
                    size="small"
                    activeKey={expanded}
                    onChange={(keys) => onExpand?.(keys)}
                    items={summary.brokenSamples.map((sample) => ({
                      key: sample.failureReason,
                      // The reason's count, as the pie shows it (the list holds samples of it).
                      label: `${t(`failureReason.${sample.failureReason}`, sample.failureReason)} (${reasonCounts.get(sample.failureReason) ?? sample.links.length})`,
                      children: (
                        <List
                          size="small"
                          dataSource={sample.links}
                          renderItem={(link) => (
                            <List.Item>
                              <Typography.Text ellipsis={{ tooltip: link.targetUri }}>
                                {link.statusCode ?? ''} {link.targetUri}
                              </Typography.Text>
                            </List.Item>
                          )}
                        />
                      ),
                    }))}
                  />
                </>
              )}
            </Section>
          </Col>
          <Col xs={24} lg={12}>
            <Section title={t('report.sections.uxSeo')}>
              {!rulesEnabled ? (
                <EmptyState text={t('report.empty.noRules')} />
              ) : summary.ruleCategories.length === 0 ? (
                <EmptyState text={t('report.empty.noData')} />
              ) : (
                <>
                  <Row>
                    {summary.ruleCategories.map((category) => (
                      <Col xs={24} sm={12} key={category.categoryID}>
                        <RuleCategoryDoughnut
                          name={t(ruleCategoryKey(category.categoryID))}
                          passed={category.passed}
                          failed={category.failed}
                        />
                      </Col>
                    ))}
                  </Row>
                  <List
                    size="small"
                    header={t('report.rules.samples')}
                    dataSource={summary.ruleSamples}
                    renderItem={(rule) => (
                      <List.Item>
                        <Typography.Text ellipsis={{ tooltip: rule.uri }}>
                          <strong>{rule.ruleName}</strong> — {rule.uri}
                        </Typography.Text>
                      </List.Item>
                    )}
                  />
                </>
              )}
            </Section>
          </Col>
          <Col xs={24} lg={12}>
            <Section title={t('report.sections.fattestPages')}>
              {summary.pageSizeBuckets.some((bucket) => bucket.pages > 0) ? (
                <PageSizePie summary={summary} />
              ) : (
                <EmptyState text={t('report.empty.noData')} />
              )}
              {summary.fattestPages === 0 ? (
                <EmptyState text={t('report.empty.noFatPage')} />
              ) : (
                <Typography.Paragraph>
                  {onShowPages ? (
                    <Typography.Link onClick={onShowPages}>
                      {t('report.summary.fatPages', { count: summary.fattestPages })}
                    </Typography.Link>
                  ) : (
                    t('report.summary.fatPagesPrint', { count: summary.fattestPages })
                  )}
                </Typography.Paragraph>
              )}
            </Section>
          </Col>
          <Col xs={24} lg={12}>
            <Section title={t('report.sections.fileTypes')}>
              {summary.contentTypeSizes.length === 0 ? (
                <EmptyState text={t('report.empty.noData')} />
              ) : (
                <ContentTypePie summary={summary} />
              )}
            </Section>
          </Col>
        </Row>
      )}
    </div>
  );
}
