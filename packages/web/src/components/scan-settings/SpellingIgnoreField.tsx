import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ignoredWordSchema, maxSiteWords, scanRequestSchema } from '@linkaudit/core';

/** What the scan settings take (core): at most this many words, each as core's word schema. */
const listSchema = scanRequestSchema.shape.spellingIgnore;

/**
 * Words the spelling rules accept on this scan (names, jargon), entered as tags: typing a space,
 * comma or new line ends a word. Entries the shared schema refuses are not added, and the field
 * says which; so the list sent is always one the server takes. Shown in the Rules group whatever
 * rules are chosen (docs/decisions.md), so words typed before choosing rules are not hidden.
 */
export function SpellingIgnoreField({
  words,
  onChange,
}: {
  words: string[];
  onChange: (words: string[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const [refused, setRefused] = useState<string[]>([]);
  const [tooMany, setTooMany] = useState(false);

  const change = (entered: string[]) => {
    const kept: string[] = [];
    const rejected: string[] = [];
    for (const entry of entered) {
      const parsed = ignoredWordSchema.safeParse(entry);
      if (!parsed.success) rejected.push(entry);
      else if (!kept.some((word) => word.toLowerCase() === parsed.data.toLowerCase())) {
        kept.push(parsed.data);
      }
    }
    const list = kept.slice(0, maxSiteWords);
    setRefused(rejected);
    setTooMany(kept.length > list.length);
    // Checked once more against the settings' own schema before it reaches the form's state.
    onChange(list.length > 0 ? listSchema.parse(list) : undefined);
  };

  const problems = [
    ...(refused.length > 0
      ? [t('scan.spellingIgnore.refused', { words: refused.join(', ') })]
      : []),
    ...(tooMany ? [t('scan.spellingIgnore.tooMany', { max: maxSiteWords })] : []),
  ];
  return (
    <Form.Item
      className="spelling-ignore"
      label={t('scan.spellingIgnore.label')}
      htmlFor="spelling-ignore"
      extra={t('scan.spellingIgnore.help')}
      validateStatus={problems.length > 0 ? 'error' : undefined}
      help={problems.length > 0 ? problems.join(' ') : undefined}
    >
      <Select
        id="spelling-ignore"
        mode="tags"
        open={false}
        suffixIcon={null}
        value={words}
        tokenSeparators={[',', ' ', '\n', ';']}
        placeholder={t('scan.spellingIgnore.placeholder')}
        onChange={change}
      />
    </Form.Item>
  );
}
