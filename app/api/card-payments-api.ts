import type { CardBindingStart, CardCheckout, CardPayment } from "../../worker/contract/card-payments";
import { api } from "../lib/api";

/** The card-payment endpoints (README Decisions "Card payments"), each with its path, method and answer type written once. */

export const cardPayments = (memberId: string) => api<CardPayment[]>(`/private/core/card/payments/${memberId}?pageSize=10`);
export const cardCheckout = (memberId: string, idPackage: string) => api<CardCheckout>(`/private/core/card/checkout/${memberId}`, { body: { idPackage } });
export const startCardBinding = (memberId: string) => api<CardBindingStart>(`/private/core/card/binding/${memberId}`, { body: {} });
export const removeCard = (memberId: string, idCard: string) => api(`/private/core/card/binding/${memberId}/${encodeURIComponent(idCard)}`, { method: "DELETE" });
