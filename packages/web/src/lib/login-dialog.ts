import { createContext, useContext, type ReactNode } from 'react';

export interface LoginDialogProps {
  open: boolean;
  onClose: () => void;
  onSignedIn: () => void;
}

/**
 * The login dialog (SPEC §2 Dialogs) is the auth feature's. Screens of other features that need
 * it (home, report) render this slot; the app shell fills it through the context, so no feature
 * imports another.
 */
export const LoginDialogContext = createContext<(props: LoginDialogProps) => ReactNode>(() => null);

export function LoginDialogSlot(props: LoginDialogProps) {
  return useContext(LoginDialogContext)(props);
}
