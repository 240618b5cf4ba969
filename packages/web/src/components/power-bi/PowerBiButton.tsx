import { BarChartOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Modal, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessages } from '../../lib/errors';
import { toastError } from '../../lib/notify';
import { getSessionToken } from '../../lib/session';
import { downloadPbids, useBiExport } from './bi-api';

/**
 * The report's "Analyze in Power BI" (SPEC §2): a dialog with the scan's OData feed address, the
 * .pbids connection file (`/PowerBi/ExportScan/{scanId}`) and how to sign in with an access token.
 */
export function PowerBiButton({ scanId }: { scanId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const signedIn = Boolean(getSessionToken());
  const exported = useBiExport(scanId, open && signedIn);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadPbids(scanId);
    } catch (error) {
      for (const text of errorMessages(error)) toastError(text);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <Button icon={<BarChartOutlined />} onClick={() => setOpen(true)}>
        {t('powerBi.analyze')}
      </Button>
      <Modal
        open={open}
        title={t('powerBi.dialog.title')}
        onCancel={() => setOpen(false)}
        width={640}
        footer={[
          <Button key="close" onClick={() => setOpen(false)}>
            {t('powerBi.dialog.close')}
          </Button>,
          <Button
            key="download"
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!signedIn || !exported.data}
            loading={downloading}
            onClick={() => void download()}
          >
            {t('powerBi.dialog.download')}
          </Button>,
        ]}
      >
        {!signedIn ? (
          <Alert type="info" showIcon title={t('powerBi.dialog.signInFirst')} />
        ) : exported.isError ? (
          <Alert type="error" showIcon title={errorMessages(exported.error).join('\n')} />
        ) : !exported.data ? (
          <Spin />
        ) : (
          <Space orientation="vertical" size="middle" className="full-width">
            <Typography.Paragraph>{t('powerBi.dialog.intro')}</Typography.Paragraph>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('powerBi.dialog.feedUrl')}>
                <Typography.Text copyable className="bi-feed-url">
                  {exported.data.feedUrl}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('powerBi.dialog.tables')}>
                {exported.data.entitySets.join(', ')}
              </Descriptions.Item>
            </Descriptions>
            <ol className="bi-steps">
              <li>
                {t('powerBi.dialog.stepToken')}{' '}
                <Link to={paths.manage.path}>{t('powerBi.dialog.manageLink')}</Link>
              </li>
              <li>{t('powerBi.dialog.stepOpen')}</li>
              <li>{t('powerBi.dialog.stepBasic')}</li>
              <li>{t('powerBi.dialog.stepExcel')}</li>
            </ol>
          </Space>
        )}
      </Modal>
    </>
  );
}
