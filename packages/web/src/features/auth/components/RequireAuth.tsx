import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { signInPath } from '../../../config/paths';
import { useSessionToken } from '../../../lib/session';

/** Protected screens: a visitor goes to sign in and comes back here afterwards (SPEC §2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useSessionToken();
  const location = useLocation();
  if (!token) {
    return <Navigate to={signInPath(location.pathname + location.search)} replace />;
  }
  return children;
}
