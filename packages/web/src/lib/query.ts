import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { actionErrorTexts, errorMessages, translateMessage } from './errors';
import { toastError } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    /** `silent`: the screen shows this failure itself, no toast. */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** The global error handler of SPEC §8: every failed call becomes toasts, unless marked silent. */
function showError(error: unknown, silent: boolean | undefined): void {
  if (silent) return;
  for (const text of errorMessages(error)) toastError(translateMessage(text, i18n.t));
}

/** A failed action says what the server said, or 'Error occured. Please try again' (SPEC §8). */
function showActionError(error: unknown, silent: boolean | undefined): void {
  if (silent) return;
  for (const text of actionErrorTexts(error, i18n.t)) toastError(text);
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => showError(error, query.meta?.silent) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) =>
      showActionError(error, mutation.meta?.silent),
  }),
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});
