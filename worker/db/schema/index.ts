// Every feature's tables, one file per feature. Migrations in /migrations mirror these
// (tests/unit/schema-matches-migrations.test.ts keeps them honest).
export * from "./session";
export * from "./profiles";
export * from "./profiles-extra";
export * from "./safety";
export * from "./notifications";
export * from "./coins";
export * from "./hierarchy";
export * from "./home";
export * from "./tasks-albums";
export * from "./social";
export * from "./chat";
export * from "./market";
export * from "./moderation";
export * from "./connections";
export * from "./collectibles";
export * from "./card-payments";
export * from "./creator";
export * from "./line";
