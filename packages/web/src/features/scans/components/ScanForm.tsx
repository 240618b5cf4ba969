import { App, Alert, Button, Card, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  checkScanUrl,
  defaultScanRequest,
  limits,
  ScanLimitOption,
  ScanStatus,
  type CreateScanResponse,
  type ScanRequest,
} from '@linkaudit/core';
import {
  ScanSettingsTabs,
  type SettingsTab,
} from '../../../components/scan-settings/ScanSettingsTabs';
import { ScheduleScanGroup } from '../../../components/schedule/ScheduleScanGroup';
import { UrlHelp } from '../../../components/ui/UrlHelp';
import { paths } from '../../../config/paths';
import { useCreateScan } from '../../../lib/api/create-scan';
import { busy } from '../../../lib/busy';
import { errorMessages, isPlanLimitRefusal, translateMessage } from '../../../lib/errors';
import { excludeListProblems } from '../../../lib/exclude-links';
import { toastSuccess, toastWarning } from '../../../lib/notify';
import {
  defaultScheduleChoice,
  savesScheduleOnly,
  scheduleSubmission,
} from '../../../lib/schedule/schedule-choice';
import { browserClock } from '../../../lib/schedule/schedule-draft';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

// The server's address policy decides about private hosts (a self-hosted server may allow
// them), so the form lets localhost and IP literals through and shows the server's refusal.
const urlOptions = { allowPrivate: true };

function initialSettings(paid: boolean): ScanRequest {
  const settings = defaultScanRequest();
  return paid
    ? settings
    : {
        ...settings,
        scanLimitOption: ScanLimitOption.Limited,
        maxLinkAmount: limits.freeMaxLinksPerScan,
      };
}

/**
 * The new-scan form: the address with live validation (SPEC §5) and the settings groups. The
 * answers of a submission (queued, 12, 13, 14, errors) are shown here (SPEC §8).
 */
export function ScanForm({
  paid,
  initialUrl,
  onQueued,
}: {
  paid: boolean;
  initialUrl: string;
  onQueued: (scanId: string) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [url, setUrl] = useState(initialUrl);
  const [settings, setSettings] = useState(() => initialSettings(paid));
  const [tab, setTab] = useState<SettingsTab>('depth');
  const [submitError, setSubmitError] = useState<string[]>([]);
  const [upgradeOffered, setUpgradeOffered] = useState(false);
  const [forcedInvalid, setForcedInvalid] = useState(false);
  const [schedule, setSchedule] = useState(defaultScheduleChoice);
  const create = useCreateScan();

  const checkedUrl = useDebouncedValue(url, limits.urlValidationDebounceMs);
  const typing = url.trim() !== '';
  const checking = typing && url !== checkedUrl;
  const invalid =
    (!checking && typing && !checkScanUrl(checkedUrl, urlOptions).ok) || (forcedInvalid && typing);

  const answered = (answer: CreateScanResponse) => {
    if (answer.status === ScanStatus.MonthlyLimitReached) {
      modal.confirm({
        title: t('scan.answers.monthlyLimit.title'),
        content: t('scan.answers.monthlyLimit.text'),
        okText: t('scan.answers.upgrade'),
        cancelText: t('scan.answers.close'),
        onOk: () => navigate(paths.pricing.path),
      });
    } else if (answer.status === ScanStatus.LowCreditWarning) {
      const remaining = answer.remainingUrls ?? 0;
      modal.confirm({
        title: t('scan.answers.lowCredit.title'),
        content: t('scan.answers.lowCredit.text', { count: remaining }),
        okText: t('scan.answers.upgrade'),
        cancelText: t('scan.answers.lowCredit.changeLimit'),
        onOk: () => navigate(paths.pricing.path),
        onCancel: () => {
          const fitting = Math.floor(remaining / limits.sliderStep) * limits.sliderStep;
          setSettings((current) => ({
            ...current,
            scanLimitOption: ScanLimitOption.Limited,
            maxLinkAmount: fitting,
          }));
          setTab('options');
        },
      });
    } else if (answer.status === ScanStatus.ScheduledScanCreated) {
      toastSuccess(t('scan.answers.scheduled'));
    } else {
      toastSuccess(
        answer.queuePosition
          ? t('scan.answers.queuedAt', { n: answer.queuePosition })
          : t('scan.answers.queued'),
      );
      // A scan started now with a schedule: the schedule was created too.
      if (answer.scheduleId) toastSuccess(t('scan.answers.scheduled'));
      // The plan left requested rules out (Valid HTML without the HTML check).
      if (answer.withheldRules?.length) toastWarning(t('scan.answers.rulesWithheld'));
      if (answer.id) onQueued(answer.id);
    }
  };

  const submit = () => {
    if (create.isPending) return; // the spinner shows only after a moment: ignore a second press
    const check = checkScanUrl(url, urlOptions);
    if (!check.ok) {
      setForcedInvalid(true);
      window.scrollTo({ top: 0 });
      return;
    }
    if (
      excludeListProblems(
        settings.excludeLinks.map((item) => item.link),
        settings.caseSensitive,
        check.url,
      ).length > 0
    ) {
      setTab('exclude');
      return;
    }
    setUrl(check.url);
    setSubmitError([]);
    create.mutate(
      {
        scanSettings: { ...settings, url: check.url },
        ...scheduleSubmission(schedule, browserClock()),
      },
      {
        onSuccess: answered,
        onError: (error) => {
          setSubmitError(errorMessages(error).map((text) => translateMessage(text, t)));
          setUpgradeOffered(isPlanLimitRefusal(error));
        },
      },
    );
  };

  return (
    <Card className="scan-form" title={t('scan.newScan')}>
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={t('home.urlLabel')}
          htmlFor="scan-url"
          validateStatus={invalid ? 'error' : checking ? 'validating' : undefined}
          extra={<UrlHelp checking={checking} invalid={invalid} url={checkedUrl} />}
        >
          <Space.Compact className="url-box-row">
            <Input
              id="scan-url"
              size="large"
              value={url}
              placeholder={t('home.urlPlaceholder')}
              autoComplete="url"
              inputMode="url"
              onChange={(event) => {
                setUrl(event.target.value);
                setForcedInvalid(false);
                setSubmitError([]);
              }}
            />
            <Button
              size="large"
              type="primary"
              danger={submitError.length > 0}
              htmlType="submit"
              disabled={!typing}
              loading={busy(create.isPending)}
            >
              {savesScheduleOnly(schedule) ? t('scan.schedule.save') : t('scan.start')}
            </Button>
          </Space.Compact>
        </Form.Item>
        {submitError.length > 0 && (
          <Alert
            type="error"
            role="alert"
            className="scan-submit-error"
            title={submitError.join('\n')}
            action={
              upgradeOffered && <Link to={paths.pricing.path}>{t('scan.answers.upgrade')}</Link>
            }
          />
        )}
        <ScanSettingsTabs
          settings={settings}
          onChange={setSettings}
          paid={paid}
          scanUrl={url}
          tab={tab}
          onTab={setTab}
          scheduleGroup={<ScheduleScanGroup paid={paid} choice={schedule} onChange={setSchedule} />}
        />
      </Form>
    </Card>
  );
}
