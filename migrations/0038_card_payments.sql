-- Card payments and card binding (README Decisions "Card payments"). Coins are credited only from a verified
-- provider webhook; these tables are how a credit or a refund debit happens at most once.

-- The provider's customer per member (created on first use, carries no name or address of ours).
CREATE TABLE `card_customers` (
	`member_id` text PRIMARY KEY NOT NULL,
	`project_code` text NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `card_customers_customer` ON `card_customers` (`customer_id`);

-- One row per hosted checkout started: the package's coins and price are copied from the server's list at start.
-- The row is written BEFORE the provider is asked (its id travels as `client_reference_id`), so a paid checkout
-- always finds its row; `checkout_session_id` is filled in once the provider answers.
-- `amount` and `refunded_amount` are the price ×100 (§9); `coins` whole M coins.
CREATE TABLE `card_payments` (
	`id_payment` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_code` text NOT NULL,
	`member_id` text NOT NULL,
	`package_id` text NOT NULL,
	`coins` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`checkout_session_id` text,
	`payment_intent_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`refunded_amount` integer DEFAULT 0 NOT NULL,
	`refunded_coins` integer DEFAULT 0 NOT NULL,
	`refund_shortfall` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`paid_at` integer
);
CREATE UNIQUE INDEX `card_payments_session` ON `card_payments` (`checkout_session_id`);
CREATE INDEX `card_payments_intent` ON `card_payments` (`payment_intent_id`);
CREATE INDEX `card_payments_member` ON `card_payments` (`member_id`, `id_payment`);

-- Every verified webhook event handled, by the provider's event id: a replayed event does nothing.
CREATE TABLE `card_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
