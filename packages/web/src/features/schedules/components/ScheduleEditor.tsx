import { Alert, Collapse, Form, Input, Modal, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  checkScanUrl,
  defaultScanRequest,
  type ScanRequest,
  type ScheduledScan,
} from '@linkaudit/core';
import {
  ScanSettingsTabs,
  type SettingsTab,
} from '../../../components/scan-settings/ScanSettingsTabs';
import { ScheduleFields } from '../../../components/schedule/ScheduleFields';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { errorMessages, isPlanLimitRefusal, translateMessage } from '../../../lib/errors';
import { excludeListProblems } from '../../../lib/exclude-links';
import { toastSuccess } from '../../../lib/notify';
import {
  browserClock,
  defaultScheduleDraft,
  draftOf,
  toScheduleSettings,
  type ScheduleDraft,
} from '../../../lib/schedule/schedule-draft';
import { useSaveSchedule } from '../api/change-schedule';

// As on the scan form: the server's address policy decides about private hosts.
const urlOptions = { allowPrivate: true };

interface EditorState {
  url: string;
  draft: ScheduleDraft;
  notify: boolean;
  settings: ScanRequest;
}

function initialState(schedule: ScheduledScan | undefined): EditorState {
  if (!schedule) {
    return { url: '', draft: defaultScheduleDraft, notify: true, settings: defaultScanRequest() };
  }
  return {
    url: schedule.url,
    draft: draftOf(schedule.scheduleSettings),
    notify: schedule.notifyOnChange,
    settings: schedule.scanSettings,
  };
}

/**
 * The schedule editor dialog (SPEC §2 Dialogs): address, schedule, change mails and the scan
 * settings of its runs. Without a schedule it creates one.
 */
export function ScheduleEditor({
  schedule,
  paid,
  onClose,
}: {
  schedule?: ScheduledScan;
  paid: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialState(schedule));
  const [tab, setTab] = useState<SettingsTab>('depth');
  const [settingsOpen, setSettingsOpen] = useState<string[]>([]);
  const [invalidUrl, setInvalidUrl] = useState(false);
  const [failure, setFailure] = useState<string[]>([]);
  const [upgradeOffered, setUpgradeOffered] = useState(false);
  const save = useSaveSchedule();
  const set = (patch: Partial<EditorState>) => setState((current) => ({ ...current, ...patch }));

  const submit = () => {
    if (save.isPending) return;
    const check = checkScanUrl(state.url, urlOptions);
    if (!check.ok) return setInvalidUrl(true);
    const { excludeLinks, caseSensitive } = state.settings;
    if (
      excludeListProblems(
        excludeLinks.map((item) => item.link),
        caseSensitive,
        check.url,
      ).length > 0
    ) {
      setSettingsOpen(['settings']);
      return setTab('exclude');
    }
    setFailure([]);
    save.mutate(
      {
        ...(schedule ? { id: schedule.id } : {}),
        url: check.url,
        scanSettings: { ...state.settings, url: check.url },
        scheduleSettings: toScheduleSettings(state.draft, browserClock()),
        notifyOnChange: state.notify,
      },
      {
        onSuccess: () => {
          toastSuccess(schedule ? t('schedule.editor.saved') : t('scan.answers.scheduled'));
          onClose();
        },
        onError: (error) => {
          setFailure([
            t('schedule.list.updateFailed'),
            ...errorMessages(error).map((text) => translateMessage(text, t)),
          ]);
          setUpgradeOffered(isPlanLimitRefusal(error));
        },
      },
    );
  };

  return (
    <Modal
      open
      width={860}
      title={schedule ? t('schedule.editor.title') : t('schedule.editor.createTitle')}
      okText={t('schedule.editor.save')}
      cancelText={t('scan.answers.close')}
      okButtonProps={{ loading: busy(save.isPending) }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={t('home.urlLabel')}
          htmlFor="schedule-url"
          validateStatus={invalidUrl ? 'error' : undefined}
          help={invalidUrl ? t('home.invalidUrl') : undefined}
        >
          <Input
            id="schedule-url"
            value={state.url}
            placeholder={t('home.urlPlaceholder')}
            autoComplete="url"
            inputMode="url"
            onChange={(event) => {
              set({ url: event.target.value });
              setInvalidUrl(false);
            }}
          />
        </Form.Item>
        <ScheduleFields
          idPrefix="schedule-editor"
          draft={state.draft}
          onChange={(draft) => set({ draft })}
        />
        <Form.Item>
          <label className="schedule-notify">
            <Switch checked={state.notify} onChange={(notify) => set({ notify })} />{' '}
            {t('schedule.editor.notify')}
          </label>
        </Form.Item>
        <Collapse
          activeKey={settingsOpen}
          onChange={(keys) => setSettingsOpen(keys)}
          items={[
            {
              key: 'settings',
              label: t('schedule.editor.scanSettings'),
              children: (
                <ScanSettingsTabs
                  settings={state.settings}
                  onChange={(settings) => set({ settings })}
                  paid={paid}
                  scanUrl={state.url}
                  tab={tab}
                  onTab={setTab}
                />
              ),
            },
          ]}
        />
        {failure.length > 0 && (
          <Alert
            type="error"
            role="alert"
            className="schedule-editor-error pre-line"
            title={failure.join('\n')}
            action={
              upgradeOffered && <Link to={paths.pricing.path}>{t('scan.answers.upgrade')}</Link>
            }
          />
        )}
      </Form>
    </Modal>
  );
}
