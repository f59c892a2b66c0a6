import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Migration 0039 (README Decisions "Collectibles and the daily lottery"): one numbered limited edition per photo. */
export const collectibles = sqliteTable(
  "collectibles",
  {
    idCollectible: integer("id_collectible").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idBanner: integer("id_banner").notNull(),
    creatorMemberId: text("creator_member_id").notNull(),
    editionSize: integer("edition_size").notNull(),
    gas: integer("gas").notNull(),
    requestId: text("request_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("collectibles_banner").on(t.idBanner), uniqueIndex("collectibles_request").on(t.creatorMemberId, t.requestId)],
);

/** One numbered copy: its owner and its live listing (`price` hundredths, null = not for sale). */
export const collectibleEditions = sqliteTable(
  "collectible_editions",
  {
    idEdition: integer("id_edition").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idCollectible: integer("id_collectible").notNull(),
    serial: integer("serial").notNull(),
    ownerMemberId: text("owner_member_id").notNull(),
    price: integer("price"),
    listingSeq: integer("listing_seq").notNull().default(0),
    listedAt: integer("listed_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("collectible_editions_serial").on(t.idCollectible, t.serial),
    index("collectible_editions_owner").on(t.ownerMemberId, t.idEdition),
    index("collectible_editions_listed").on(t.projectCode, t.listedAt),
  ],
);

/** One sale per listing (unique edition + listing_seq); a buyer's request id names one purchase. */
export const collectibleTrades = sqliteTable(
  "collectible_trades",
  {
    idTrade: integer("id_trade").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idEdition: integer("id_edition").notNull(),
    listingSeq: integer("listing_seq").notNull(),
    sellerMemberId: text("seller_member_id").notNull(),
    buyerMemberId: text("buyer_member_id").notNull(),
    price: integer("price").notNull(),
    gas: integer("gas").notNull(),
    requestId: text("request_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("collectible_trades_listing").on(t.idEdition, t.listingSeq),
    uniqueIndex("collectible_trades_request").on(t.buyerMemberId, t.requestId),
    index("collectible_trades_seller").on(t.sellerMemberId, t.idTrade),
  ],
);

/** Migration 0040: one draw per tenant and UTC day, committed (SHA-256 of the seed) before entries can exist. */
export const lotteryDraws = sqliteTable(
  "lottery_draws",
  {
    idDraw: integer("id_draw").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    drawDate: text("draw_date").notNull(),
    seed: text("seed").notNull(),
    commitment: text("commitment").notNull(),
    prize: integer("prize").notNull(),
    entryCount: integer("entry_count").notNull().default(0),
    winnerIndex: integer("winner_index"),
    winnerTicket: text("winner_ticket"),
    winnerMemberId: text("winner_member_id"),
    drawnAt: integer("drawn_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("lottery_draws_day").on(t.projectCode, t.drawDate), index("lottery_draws_due").on(t.drawnAt, t.drawDate)],
);

/** One free entry per member and day, as an anonymous random ticket. */
export const lotteryEntries = sqliteTable(
  "lottery_entries",
  {
    idEntry: integer("id_entry").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    drawDate: text("draw_date").notNull(),
    memberId: text("member_id").notNull(),
    ticket: text("ticket").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("lottery_entries_member").on(t.projectCode, t.drawDate, t.memberId), uniqueIndex("lottery_entries_ticket").on(t.ticket)],
);
