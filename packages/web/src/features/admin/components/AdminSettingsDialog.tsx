import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkScanUrl, type AdminScan, type ScanRequest } from '@linkaudit/core';
import {
  ScanSettingsTabs,
  type SettingsTab,
} from '../../../components/scan-settings/ScanSettingsTabs';
import { busy } from '../../../lib/busy';
import { errorMessages, translateMessage } from '../../../lib/errors';
import { excludeListProblems } from '../../../lib/exclude-links';
import { toastSuccess } from '../../../lib/notify';
import { useRequeue } from '../api/admin-api';
import { ownerName } from '../lib/owner-name';

const urlOptions = { allowPrivate: true };

/**
 * Edit settings (SPEC §6 Admin) in the scan settings editor users have, with every paid control
 * open: an administrator may go beyond the owner's plan. Saving requeues the scan with them (a
 * running attempt is stopped first) and the audit log records the change.
 */
export function AdminSettingsDialog({ scan, onClose }: { scan: AdminScan; onClose: () => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<ScanRequest>(scan.scanSettings);
  const [url, setUrl] = useState(scan.url);
  const [tab, setTab] = useState<SettingsTab>('depth');
  const [invalidUrl, setInvalidUrl] = useState(false);
  const [failure, setFailure] = useState<string[]>([]);
  const requeue = useRequeue();

  const submit = () => {
    if (requeue.isPending) return;
    const check = checkScanUrl(url, urlOptions);
    if (!check.ok) return setInvalidUrl(true);
    const { excludeLinks, caseSensitive } = settings;
    const links = excludeLinks.map((item) => item.link);
    if (excludeListProblems(links, caseSensitive, check.url).length > 0) return setTab('exclude');
    setFailure([]);
    requeue.mutate(
      { id: scan.id, scanSettings: { ...settings, url: check.url } },
      {
        onSuccess: () => {
          toastSuccess(t('admin.settings.saved'));
          onClose();
        },
        onError: (error) =>
          setFailure([
            t('admin.scans.actionFailed'),
            ...errorMessages(error).map((text) => translateMessage(text, t)),
          ]),
      },
    );
  };

  return (
    <Modal
      open
      width={860}
      title={t('admin.settings.title', { owner: ownerName(scan.ownerEmail, t) })}
      okText={t('admin.settings.save')}
      cancelText={t('scan.answers.close')}
      okButtonProps={{ loading: busy(requeue.isPending) }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('admin.settings.note')} className="admin-note" />
      <Form layout="vertical">
        <Form.Item
          label={t('admin.scans.url')}
          validateStatus={invalidUrl ? 'error' : undefined}
          help={invalidUrl ? t('home.invalidUrl') : undefined}
        >
          <Input
            value={url}
            aria-label={t('admin.scans.url')}
            onChange={(event) => {
              setInvalidUrl(false);
              setUrl(event.target.value);
            }}
          />
        </Form.Item>
      </Form>
      <ScanSettingsTabs
        settings={settings}
        onChange={setSettings}
        paid
        scanUrl={url}
        tab={tab}
        onTab={setTab}
      />
      {failure.length > 0 && <Alert type="error" showIcon title={failure.join(' ')} />}
    </Modal>
  );
}
