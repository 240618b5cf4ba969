import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
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
  const setLink = (index: number, link: string) =>
    onChange(
      link === ''
        ? items.filter((_, other) => other !== index)
        : items.map((item, other) => (other === index ? { ...item, link } : item)),
    );
  return (
    <div className="exclude-links">
      <Typography.Paragraph type="secondary">{t('scan.exclude.help')}</Typography.Paragraph>
      {items.map((item, index) => {
        const problem = excludeLinkProblem(
          item.link,
          links.filter((_, other) => other !== index),
          caseSensitive,
        );
        return (
          <Form.Item
            key={index}
            validateStatus={problem ? 'error' : undefined}
            help={problem ? t(`scan.exclude.${problem}`) : undefined}
          >
            <Space.Compact block>
              <Input
                aria-label={t('scan.exclude.entry', { n: index + 1 })}
                value={item.link}
                onChange={(event) => setLink(index, event.target.value)}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('scan.exclude.remove')}
                onClick={() => setLink(index, '')}
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
