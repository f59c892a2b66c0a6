import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * Every change of ownership (§3 Hierarchy history: idHierarchyHistory, parentProfile, dateAdd).
 * `parentMemberId` is the master the event concerns; `event` says what happened.
 */
export const hierarchyHistory = sqliteTable(
  "hierarchy_history",
  {
    idHierarchyHistory: integer("id_hierarchy_history").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    parentMemberId: text("parent_member_id").notNull(),
    event: text("event", { enum: ["joined", "sold", "freed", "autoFreed", "won"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("hierarchy_history_member").on(t.memberId, t.idHierarchyHistory)],
);

/**
 * A sub-member a master sold to the market (`POST game/market/slave`). Open until `dueDate`;
 * every bid restarts the countdown (the bidding loop). The last bidder then becomes the master.
 */
export const marketListings = sqliteTable(
  "market_listings",
  {
    memberId: text("member_id").primaryKey(),
    projectCode: text("project_code").notNull(),
    sellerMemberId: text("seller_member_id").notNull(),
    lastBidderMemberId: text("last_bidder_member_id"),
    biddingCount: integer("bidding_count").notNull().default(0),
    dueDate: integer("due_date").notNull(),
    listedAt: integer("listed_at").notNull(),
  },
  (t) => [index("market_listings_project_listed").on(t.projectCode, t.listedAt), index("market_listings_due").on(t.dueDate)],
);

/** One bid on a listed sub-member (§3 Bidding loop: idBiddingLoop, profile). */
export const biddingLoops = sqliteTable(
  "bidding_loops",
  {
    idBiddingLoop: integer("id_bidding_loop").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    targetMemberId: text("target_member_id").notNull(),
    bidderMemberId: text("bidder_member_id").notNull(),
    /** Random per request: lets the same batch find the row it just inserted. */
    requestKey: text("request_key").notNull(),
    dueDate: integer("due_date").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("bidding_loops_request").on(t.requestKey), index("bidding_loops_target").on(t.targetMemberId, t.idBiddingLoop)],
);

/** Hot-search keywords (§7 search/popular-keyword): one counter per keyword, bumped by real searches. */
export const searchKeywords = sqliteTable(
  "search_keywords",
  {
    projectCode: text("project_code").notNull(),
    keyword: text("keyword").notNull(),
    searchCount: integer("search_count").notNull().default(0),
    lastSearchedAt: integer("last_searched_at").notNull(),
    /** When enough distinct members searched it on one day to show it publicly (null: never shown). */
    listedAt: integer("listed_at"),
  },
  (t) => [primaryKey({ columns: [t.projectCode, t.keyword] }), index("search_keywords_rank").on(t.projectCode, t.searchCount)],
);

/** A member counts once per keyword per UTC day, so one member cannot push a keyword up alone. */
export const keywordSearches = sqliteTable(
  "keyword_searches",
  {
    projectCode: text("project_code").notNull(),
    keyword: text("keyword").notNull(),
    memberId: text("member_id").notNull(),
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectCode, t.keyword, t.memberId, t.day] }), index("keyword_searches_day").on(t.day)],
);

/**
 * Wallet transfers (§7 transfer {simpleCode, amount, otp}). `amount` is as sent (hundredths, §9);
 * `coins` moved = amount / 100. (fromMemberId, idempotencyKey) is unique, so a retry moves nothing.
 */
export const walletTransfers = sqliteTable(
  "wallet_transfers",
  {
    idTransfer: integer("id_transfer").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    fromMemberId: text("from_member_id").notNull(),
    toMemberId: text("to_member_id").notNull(),
    amount: integer("amount").notNull(),
    coins: integer("coins").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("wallet_transfers_key").on(t.fromMemberId, t.idempotencyKey),
    index("wallet_transfers_from").on(t.fromMemberId, t.idTransfer),
    index("wallet_transfers_to").on(t.toMemberId, t.idTransfer),
  ],
);
