import { Alert, Checkbox, Collapse, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { planOf, RuleCategory, type Rule } from '@linkaudit/core';
import { useScanRules } from '../../lib/api/get-scan-rules';
import { useUser } from '../../lib/api/get-user-info';
import { responseStatus } from '../../lib/errors';
import { ruleCategoryKey } from '../../lib/rule-category';
import { RulesEnglishNote } from '../ui/RulesEnglishNote';
import { UpgradeNote } from '../ui/UpgradeNote';

/**
 * Rules from /api/ScanRuleApi/ grouped by category, with select all (paid only, SPEC §6). Valid
 * HTML rules need the plan's HTML check (DESIGN §4): without it they show disabled with the
 * upgrade note, and select all leaves them out (the server would withhold them anyway).
 */
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
  const { user } = useUser();
  const htmlCheck = planOf(user?.paidPlanId).htmlCheck;
  if (!paid) return <UpgradeNote />;
  if (rules.isPending) return <Spin />;
  if (rules.isError) {
    return (
      <Alert
        type="error"
        title={t('scan.rules.loadFailed', { status: responseStatus(rules.error) })}
      />
    );
  }
  const locked = (rule: Rule) => !htmlCheck && rule.categoryID === RuleCategory.ValidHtml;
  const all = rules.data.filter((rule) => rule.isEnabled && !locked(rule));
  const shown = rules.data.filter((rule) => rule.isEnabled);
  const groups = new Map<string, Rule[]>();
  for (const rule of shown) {
    const name = ruleCategoryKey(rule.categoryID);
    groups.set(name, [...(groups.get(name) ?? []), rule]);
  }
  const chosen = new Set(selected);
  return (
    <div>
      <Checkbox
        checked={all.length > 0 && all.every((rule) => chosen.has(rule.linkAuditorRuleID))}
        indeterminate={chosen.size > 0 && all.some((rule) => !chosen.has(rule.linkAuditorRuleID))}
        onChange={(event) =>
          onChange(event.target.checked ? all.map((rule) => rule.linkAuditorRuleID) : [])
        }
      >
        {t('scan.rules.selectAll')}
      </Checkbox>
      <RulesEnglishNote alwaysShown />
      <Collapse
        size="small"
        className="rules-groups"
        items={[...groups].map(([name, list]) => ({
          key: name,
          label: `${t(name)} (${list.filter((rule) => chosen.has(rule.linkAuditorRuleID)).length}/${list.length})`,
          children: (
            <>
              {list.some(locked) && (
                <div className="rules-locked">
                  <Typography.Text type="secondary">
                    {t('scan.rules.htmlCheckLocked')}{' '}
                  </Typography.Text>
                  <UpgradeNote />
                </div>
              )}
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
                  disabled: locked(rule),
                }))}
              />
            </>
          ),
        }))}
      />
    </div>
  );
}
