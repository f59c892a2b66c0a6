import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The card provider's customer per member (README Decisions "Card payments"). */
export const cardCustomers = sqliteTable(
  "card_customers",
  {
    memberId: text("member_id").primaryKey(),
    projectCode: text("project_code").notNull(),
    customerId: text("customer_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("card_customers_customer").on(t.customerId)],
);

/** One hosted checkout per row; coins and price copied from the server's package list (§9 amounts ×100). */
export const cardPayments = sqliteTable(
  "card_payments",
  {
    idPayment: integer("id_payment").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    packageId: text("package_id").notNull(),
    coins: integer("coins").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    status: text("status").notNull().default("pending"),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    refundedCoins: integer("refunded_coins").notNull().default(0),
    refundShortfall: integer("refund_shortfall").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    paidAt: integer("paid_at"),
  },
  (t) => [
    uniqueIndex("card_payments_session").on(t.checkoutSessionId),
    index("card_payments_intent").on(t.paymentIntentId),
    index("card_payments_member").on(t.memberId, t.idPayment),
  ],
);

/** Verified webhook events already handled, by the provider's event id. */
export const cardEvents = sqliteTable("card_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: integer("received_at").notNull(),
});
