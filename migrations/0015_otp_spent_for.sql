-- A one-time code is spent for one purpose (a wallet transfer's idempotency key, or one verification): twin
-- requests of the same transfer pass together, any other use of the spent code is refused.
ALTER TABLE `otp_codes` ADD `spent_for` text;
