import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { limits, ScanLimitOption, type ScanRequest } from '@linkaudit/core';

/** The scan's settings, read-only (SPEC §2 Dialogs: scan settings viewer). */
export function SettingsDialog({
  settings,
  open,
  onClose,
}: {
  settings: ScanRequest;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const yes = (value: boolean) => (value ? t('report.settings.yes') : t('report.settings.no'));
  const rows: Array<[string, string]> = [
    [t('home.urlLabel'), settings.url],
    [t('scan.groups.depth'), t(`scan.depth.d${settings.scanDepth}.title`)],
    [
      t('scan.options.maxLinks'),
      settings.scanLimitOption === ScanLimitOption.Unlimited ||
      settings.maxLinkAmount >= limits.paidSliderMax
        ? t('scan.options.unlimited')
        : String(settings.maxLinkAmount),
    ],
    [t('scan.options.timeout'), `${settings.timeoutAfter} ${t('scan.options.hours')}`],
    [t('scan.options.engineV2'), yes(settings.useScanEngineV2)],
    [t('scan.options.caseSensitive'), yes(settings.caseSensitive)],
    [t('scan.options.robots'), yes(settings.respectRobotsTxt)],
    [t('scan.what.brokenLinks'), yes(settings.checkBrokenLinks)],
    [t('scan.what.images'), yes(settings.checkImages)],
    [t('scan.what.iframes'), yes(settings.checkIframes)],
    [t('scan.what.certificates'), yes(settings.checkBrokenCertificate)],
    [t('scan.what.anchors'), yes(settings.checkAnchors)],
    [t('scan.seo.pageRank'), yes(settings.checkPageRank)],
    [t('scan.seo.pageInclusion'), yes(settings.checkPageInclusion)],
    [t('scan.groups.rules'), String(settings.selectedRules.length)],
    [
      t('scan.spellingIgnore.label'),
      settings.spellingIgnore?.join(', ') || t('report.settings.none'),
    ],
    [
      t('scan.groups.exclude'),
      settings.excludeLinks
        .map((item) => (item.comment ? `${item.link} (${item.comment})` : item.link))
        .join('\n') || t('report.settings.none'),
    ],
  ];
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t('report.settings.title')}
      width={640}
    >
      <Descriptions column={1} size="small" bordered>
        {rows.map(([label, value]) => (
          <Descriptions.Item key={label} label={label}>
            <span className="pre-line">{value}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Modal>
  );
}
