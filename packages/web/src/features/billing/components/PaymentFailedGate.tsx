import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/api/get-user-info';
import { UpdatePaymentDialog } from './UpdatePaymentDialog';

/**
 * SPEC §6 "User with failed payment": whatever screen they open, they land on /pricing with the
 * update-payment dialog, which they can only leave by fixing the card or signing out. Sign-out
 * belongs to the app shell, so it is handed in.
 */
export function PaymentFailedGate({
  onSignOut,
  signingOut,
}: {
  onSignOut: () => void;
  signingOut: boolean;
}) {
  const { user } = useUser();
  const location = useLocation();
  if (!user?.paymentFailed) return null;
  if (location.pathname !== paths.pricing.path) return <Navigate to={paths.pricing.path} replace />;
  return <UpdatePaymentDialog forced onSignOut={onSignOut} signingOut={signingOut} />;
}
