import { Checkbox, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScheduleChoice } from '../../lib/schedule/schedule-choice';
import { UpgradeNote } from '../ui/UpgradeNote';
import { ScheduleFields } from './ScheduleFields';

/** The Schedule Scan group of the scan form: paid users schedule, free users see it locked (SPEC §6). */
export function ScheduleScanGroup({
  paid,
  choice,
  onChange,
}: {
  paid: boolean;
  choice: ScheduleChoice;
  onChange: (choice: ScheduleChoice) => void;
}) {
  const { t } = useTranslation();
  if (!paid) {
    return (
      <div className="scan-flag">
        <Checkbox checked={false} disabled>
          {t('scan.schedule.enable')}
        </Checkbox>
        <UpgradeNote />
      </div>
    );
  }
  const set = (patch: Partial<ScheduleChoice>) => onChange({ ...choice, ...patch });
  return (
    <Space orientation="vertical" className="schedule-group">
      <Checkbox
        checked={choice.enabled}
        onChange={(event) => set({ enabled: event.target.checked })}
      >
        {t('scan.schedule.enable')}
      </Checkbox>
      {choice.enabled && (
        <>
          <ScheduleFields
            idPrefix="scan-schedule"
            draft={choice.draft}
            onChange={(draft) => set({ draft })}
          />
          <Checkbox
            checked={choice.saveOnly}
            onChange={(event) => set({ saveOnly: event.target.checked })}
          >
            {t('scan.schedule.saveOnly')}
          </Checkbox>
          <Checkbox
            checked={choice.notify}
            onChange={(event) => set({ notify: event.target.checked })}
          >
            {t('schedule.editor.notify')}
          </Checkbox>
        </>
      )}
    </Space>
  );
}
