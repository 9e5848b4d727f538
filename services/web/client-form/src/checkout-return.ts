/**
 * The way back from Stripe Checkout (docs/decisions/0071-checkout-from-the-form.md). The
 * client's token never goes to Stripe: the success and cancel URLs are
 * /f/checkout-return?outcome=success|cancelled&field=<field id>, without it. Before the
 * page leaves for Checkout it keeps the link and the field in this tab's sessionStorage
 * (gone when the tab closes); back on the return URL it takes them out again, puts its own
 * address back to /f/<token> and opens the form at the payment field with the outcome.
 */

export const CHECKOUT_RETURN_PATH = '/f/checkout-return';
const KEY = 'onboarding-checkout';
/** A kept link older than this is not followed: a Checkout Session lives at most a day. */
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

export type CheckoutOutcome = 'success' | 'cancelled';

export interface CheckoutReturn {
  fieldId: string;
  outcome: CheckoutOutcome;
}

interface Kept {
  token: string;
  field_id: string;
  at: number;
}

/** Keeps the link and the field in this tab before the page goes to Checkout. */
export function rememberCheckout(token: string, fieldId: string, now = Date.now()): void {
  try {
    const kept: Kept = { token, field_id: fieldId, at: now };
    window.sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage can be off: the client comes back to the return page, which then says the link is needed.
  }
}

function parseKept(text: string | null): Kept | null {
  if (!text) return null;
  try {
    const kept = JSON.parse(text) as Partial<Kept>;
    return typeof kept.token === 'string' && typeof kept.field_id === 'string' && typeof kept.at === 'number'
      ? (kept as Kept)
      : null;
  } catch {
    return null;
  }
}

/**
 * What a page address says about a return from Checkout: null when it is no return; else
 * the link kept in this tab (null when none, or too old) and, when it names the field kept,
 * the field and its outcome. Pure: the page's address and storage are its arguments.
 */
export function checkoutReturnOf(
  pathname: string,
  search: string,
  keptText: string | null,
  now = Date.now(),
): { token: string | null; back: CheckoutReturn | null } | null {
  if (pathname.replace(/\/+$/, '') !== CHECKOUT_RETURN_PATH) return null;
  const kept = parseKept(keptText);
  if (!kept || now - kept.at > KEPT_FOR_MS || now < kept.at - 60_000) return { token: null, back: null };
  const query = new URLSearchParams(search);
  const outcome = query.get('outcome');
  const fieldId = query.get('field');
  const named = fieldId === kept.field_id && (outcome === 'success' || outcome === 'cancelled');
  return { token: kept.token, back: named ? { fieldId, outcome } : null };
}

/**
 * Back from Checkout in this tab: the link and the outcome, with the page's address set to
 * /f/<token> again (history.replaceState) and the kept link forgotten. Null when the page
 * was not opened on the return address.
 */
export function arriveFromCheckout(): { token: string | null; back: CheckoutReturn | null } | null {
  let keptText: string | null;
  try {
    keptText = window.sessionStorage.getItem(KEY);
  } catch {
    keptText = null;
  }
  const arrival = checkoutReturnOf(window.location.pathname, window.location.search, keptText);
  if (!arrival) return null;
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage can be off: nothing was kept then.
  }
  if (arrival.token) window.history.replaceState(null, '', `/f/${encodeURIComponent(arrival.token)}`);
  return arrival;
}
