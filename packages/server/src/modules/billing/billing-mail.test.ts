import { describe, expect, it } from 'vitest';
import { accountLanguages } from '@linkaudit/core';
import { billingMailTexts, renderBillingMail } from './billing-mail.js';

const parameters = {
  firstName: '<Ada>',
  plan: 'Premium' as const,
  amount: '$29.99',
  periodStart: 'December 3, 2026',
  periodEnd: 'January 3, 2027',
  invoiceId: 'in_1',
  link: 'http://127.0.0.1:3000/pricing',
  reason: 'Your card was declined.',
};

describe('billing mails', () => {
  it('has the receipt and the failed-payment mail in every language', () => {
    for (const language of accountLanguages) {
      expect(Object.keys(billingMailTexts[language]).sort()).toEqual(['payment-failed', 'receipt']);
    }
    expect(billingMailTexts['zh-CN'].receipt.subject).not.toBe(billingMailTexts.en.receipt.subject);
  });

  it('puts amount, period, reason and link in text and escaped HTML', () => {
    const failed = renderBillingMail('payment-failed', 'zh-CN', parameters);
    expect(failed.text).toContain('$29.99');
    expect(failed.text).toContain('Your card was declined.');
    expect(failed.text).toContain(parameters.link);
    expect(failed.html).toContain('&lt;Ada&gt;');
    expect(failed.html).not.toContain('<Ada>');
    const receipt = renderBillingMail('receipt', 'en', parameters);
    expect(receipt.text).toContain('Period: December 3, 2026 to January 3, 2027.');
  });
});
