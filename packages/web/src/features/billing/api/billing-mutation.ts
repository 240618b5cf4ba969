import { useMutation, useQueryClient, type MutationFunction } from '@tanstack/react-query';

/**
 * A billing call: every one changes the plan state userInfo reports, so the user is read again
 * before the screen moves on. Errors are shown by the dialog or page that made the call (silent).
 */
export function useBillingMutation<Answer, Input>(
  mutationFn: MutationFunction<Answer, Input>,
  options: { onSuccess?: (answer: Answer) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { silent: true },
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['user'] });
      options.onSuccess?.(answer);
    },
  });
}
