import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { translateMessage } from './errors';

/**
 * Antd form rules from the zod schema the server validates with (STYLE: one contract): each field
 * shows the first issue the whole form has at its path, in the interface language, so a
 * cross-field rule ('Your passwords need to match') lands on its own field.
 */
export function schemaRules(schema: z.ZodType, t: TFunction) {
  return (field: string): FormRule[] => [
    (form) => ({
      validator: async () => {
        const result = await schema.safeParseAsync(form.getFieldsValue(true));
        if (result.success) return;
        const issue = result.error.issues.find((candidate) => candidate.path[0] === field);
        if (issue) throw new Error(translateMessage(issue.message, t));
      },
    }),
  ];
}

export function useSchemaRules(schema: z.ZodType): (field: string) => FormRule[] {
  const { t } = useTranslation();
  return schemaRules(schema, t);
}

interface Mutation<T> {
  mutate(values: T, options: { onSettled: () => void }): void;
}

/**
 * A form's submit that sends once at a time (issue 37). A double click validates and submits the
 * form twice before React renders the mutation as pending, so `isPending` cannot guard it: the
 * guard is a ref, set at the first submit and cleared when its answer has come.
 */
export function useSubmitOnce<T>(mutation: Mutation<T>): (values: T) => void {
  const sending = useRef(false);
  return (values) => {
    if (sending.current) return;
    sending.current = true;
    mutation.mutate(values, {
      onSettled: () => {
        sending.current = false;
      },
    });
  };
}
