import { CheckOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ExcludeLinkItem } from '@linkaudit/core';
import { excludeLinkProblem, newExcludeLink } from '../../lib/exclude-links';

/**
 * The exclusion list (SPEC §5): each entry is checked as typed; a new entry begins as the scanned
 * host; clearing an entry's text removes it.
 */
export function ExcludeLinksEditor({
  items,
  scanUrl,
  caseSensitive,
  onChange,
}: {
  items: ExcludeLinkItem[];
  scanUrl: string;
  caseSensitive: boolean;
  onChange: (items: ExcludeLinkItem[]) => void;
}) {
  const { t } = useTranslation();
  const links = items.map((item) => item.link);
  const update = (index: number, patch: Partial<ExcludeLinkItem>) =>
    onChange(
      patch.link === ''
        ? items.filter((_, other) => other !== index)
        : items.map((item, other) => (other === index ? { ...item, ...patch } : item)),
    );
  return (
    <div className="exclude-links">
      <Typography.Paragraph type="secondary">{t('scan.exclude.help')}</Typography.Paragraph>
      {items.map((item, index) => {
        const problem = excludeLinkProblem(
          item.link,
          links.filter((_, other) => other !== index),
          caseSensitive,
          scanUrl,
        );
        const label = t('scan.exclude.entry', { n: index + 1 });
        // SPEC §3 Exclude link item: an entry is edited (link and comment) or read; an entry
        // with a problem stays open until it is fixed.
        if (!item.isEditing && !problem) {
          return (
            <div key={index} className="exclude-entry-read" data-testid="exclude-entry">
              <Typography.Text code>{item.link}</Typography.Text>
              {item.comment && (
                <Typography.Text type="secondary" className="exclude-comment">
                  {item.comment}
                </Typography.Text>
              )}
              <Button
                size="small"
                type="text"
                icon={<EditOutlined />}
                aria-label={t('scan.exclude.edit', { n: index + 1 })}
                onClick={() => update(index, { isEditing: true })}
              />
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('scan.exclude.remove')}
                onClick={() => update(index, { link: '' })}
              />
            </div>
          );
        }
        return (
          <Form.Item
            key={index}
            validateStatus={problem ? 'error' : undefined}
            help={problem ? t(`scan.exclude.${problem}`) : undefined}
          >
            <Space.Compact block>
              <Input
                aria-label={label}
                value={item.link}
                onChange={(event) => update(index, { link: event.target.value })}
              />
              <Input
                aria-label={t('scan.exclude.comment', { n: index + 1 })}
                placeholder={t('scan.exclude.commentPlaceholder')}
                value={item.comment}
                maxLength={500}
                onChange={(event) => update(index, { comment: event.target.value })}
              />
              <Button
                icon={<CheckOutlined />}
                aria-label={t('scan.exclude.done', { n: index + 1 })}
                disabled={Boolean(problem)}
                onClick={() => update(index, { isEditing: false })}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('scan.exclude.remove')}
                onClick={() => update(index, { link: '' })}
              />
            </Space.Compact>
          </Form.Item>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        onClick={() =>
          onChange([
            ...items,
            { link: newExcludeLink(scanUrl), comment: '', isEditing: true, errorMsg: '' },
          ])
        }
      >
        {t('scan.exclude.add')}
      </Button>
    </div>
  );
}
