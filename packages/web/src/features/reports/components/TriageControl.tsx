import type { ColumnsType } from 'antd/es/table';
import { Button, Input, Modal, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  maxTriageNoteLength,
  triageFilters,
  type RowTriage,
  type TriageFilter,
  type TriageMarkName,
  type TriageTarget,
} from '@linkaudit/core';
import { useChangeTriage, useIsScanOwner } from '../api/triage';

/**
 * Whether a tab shows the triage column (issue 27): to the scan's owner, who marks its
 * problems, and to any reader when a row on screen has a mark.
 */
export function useShowsTriage(
  scanId: string,
  rows: ReadonlyArray<{ triage?: unknown }> | undefined,
) {
  const owner = useIsScanOwner(scanId);
  return owner || (rows ?? []).some((row) => row.triage);
}

/** The triage column of a tab's rows, beside the address it marks. */
export function triageColumn<Row extends { triage?: RowTriage | null }>(
  scanId: string,
  title: string,
  targetOf: (row: Row) => TriageTarget | undefined,
  fixed?: 'right',
): ColumnsType<Row>[number] {
  return {
    title,
    key: 'triage',
    width: 200,
    fixed,
    render: (_, row) => (
      <TriageControl scanId={scanId} target={targetOf(row)} triage={row.triage} />
    ),
  };
}

/** The class of a row the owner ignored, so it reads as set aside when shown. */
export const triageRowClass = (row: { triage?: RowTriage | null }) =>
  row.triage?.mark === 'ignored' ? 'triage-ignored-row' : '';

const markColors: Record<TriageMarkName, string> = { ignored: 'default', willFix: 'blue' };

/**
 * A problem's mark (issue 27 triage): "Ignored" with its note (in full in the tooltip, with the
 * date), or "Will fix". Shown to every reader of the report; nothing when unmarked.
 */
export function TriageBadge({ triage }: { triage: RowTriage | null | undefined }) {
  const { t, i18n } = useTranslation();
  if (!triage) return null;
  const date = new Date(triage.markedAt).toLocaleString(i18n.language);
  const tip = [triage.note || t('report.triage.noNote'), t('report.triage.markedAt', { date })];
  return (
    <div className="triage-badge" data-testid="triage-badge">
      <Tooltip
        title={tip.map((line) => (
          <div key={line}>{line}</div>
        ))}
      >
        <Tag color={markColors[triage.mark]}>{t(`report.triage.mark.${triage.mark}`)}</Tag>
      </Tooltip>
      {triage.note ? (
        <Typography.Text
          type="secondary"
          className="triage-note"
          ellipsis={{ tooltip: triage.note }}
          style={{ fontSize: 12, maxWidth: '100%' }}
        >
          {triage.note}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/**
 * A problem's mark and, for the scan's owner only, the actions on it: "Ignore…" (asks for an
 * optional note), "Will fix", and "Clear mark" once marked. A visitor on the sample report or an
 * admin reading someone's scan sees the badge alone.
 */
export function TriageControl({
  scanId,
  target,
  triage,
}: {
  scanId: string;
  target: TriageTarget | undefined;
  triage: RowTriage | null | undefined;
}) {
  const { t } = useTranslation();
  const owner = useIsScanOwner(scanId);
  const change = useChangeTriage(scanId);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  // A working link, or a problem this scan no longer has (fixed): its mark, nothing to change.
  if (!target || !owner) return <TriageBadge triage={triage} />;
  const mark = triage?.mark ?? null;
  const act = (next: TriageMarkName | null, text?: string) =>
    change.mutate(next === null ? { target, mark: null } : { target, mark: next, note: text }, {
      onSuccess: () => setAsking(false),
    });
  return (
    <div className="triage-control">
      <TriageBadge triage={triage} />
      <Space size={4} wrap>
        {mark !== 'ignored' && (
          <Button
            size="small"
            disabled={change.isPending}
            onClick={() => {
              setNote('');
              setAsking(true);
            }}
          >
            {t('report.triage.ignore')}
          </Button>
        )}
        {mark !== 'willFix' && (
          <Button size="small" loading={change.isPending} onClick={() => act('willFix')}>
            {t('report.triage.willFix')}
          </Button>
        )}
        {mark !== null && (
          <Button size="small" type="link" loading={change.isPending} onClick={() => act(null)}>
            {t('report.triage.clear')}
          </Button>
        )}
      </Space>
      <Modal
        open={asking}
        title={t('report.triage.dialog.title')}
        okText={t('report.triage.dialog.ok')}
        cancelText={t('report.triage.dialog.cancel')}
        confirmLoading={change.isPending}
        onOk={() => act('ignored', note.trim())}
        onCancel={() => setAsking(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('report.triage.dialog.text')}</Typography.Paragraph>
        {target.kind === 'rule' && (
          <Typography.Paragraph type="secondary">
            {t('report.triage.dialog.ruleText')}
          </Typography.Paragraph>
        )}
        <Typography.Paragraph code ellipsis={{ tooltip: target.target }}>
          {target.target}
        </Typography.Paragraph>
        <label htmlFor={noteId} style={{ display: 'block', marginBottom: 4 }}>
          {t('report.triage.dialog.note')}
        </label>
        <Input.TextArea
          id={noteId}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={maxTriageNoteLength}
          showCount
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('report.triage.dialog.notePlaceholder')}
        />
      </Modal>
    </div>
  );
}

/**
 * Which rows a tab shows by their mark: open (ignored hidden, the default), ignored, will fix,
 * or all; with "n ignored" beside it (when known) leading to the ignored ones.
 */
export function TriageFilterSelect({
  value,
  onChange,
  ignored,
}: {
  value: TriageFilter | undefined;
  onChange: (filter: TriageFilter) => void;
  /** How many of the tab's problems are ignored; no link when 0 or unknown. */
  ignored?: number;
}) {
  const { t } = useTranslation();
  const current = value ?? 'open';
  return (
    <Space size="small" className="triage-filter">
      <Select<TriageFilter>
        aria-label={t('report.triage.filter')}
        className="report-triage-filter"
        value={current}
        style={{ minWidth: 230 }}
        onChange={onChange}
        options={triageFilters.map((filter) => ({
          value: filter,
          label: t('punctuation.labelValue', {
            label: t('report.triage.filter'),
            value: t(`report.triage.filterOption.${filter}`),
          }),
        }))}
      />
      {ignored !== undefined && ignored > 0 && current !== 'ignored' && (
        <Button
          type="link"
          size="small"
          className="triage-ignored-count"
          onClick={() => onChange('ignored')}
        >
          {t('report.triage.ignoredCount', { count: ignored })}
        </Button>
      )}
    </Space>
  );
}
