import { Checkbox, InputNumber, Radio, Slider, Space, Switch, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { limits, ScanDepth, ScanLimitOption, type ScanRequest } from '@linkaudit/core';
import { useServerVersion } from '../../lib/api/get-server-version';
import { UpgradeNote } from '../ui/UpgradeNote';
import { CredentialsField } from './CredentialsField';
import { ExcludeLinksEditor } from './ExcludeLinksEditor';
import { RulesPicker } from './RulesPicker';
import { SpellingIgnoreField } from './SpellingIgnoreField';

export type SettingsTab = 'depth' | 'options' | 'exclude' | 'rules' | 'what' | 'seo' | 'schedule';

interface Props {
  settings: ScanRequest;
  onChange: (settings: ScanRequest) => void;
  paid: boolean;
  scanUrl: string;
  tab: SettingsTab;
  onTab: (tab: SettingsTab) => void;
  /** The Schedule Scan group; without it the tab is left out (the schedule editor has its own). */
  scheduleGroup?: ReactNode;
}

/** The slider's value: the link limit, or its top (20000 = unlimited) for an unlimited paid scan. */
export function sliderValue(settings: ScanRequest, paid: boolean): number {
  if (paid && settings.scanLimitOption === ScanLimitOption.Unlimited) return limits.paidSliderMax;
  return Math.min(settings.maxLinkAmount, paid ? limits.paidSliderMax : limits.freeMaxLinksPerScan);
}

function Flag({
  checked,
  onChange,
  label,
  hint,
  locked,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  hint?: string;
  locked?: boolean;
}) {
  return (
    <div className="scan-flag">
      <Checkbox checked={checked} disabled={locked} onChange={(e) => onChange(e.target.checked)}>
        {label}
      </Checkbox>
      {hint && <Typography.Text type="secondary"> {hint}</Typography.Text>}
      {locked && <UpgradeNote />}
    </div>
  );
}

/**
 * Rendering in a browser (issue 35): a paid option (locked on Free, with why), and a warning
 * when this server has no Chromium (its scans would read the HTML only).
 */
function RenderFlag({
  settings,
  paid,
  onChange,
}: {
  settings: ScanRequest;
  paid: boolean;
  onChange: (patch: Partial<ScanRequest>) => void;
}) {
  const { t } = useTranslation();
  const noBrowser = useServerVersion().data?.renderingUnavailable !== undefined;
  return (
    <>
      <Flag
        checked={paid && (settings.renderPages ?? false)}
        onChange={(renderPages) => onChange({ renderPages })}
        label={t('scan.what.render')}
        hint={t(paid ? 'scan.hints.render' : 'scan.hints.renderLocked')}
        locked={!paid}
      />
      {paid && noBrowser && (
        <Typography.Text type="warning" className="render-unavailable">
          {t('scan.hints.renderUnavailable')}
        </Typography.Text>
      )}
    </>
  );
}

/**
 * timeoutAfter in hours (SPEC §3, DESIGN §6): paid plans choose up to a week, Free may only
 * shorten its 4 hours (the server holds it there too, scan-resolution.ts).
 */
function TimeoutField({
  settings,
  paid,
  onChange,
}: {
  settings: ScanRequest;
  paid: boolean;
  onChange: (patch: Partial<ScanRequest>) => void;
}) {
  const { t } = useTranslation();
  const max = paid ? limits.maxTimeoutHours : limits.defaultTimeoutHours;
  return (
    <div className="scan-flag scan-timeout">
      <label htmlFor="scan-timeout">{t('scan.options.timeout')}</label>{' '}
      <InputNumber
        id="scan-timeout"
        min={1}
        max={max}
        step={1}
        value={Math.min(settings.timeoutAfter, max)}
        suffix={t('scan.options.hours')}
        onChange={(value) => {
          if (typeof value === 'number') onChange({ timeoutAfter: value });
        }}
      />
      {!paid && (
        <Typography.Text type="secondary">
          {' '}
          {t('scan.options.timeoutFree', { count: limits.defaultTimeoutHours })}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * SPEC's "scan engine V2" beta flag. This server has one engine, which runs either way; the flag
 * is kept (and said to be kept) for the settings older clients send. Turning it on sets the
 * link limit to Limited at the slider's value, SPEC §5's rule.
 */
function EngineV2Field({
  settings,
  max,
  onChange,
}: {
  settings: ScanRequest;
  max: number;
  onChange: (patch: Partial<ScanRequest>) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="scan-flag">
      <Switch
        id="engine-v2"
        size="small"
        checked={settings.useScanEngineV2}
        onChange={(on) =>
          onChange(
            on
              ? {
                  useScanEngineV2: true,
                  scanLimitOption: ScanLimitOption.Limited,
                  maxLinkAmount: Math.min(settings.maxLinkAmount, max),
                }
              : { useScanEngineV2: false },
          )
        }
      />{' '}
      <label htmlFor="engine-v2">{t('scan.options.engineV2')}</label>
      <Typography.Text type="secondary"> {t('scan.options.engineV2Hint')}</Typography.Text>
    </div>
  );
}

/** The settings groups of SPEC §2 as tabs; free users see paid controls locked (SPEC §6). */
export function ScanSettingsTabs({
  settings,
  onChange,
  paid,
  scanUrl,
  tab,
  onTab,
  scheduleGroup,
}: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<ScanRequest>) => onChange({ ...settings, ...patch });
  const max = paid ? limits.paidSliderMax : limits.freeMaxLinksPerScan;
  const links = sliderValue(settings, paid);
  const linksText =
    paid && links >= limits.paidSliderMax ? t('scan.options.unlimited') : links.toLocaleString();

  const items: Array<{ key: SettingsTab; label: string; children: ReactNode }> = [
    {
      key: 'depth',
      label: t('scan.groups.depth'),
      children: (
        <Radio.Group
          value={settings.scanDepth}
          onChange={(e) => set({ scanDepth: e.target.value as ScanRequest['scanDepth'] })}
        >
          <Space orientation="vertical">
            {([ScanDepth.SinglePage, ScanDepth.AllPagesBelow, ScanDepth.Domain] as const).map(
              (depth) => (
                <Radio key={depth} value={depth}>
                  <strong>{t(`scan.depth.d${depth}.title`)}</strong>
                  <Typography.Text type="secondary">
                    {' '}
                    {t(`scan.depth.d${depth}.description`)}
                  </Typography.Text>
                </Radio>
              ),
            )}
          </Space>
        </Radio.Group>
      ),
    },
    {
      key: 'options',
      label: t('scan.groups.options'),
      children: (
        <>
          <label htmlFor="max-links" className="slider-label">
            {t('scan.options.maxLinks')}
            {t('punctuation.colon')}
            <strong data-testid="max-links-value">{linksText}</strong>
          </label>
          <Slider
            id="max-links"
            min={0}
            max={max}
            step={limits.sliderStep}
            value={links}
            tooltip={{
              formatter: (value) => (paid && value === max ? t('scan.options.unlimited') : value),
            }}
            onChange={(value) =>
              set(
                paid && value >= limits.paidSliderMax
                  ? { scanLimitOption: ScanLimitOption.Unlimited, maxLinkAmount: value }
                  : { scanLimitOption: ScanLimitOption.Limited, maxLinkAmount: value },
              )
            }
          />
          {!paid && (
            <Typography.Paragraph type="secondary">
              {t('scan.options.freeLimit', { count: limits.freeMaxLinksPerScan })} <UpgradeNote />
            </Typography.Paragraph>
          )}
          <Flag
            checked={settings.caseSensitive}
            onChange={(caseSensitive) => set({ caseSensitive })}
            label={t('scan.options.caseSensitive')}
            hint={t('scan.hints.caseSensitive')}
          />
          <Flag
            checked={settings.respectRobotsTxt}
            onChange={(respectRobotsTxt) => set({ respectRobotsTxt })}
            label={t('scan.options.robots')}
          />
          <TimeoutField settings={settings} paid={paid} onChange={set} />
          <EngineV2Field settings={settings} max={max} onChange={set} />
          <CredentialsField settings={settings} onChange={set} />
        </>
      ),
    },
    {
      key: 'exclude',
      label: t('scan.groups.exclude'),
      children: (
        <ExcludeLinksEditor
          items={settings.excludeLinks}
          scanUrl={scanUrl}
          caseSensitive={settings.caseSensitive}
          onChange={(excludeLinks) => set({ excludeLinks })}
        />
      ),
    },
    {
      key: 'rules',
      label: t('scan.groups.rules'),
      children: (
        <>
          <RulesPicker
            paid={paid}
            selected={settings.selectedRules}
            onChange={(selectedRules) => set({ selectedRules })}
          />
          {paid && (
            <SpellingIgnoreField
              words={settings.spellingIgnore ?? []}
              onChange={(spellingIgnore) => set({ spellingIgnore })}
            />
          )}
        </>
      ),
    },
    {
      key: 'what',
      label: t('scan.groups.what'),
      children: (
        <>
          <Flag
            checked={settings.checkBrokenLinks}
            onChange={(checkBrokenLinks) => set({ checkBrokenLinks })}
            label={t('scan.what.brokenLinks')}
          />
          <Flag
            checked={settings.checkImages}
            onChange={(checkImages) => set({ checkImages })}
            label={t('scan.what.images')}
            hint={t('scan.hints.images')}
          />
          <Flag
            checked={settings.checkIframes}
            onChange={(checkIframes) => set({ checkIframes })}
            label={t('scan.what.iframes')}
          />
          <Flag
            checked={settings.checkBrokenCertificate}
            onChange={(checkBrokenCertificate) => set({ checkBrokenCertificate })}
            label={t('scan.what.certificates')}
          />
          <Flag
            checked={paid && settings.checkAnchors}
            onChange={(checkAnchors) => set({ checkAnchors })}
            label={t('scan.what.anchors')}
            locked={!paid}
          />
          <RenderFlag settings={settings} paid={paid} onChange={set} />
        </>
      ),
    },
    {
      key: 'seo',
      label: t('scan.groups.seo'),
      children: (
        <>
          <Flag
            checked={settings.checkPageRank}
            onChange={(checkPageRank) => set({ checkPageRank })}
            label={t('scan.seo.pageRank')}
          />
          <Flag
            checked={settings.checkPageInclusion}
            onChange={(checkPageInclusion) => set({ checkPageInclusion })}
            label={t('scan.seo.pageInclusion')}
            hint={t('scan.hints.pageInclusion')}
          />
        </>
      ),
    },
  ];
  if (scheduleGroup) {
    items.push({ key: 'schedule', label: t('scan.groups.schedule'), children: scheduleGroup });
  }
  return (
    <Tabs
      className="scan-settings"
      activeKey={tab}
      onChange={(key) => onTab(key as SettingsTab)}
      items={items}
    />
  );
}
