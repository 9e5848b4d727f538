/**
 * A payment field's config in the builder: the amount in the currency's own units (cents,
 * whole yen, thousandths of a dinar), the currency among those Stripe charges in, how often
 * it is charged (once, or every day, week, month or year: a subscription) and what it is
 * for. The rule that says what Stripe can charge is the server's own
 * (services/templates/contract/payment-amount.ts), shown beside the field at save.
 */
import {
  DEFAULT_CURRENCY,
  PAYMENT_INTERVALS,
  paymentCurrency,
  stripeCharges,
} from '../../../../../../templates/contract/payment-amount.ts';
import {
  currencyDecimals,
  STRIPE_AMOUNT_STEPS,
  STRIPE_CURRENCIES,
} from '../../../../../../templates/contract/stripe-currencies.ts';
import { Field, Select } from '../../../ui/index.ts';
import { currentLocale, t } from '../../../i18n.ts';
import type { BuilderField } from '../template-model.ts';
import { NumberInput } from './builder-inputs.tsx';

type SetConfig = (key: string, value: unknown) => void;

/** The currency's name in the workspace's language ("Euro"), or the code where the browser has none. */
function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames([currentLocale()], { type: 'currency' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** The currency choices: every currency Stripe charges in, and the field's own when Stripe does not. */
function currencyOptions(current: string) {
  const code = current.toLowerCase();
  const codes = STRIPE_CURRENCIES.includes(code) ? STRIPE_CURRENCIES : [code, ...STRIPE_CURRENCIES];
  return codes.map((code) => ({
    value: code.toUpperCase(),
    label: `${code.toUpperCase()} – ${stripeCharges(code) ? currencyName(code) : t('builder.currencyUnsupported')}`,
  }));
}

/** Smallest units per unit of the currency: 100 for usd, 1 for jpy, 1000 for kwd. */
const unitsOf = (currency: string) => 10 ** currencyDecimals(currency);

/** The step of the amount input in the currency's units: 0.01 usd, 1 jpy, 0.01 kwd (Stripe's steps). */
function inputStep(currency: string): string {
  const step = (STRIPE_AMOUNT_STEPS[currency] ?? 1) / unitsOf(currency);
  return String(step);
}

export function PaymentConfig({ field, set }: { field: BuilderField; set: SetConfig }) {
  const config = field.config;
  const id = (key: string) => `f-${field.id}-${key}`;
  const currency = typeof config.currency === 'string' ? config.currency : DEFAULT_CURRENCY;
  const code = paymentCurrency(config);
  const cents = typeof config.amount_cents === 'number' ? config.amount_cents : undefined;
  const interval = typeof config.interval === 'string' ? config.interval : '';
  const description = typeof config.description === 'string' ? config.description : '';
  const changeCurrency = (next: string) => {
    // The amount keeps its value in units: 150.00 USD becomes 150 JPY, not 15000.
    if (cents !== undefined) {
      set('amount_cents', Math.round((cents / unitsOf(code)) * unitsOf(next.toLowerCase())));
    }
    set('currency', next);
  };
  return (
    <div class="builder-config">
      <div class="builder-pair">
        <NumberInput
          id={id('amount')}
          label={t('builder.amountIn', { currency: code.toUpperCase() })}
          value={cents === undefined ? undefined : cents / unitsOf(code)}
          step={inputStep(code)}
          min={0}
          onValue={(value) =>
            set('amount_cents', value === undefined ? undefined : Math.round(value * unitsOf(code)))
          }
        />
        <Select
          id={id('currency')}
          label={t('builder.currency')}
          value={currency.toUpperCase()}
          onValue={changeCurrency}
          options={currencyOptions(currency)}
        />
      </div>
      <Select
        id={id('interval')}
        label={t('builder.interval')}
        value={interval}
        onValue={(value) => set('interval', value || undefined)}
        options={[
          { value: '', label: t('builder.intervalOnce') },
          ...PAYMENT_INTERVALS.map((every) => ({ value: every, label: t(`builder.interval.${every}`) })),
        ]}
      />
      <Field
        id={id('description')}
        label={t('builder.paymentDescription')}
        value={description}
        onValue={(value) => set('description', value || undefined)}
      />
    </div>
  );
}
