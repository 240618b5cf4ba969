import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { planOf, type ScheduledScan } from '@linkaudit/core';
import { PageHeading } from '../../../components/ui/PageHeading';
import { UpgradeNote } from '../../../components/ui/UpgradeNote';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/api/get-user-info';
import { useSchedules } from '../api/get-schedules';
import { ScheduleEditor } from './ScheduleEditor';
import { ScheduleList } from './ScheduleList';

/** Which dialog is open: a schedule's editor, or the editor of a new one. */
type Editing = { schedule?: ScheduledScan } | undefined;

/**
 * /schedule (SPEC §2): the user's scheduled scans. Scheduling is paid (SPEC §6): a free user sees
 * the upgrade note, and the list only when schedules of a former paid plan remain to be deleted.
 */
export default function SchedulePage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const [editing, setEditing] = useState<Editing>();
  const schedules = useSchedules();
  const paid = user ? planOf(user.paidPlanId).paid : false;
  const showList = paid || (schedules.data?.length ?? 0) > 0;

  return (
    <div className="schedule-page">
      <PageHeading title={t('schedule.title')} lead={t('schedule.lead')} />
      {!user && <Spin className="page-spin" />}
      {user && !paid && (
        <Alert
          className="schedule-upgrade"
          type="warning"
          showIcon
          title={t('schedule.freeTitle')}
          description={<UpgradeNote />}
        />
      )}
      {user && showList && (
        <>
          {paid && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              className="schedule-new"
              onClick={() => setEditing({})}
            >
              {t('schedule.new')}
            </Button>
          )}
          <ScheduleList
            onEdit={(schedule) => setEditing({ schedule })}
            emptyText={
              <>
                {t('schedule.list.empty')}{' '}
                <Link to={paths.scan.path}>{t('schedule.list.toScan')}</Link>
              </>
            }
          />
        </>
      )}
      {editing && (
        <ScheduleEditor
          schedule={editing.schedule}
          paid={paid}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}
