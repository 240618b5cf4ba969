import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Suggestion } from '@linkaudit/core';

const kindColors: Record<Suggestion['kind'], string> = {
  redirect: 'blue',
  'closest-page': 'green',
  'closest-anchor': 'green',
  https: 'cyan',
  explain: 'default',
};

/**
 * A link's suggested fix (issue 27) beside it: what kind, the address to use instead, how sure
 * a guess is, and why in words. A redirect chain of more than one hop is flagged.
 */
export function SuggestionCell({ suggestion }: { suggestion: Suggestion | null }) {
  const { t } = useTranslation();
  if (!suggestion) return null;
  const hops = suggestion.hops ?? 0;
  return (
    <div data-testid="suggestion">
      <Tag color={kindColors[suggestion.kind]}>
        {t(`report.suggestion.kind.${suggestion.kind}`)}
      </Tag>
      {hops > 1 ? <Tag color="orange">{t('report.suggestion.chain', { hops })}</Tag> : null}
      {suggestion.confidence !== null ? (
        <Typography.Text type="secondary">
          {t('report.suggestion.confidence', {
            percent: Math.round(suggestion.confidence * 100),
          })}
        </Typography.Text>
      ) : null}
      {suggestion.url ? (
        <div>
          <Typography.Link href={suggestion.url} target="_blank" rel="noreferrer" ellipsis>
            {suggestion.url}
          </Typography.Link>
        </div>
      ) : null}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 12 }}>
        {t(`report.suggestion.why.${suggestion.basis}`, { hops })}
      </Typography.Paragraph>
    </div>
  );
}
