import { accountLanguageSchema, type AccountLanguage, type PlanId } from '@linkaudit/core';
import type { AccountService } from '../accounts/accounts.service.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MailMessage, Mailer } from '../mail/mail.service.js';
import { escapeHtml, type RenderedMail } from '../mail/mail.templates.js';
import type { GatewayInvoice } from './payment-gateway.js';

/** The billing mails (issue 22): a receipt for each paid invoice, a notice for a failed one. */
export type BillingMailTemplate = 'receipt' | 'payment-failed';

export interface BillingMailParameters {
  firstName: string;
  plan: PlanId;
  /** e.g. "$29.99" */
  amount: string;
  /** The paid period, in the mail's language. */
  periodStart: string;
  periodEnd: string;
  invoiceId: string;
  /** Where the user goes next: the pricing page (update the card after a failure). */
  link: string;
  /** The provider's reason for a failed payment. */
  reason: string;
}

interface BillingMailText {
  subject: string;
  greeting: (name: string) => string;
  lines: (p: BillingMailParameters) => string[];
  action: string;
}

/** Both languages have both mails; a test keeps them in step. */
export const billingMailTexts: Record<
  AccountLanguage,
  Record<BillingMailTemplate, BillingMailText>
> = {
  en: {
    receipt: {
      subject: 'Your LinkAudit receipt',
      greeting: (name) => `Hello ${name},`,
      lines: (p) => [
        `Thank you for your payment of ${p.amount} for the ${p.plan} plan.`,
        `Period: ${p.periodStart} to ${p.periodEnd}.`,
        `Invoice: ${p.invoiceId}`,
      ],
      action: 'See your plan',
    },
    'payment-failed': {
      subject: 'Your LinkAudit payment failed',
      greeting: (name) => `Hello ${name},`,
      lines: (p) => [
        `We could not charge ${p.amount} for the ${p.plan} plan: ${p.reason}`,
        'Please update your card to keep your plan.',
        `Invoice: ${p.invoiceId}`,
      ],
      action: 'Update payment details',
    },
  },
  'zh-CN': {
    receipt: {
      subject: '您的 LinkAudit 收据',
      greeting: (name) => `${name}，您好：`,
      lines: (p) => [
        `感谢您为 ${p.plan} 套餐支付 ${p.amount}。`,
        `计费周期：${p.periodStart} 至 ${p.periodEnd}。`,
        `发票：${p.invoiceId}`,
      ],
      action: '查看您的套餐',
    },
    'payment-failed': {
      subject: '您的 LinkAudit 付款失败',
      greeting: (name) => `${name}，您好：`,
      lines: (p) => [
        `我们无法为 ${p.plan} 套餐扣款 ${p.amount}：${p.reason}`,
        '请更新您的银行卡以保留您的套餐。',
        `发票：${p.invoiceId}`,
      ],
      action: '更新付款信息',
    },
  },
};

export function renderBillingMail(
  template: BillingMailTemplate,
  language: AccountLanguage,
  parameters: BillingMailParameters,
): RenderedMail {
  const texts = billingMailTexts[language][template];
  const greeting = texts.greeting(parameters.firstName);
  const lines = texts.lines(parameters);
  const text = [greeting, '', ...lines, '', parameters.link, '', 'LinkAudit'].join('\n');
  const paragraph = (content: string): string => `<p>${content}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><body style="font-family: sans-serif; line-height: 1.5">`,
    paragraph(escapeHtml(greeting)),
    ...lines.map((line) => paragraph(escapeHtml(line))),
    paragraph(`<a href="${escapeHtml(parameters.link)}">${escapeHtml(texts.action)}</a>`),
    paragraph('LinkAudit'),
    '</body></html>',
  ].join('\n');
  return { subject: texts.subject, text, html };
}

function formatDate(date: Date, language: AccountLanguage): string {
  return date.toLocaleDateString(language === 'zh-CN' ? 'zh-CN' : 'en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

function formatAmount(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/**
 * The billing mails in the user's language. Each is read first (the user, outside any
 * transaction), then written to the outbox in the transaction of the change it reports (issue
 * 36), so a failed payment's state and its mail are committed together.
 */
export class BillingMails {
  constructor(
    private readonly deps: {
      mailer: Mailer;
      accounts: Pick<AccountService, 'findUser'>;
      publicUrl: string;
    },
  ) {}

  receipt(userId: string, invoice: GatewayInvoice, plan: PlanId): Promise<MailMessage | undefined> {
    return this.#render('receipt', userId, invoice, plan, invoice.amountPaidCents);
  }

  paymentFailed(
    userId: string,
    invoice: GatewayInvoice,
    plan: PlanId,
  ): Promise<MailMessage | undefined> {
    return this.#render('payment-failed', userId, invoice, plan, invoice.amountDueCents);
  }

  /** Into the outbox, in `trx`; call sent() once it is committed. */
  async queue(mail: MailMessage | undefined, trx: Kysely<Database>): Promise<void> {
    if (mail) await this.deps.mailer.enqueue(mail, trx);
  }

  /** The transaction that queued mails committed: the outbox sends them now. */
  sent(): void {
    this.deps.mailer.wake();
  }

  async #render(
    template: BillingMailTemplate,
    userId: string,
    invoice: GatewayInvoice,
    plan: PlanId,
    cents: number,
  ): Promise<MailMessage | undefined> {
    const user = await this.deps.accounts.findUser(userId);
    if (!user) return undefined;
    const parsed = accountLanguageSchema.safeParse(user.language);
    const language = parsed.success ? parsed.data : 'en';
    const link = `${this.deps.publicUrl}/pricing`;
    const mail = renderBillingMail(template, language, {
      firstName: user.firstName,
      plan,
      amount: formatAmount(cents),
      periodStart: formatDate(invoice.periodStart, language),
      periodEnd: formatDate(invoice.periodEnd, language),
      invoiceId: invoice.id,
      link,
      reason: invoice.failureMessage ?? '',
    });
    return { to: user.email, ...mail, link };
  }
}
