import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountLanguages, type AccountLanguage } from '@linkaudit/core';
import { externalLinks } from '../../config/paths';
import { changeLanguage, currentLanguage } from '../../lib/i18n';

const languageNames: Record<AccountLanguage, string> = { en: 'English', 'zh-CN': '简体中文' };

/** English, Simplified Chinese, and a third entry that opens the external localisation page. */
export function LanguageSelector() {
  const { t } = useTranslation();
  const current = currentLanguage();
  const items: MenuProps['items'] = [
    ...accountLanguages.map((language) => ({
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
