import { z } from "zod";

/**
 * Coin packages sold by card (README Decisions "Card payments"): the server's list is the only source of coins and
 * prices; the browser sends an `idPackage`. Per §9 amounts travel ×100: `amount` is the coins ×100 (as the wallet
 * transfer), `price` the charge in the currency's hundredths (what the provider is asked to charge).
 */
export const CARD_PACKAGES = [
  { idPackage: "mcoin-10", coins: 10, price: 300, currency: "usd" },
  { idPackage: "mcoin-50", coins: 50, price: 1200, currency: "usd" },
  { idPackage: "mcoin-120", coins: 120, price: 2500, currency: "usd" },
] as const;

export type CardPackage = { idPackage: string; coins: number; amount: number; price: number; currency: string };

export const cardPackage = (idPackage: string): CardPackage | null => {
  const found = CARD_PACKAGES.find((p) => p.idPackage === idPackage);
  return found ? { ...found, amount: found.coins * 100 } : null;
};

export const CardCheckoutBody = z.object({ idPackage: z.string().min(1).max(40) });
export const CardPaymentsQuery = z.object({ pageSize: z.coerce.number().int().min(1).max(50).default(20) });

export type CardPaymentStatus = "pending" | "paid" | "partiallyRefunded" | "refunded" | "expired" | "mismatch" | "disputed";

/** One card purchase as its buyer sees it. Never the provider's ids. */
export type CardPayment = {
  idPayment: number;
  idPackage: string;
  coins: number;
  amount: number;
  price: number;
  currency: string;
  status: CardPaymentStatus;
  refundedPrice: number;
  refundedCoins: number;
  dateAdd: string;
  datePaid: string | null;
};

/** A saved card (card binding): only what the provider shows any merchant — brand, last four digits, expiry. */
export type SavedCard = { idCard: string; brand: string; last4: string; expMonth: number; expYear: number };

export type CardCheckout = { idPayment: number; url: string };
export type CardBindingStart = { url: string };
