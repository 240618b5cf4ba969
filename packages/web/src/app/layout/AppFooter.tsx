import { Layout, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { splitServerVersion } from '@linkaudit/core';
import { externalLinks } from '../../config/paths';
import { useServerVersion } from '../../lib/api/get-server-version';
import { formatRelativeTime } from '../../lib/relative-time';

/** Server version and build, relative build time, health check and feature-request links (SPEC §2). */
export function AppFooter() {
  const { t, i18n } = useTranslation();
  const serverVersion = useServerVersion();

  let versionText: string;
  if (serverVersion.isError) {
    versionText = t('footer.versionError');
  } else if (!serverVersion.data) {
    versionText = t('footer.versionLoading');
  } else {
    const { version, build } = splitServerVersion(serverVersion.data.version);
    const builtAgo = formatRelativeTime(new Date(serverVersion.data.assembledTime), i18n.language);
    versionText = t('footer.version', { version, build, builtAgo });
  }

  return (
    <Layout.Footer className="app-footer">
      <Space wrap separator={<span aria-hidden>·</span>} size="small">
        <Typography.Text type="secondary" data-testid="server-version">
          {versionText}
        </Typography.Text>
        <a href="/healthcheck">{t('footer.healthcheck')}</a>
        <a href={externalLinks.featureRequest} target="_blank" rel="noopener noreferrer">
          {t('footer.featureRequest')}
        </a>
        <Typography.Text type="secondary">© {new Date().getFullYear()} LinkAudit</Typography.Text>
      </Space>
    </Layout.Footer>
  );
}
