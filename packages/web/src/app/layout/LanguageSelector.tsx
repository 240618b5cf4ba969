import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { externalLinks } from '../../config/paths';
import { changeLanguage, type Language } from '../../lib/i18n';

const languageNames: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文' };

/** English, Simplified Chinese, and a third entry that opens the external localisation page. */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const current = (i18n.language in languageNames ? i18n.language : 'en') as Language;
  const items: MenuProps['items'] = [
    ...(Object.keys(languageNames) as Language[]).map((language) => ({
      key: language,
      label: languageNames[language],
      onClick: () => language !== current && changeLanguage(language),
    })),
    { type: 'divider' as const },
    {
      key: 'help-translate',
      label: (
        <a href={externalLinks.localisation} target="_blank" rel="noopener noreferrer">
          {t('nav.helpTranslate')}
        </a>
      ),
    },
  ];
  return (
    <Dropdown menu={{ items, selectedKeys: [current] }} trigger={['click']}>
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('nav.language')}
        className="nav-button"
      >
        {languageNames[current]}
      </Button>
    </Dropdown>
  );
}
