import { Alert, Checkbox, Collapse, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Rule } from '@linkaudit/core';
import { useScanRules } from '../../lib/api/get-scan-rules';
import { ruleCategoryKey } from '../../lib/rule-category';
import { UpgradeNote } from '../ui/UpgradeNote';

/** Rules from /api/ScanRuleApi/ grouped by category, with select all (paid only, SPEC §6). */
export function RulesPicker({
  paid,
  selected,
  onChange,
}: {
  paid: boolean;
  selected: number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const rules = useScanRules(paid);
  if (!paid) return <UpgradeNote />;
  if (rules.isPending) return <Spin />;
  if (rules.isError) {
    return <Alert type="error" title={t('scan.rules.loadFailed', { status: '' })} />;
  }
  const all = rules.data.filter((rule) => rule.isEnabled);
  const groups = new Map<string, Rule[]>();
  for (const rule of all) {
    const name = ruleCategoryKey(rule.categoryID);
    groups.set(name, [...(groups.get(name) ?? []), rule]);
  }
  const chosen = new Set(selected);
  return (
    <div>
      <Checkbox
        checked={all.length > 0 && chosen.size === all.length}
        indeterminate={chosen.size > 0 && chosen.size < all.length}
        onChange={(event) =>
          onChange(event.target.checked ? all.map((rule) => rule.linkAuditorRuleID) : [])
        }
      >
        {t('scan.rules.selectAll')}
      </Checkbox>
      <Typography.Text type="secondary"> {t('scan.rules.englishOnly')}</Typography.Text>
      <Collapse
        size="small"
        className="rules-groups"
        items={[...groups].map(([name, list]) => ({
          key: name,
          label: `${t(name)} (${list.filter((rule) => chosen.has(rule.linkAuditorRuleID)).length}/${list.length})`,
          children: (
            <Checkbox.Group
              className="rules-list"
              value={selected}
              onChange={(ids) => {
                const others = selected.filter(
                  (id) => !list.some((r) => r.linkAuditorRuleID === id),
                );
                onChange([...others, ...ids]);
              }}
              options={list.map((rule) => ({
                value: rule.linkAuditorRuleID,
                label: <span title={rule.ruleNote}>{rule.ruleName}</span>,
              }))}
            />
          ),
        }))}
      />
    </div>
  );
}
