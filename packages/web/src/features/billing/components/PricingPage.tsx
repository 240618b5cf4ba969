import { Col, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits, planIds, plans } from '@linkaudit/core';
import { PageHeading } from '../../../components/ui/PageHeading';
import { useUser } from '../../../lib/api/get-user-info';
import { CheckoutDialog } from './CheckoutDialog';
import { JoinAndPayDialog } from './JoinAndPayDialog';
import { PlanActions, type PlanDialog } from './PlanActions';
import { PlanCard } from './PlanCard';
import { UpdatePaymentDialog } from './UpdatePaymentDialog';

/**
 * /pricing (SPEC §2 Pricing and billing): the four plans of the one plan config (DESIGN §4), each
 * with what choosing it means for this visitor or user, and the dialogs those choices open.
 */
export default function PricingPage() {
  const { t } = useTranslation();
  const { user, isSignedIn } = useUser();
  const [dialog, setDialog] = useState<PlanDialog>();
  const close = () => setDialog(undefined);
  // While the user is being read, no buttons: a visitor's "join" must not flash for a member.
  const ready = !isSignedIn || user !== undefined;

  return (
    <>
      <PageHeading
        title={t('pricing.title')}
        lead={t('pricing.lead', { days: limits.trialDays })}
      />
      <Row gutter={[20, 20]} align="stretch">
        {planIds.map((id) => (
          <Col key={id} xs={24} sm={12} xl={6} data-plan={id}>
            <PlanCard plan={plans[id]} current={user?.paidPlanId === id}>
              {ready && <PlanActions plan={plans[id]} user={user} onDialog={setDialog} />}
            </PlanCard>
          </Col>
        ))}
      </Row>
      <Typography.Paragraph type="secondary" className="page-cta">
        {t('pricing.footnote')}
      </Typography.Paragraph>
      {dialog?.kind === 'joinAndPay' && <JoinAndPayDialog planId={dialog.plan} onClose={close} />}
      {dialog?.kind === 'checkout' && user && (
        <CheckoutDialog planId={dialog.plan} user={user} onClose={close} />
      )}
      {dialog?.kind === 'updateCard' && <UpdatePaymentDialog forced={false} onClose={close} />}
    </>
  );
}
