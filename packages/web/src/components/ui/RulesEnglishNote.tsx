import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/**
 * "Rule texts are in English only" (SPEC §1), with the way to /WhyNotTranslated for a Chinese
 * reader (S1.18). `alwaysShown`: the scan form says it in English too; the report only in Chinese,
 * where the English rows need the word.
 */
export function RulesEnglishNote({ alwaysShown = false }: { alwaysShown?: boolean }) {
  const { t, i18n } = useTranslation();
  const chinese = i18n.language.toLowerCase().startsWith('zh');
  if (!chinese && !alwaysShown) return null;
  return (
    <Typography.Text type="secondary" className="rules-english-note">
      {t('scan.rules.englishOnly')}
      {chinese && (
        <>
          {' '}
          <Link to={paths.whyNotTranslated.path}>{t('nav.whyNotTranslated')}</Link>
        </>
      )}
    </Typography.Text>
  );
}
