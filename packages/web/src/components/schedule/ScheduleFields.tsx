import { describeSchedule } from '@linkaudit/core/schedule-description';
import { CalendarOutlined } from '@ant-design/icons';
import { Alert, Flex, Form, InputNumber, Radio, Select, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ScheduleFrequency } from '@linkaudit/core';
import {
  browserClock,
  hourParts,
  nextRunOf,
  toScheduleSettings,
  weekdayName,
  type ScheduleDraft,
} from '../../lib/schedule/schedule-draft';
import { scheduleWords } from '../../lib/schedule/schedule-words';

const frequencies = [
  [ScheduleFrequency.Daily, 'daily'],
  [ScheduleFrequency.Weekly, 'weekly'],
  [ScheduleFrequency.Monthly, 'monthly'],
] as const;

const isoWeekdays = [1, 2, 3, 4, 5, 6, 7];

/**
 * The schedule settings of SPEC §3 on the user's clock: frequency, time, weekday or day of the
 * month, with the schedule in words and its next run. Shared by the scan form and the editor.
 */
export function ScheduleFields({
  draft,
  onChange,
  idPrefix,
}: {
  draft: ScheduleDraft;
  onChange: (draft: ScheduleDraft) => void;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<ScheduleDraft>) => onChange({ ...draft, ...patch });
  const { hour, minute } = hourParts(draft.localHour);

  return (
    <div className="schedule-fields">
      <Form.Item label={t('schedule.fields.frequency')}>
        <Radio.Group
          aria-label={t('schedule.fields.frequency')}
          optionType="button"
          value={draft.frequency}
          onChange={(event) => set({ frequency: event.target.value as ScheduleDraft['frequency'] })}
          options={frequencies.map(([value, key]) => ({
            value,
            label: t(`schedule.frequency.${key}`),
          }))}
        />
      </Form.Item>
      <Flex wrap gap={16}>
        <Form.Item label={t('schedule.fields.time')} htmlFor={`${idPrefix}-time`}>
          <TimePicker
            id={`${idPrefix}-time`}
            format="HH:mm"
            minuteStep={5}
            allowClear={false}
            needConfirm={false}
            showNow={false}
            value={dayjs().hour(hour).minute(minute).second(0)}
            onChange={(value) => value && set({ localHour: value.format('HH:mm') })}
          />
        </Form.Item>
        {draft.frequency === ScheduleFrequency.Weekly && (
          <WeekdayField {...{ draft, set, idPrefix }} />
        )}
        {draft.frequency === ScheduleFrequency.Monthly && (
          <Form.Item
            label={t('schedule.fields.monthDay')}
            htmlFor={`${idPrefix}-month-day`}
            extra={t('schedule.fields.monthDayHint')}
          >
            <InputNumber
              id={`${idPrefix}-month-day`}
              min={1}
              max={31}
              precision={0}
              value={draft.monthlyDay}
              onChange={(value) => value && set({ monthlyDay: value })}
            />
          </Form.Item>
        )}
      </Flex>
      <ScheduleSummary draft={draft} />
    </div>
  );
}

function WeekdayField({
  draft,
  set,
  idPrefix,
}: {
  draft: ScheduleDraft;
  set: (patch: Partial<ScheduleDraft>) => void;
  idPrefix: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Form.Item label={t('schedule.fields.weekday')} htmlFor={`${idPrefix}-weekday`}>
      <Select
        id={`${idPrefix}-weekday`}
        className="schedule-weekday"
        value={draft.weeklyDay}
        onChange={(weeklyDay) => set({ weeklyDay })}
        options={isoWeekdays.map((day) => ({
          value: day,
          label: weekdayName(day, i18n.language),
        }))}
      />
    </Form.Item>
  );
}

/** The schedule in words (the list's wording) and when it would first run, on the user's clock. */
function ScheduleSummary({ draft }: { draft: ScheduleDraft }) {
  const { t, i18n } = useTranslation();
  const clock = useMemo(() => browserClock(), []);
  const description = describeSchedule(toScheduleSettings(draft, clock), i18n.language);
  const nextRun = nextRunOf(draft, clock).toLocaleString(i18n.language, {
    dateStyle: 'full',
    timeStyle: 'short',
  });
  return (
    <Alert
      className="schedule-summary"
      type="info"
      icon={<CalendarOutlined />}
      showIcon
      role="status"
      title={
        <>
          <span data-testid="schedule-words">
            {scheduleWords(toScheduleSettings(draft, clock), t, i18n.language)}
          </span>
          {' · '}
          <span data-testid="schedule-description">{description}</span>
        </>
      }
      description={t('schedule.fields.nextRun', { date: nextRun })}
    />
  );
}
