// Market demo data: masters with sub-members (some two levels deep), hierarchy history, members on the
// market with bidding loops, hot-search keywords and M coin ledger entries. Deterministic.
import { createRandom } from "./random.mjs";

const DAY = 86_400_000;
const KEYWORDS = [["rope", 14], ["mistress", 11], ["kitten", 9], ["tokyo", 7], ["shibari", 6], ["pet", 5], ["lady", 4], ["master", 3]];

export async function seed(ctx) {
  const { env, project } = ctx;
  const random = createRandom(707);
  const now = Date.now();
  const masters = ctx.members.filter((m) => m.multiGender === 1 || m.multiGender === 2);
  const others = ctx.members.filter((m) => !(m.multiGender === 1 || m.multiGender === 2));
  const demo = ctx.members[0];
  const statements = [];
  const history = (memberId, parentId, event, at) =>
    env.DB.prepare("insert into hierarchy_history (project_code, member_id, parent_member_id, event, created_at) values (?, ?, ?, ?, ?)").bind(
      project, memberId, parentId, event, at,
    );
  const ledger = (memberId, amount, reason, sourceKey, at) =>
    env.DB.prepare(
      "insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values (?, ?, 'mcoin', ?, ?, ?, ?)",
    ).bind(project, memberId, amount, reason, sourceKey, at);

  // Sub-members: the first masters take three or four members each; the demo member (a master) gets some too.
  const owner = new Map();
  let cursor = 0;
  for (const master of masters.slice(0, 4)) {
    const take = master === demo ? 3 : 2 + Math.floor(random() * 2);
    for (let i = 0; i < take && cursor < others.length; i++, cursor++) {
      const sub = others[cursor];
      const joinedAt = now - (2 + Math.floor(random() * 20)) * DAY;
      owner.set(sub.id, master.id);
      statements.push(
        env.DB.prepare("insert into submembers (member_id, project_code, master_member_id, joined_at) values (?, ?, ?, ?)").bind(sub.id, project, master.id, joinedAt),
        history(sub.id, master.id, "joined", joinedAt),
      );
    }
  }
  // A second level: one master serves another, so the hierarchy has depth.
  if (masters.length >= 3 && masters[1] !== demo && masters[2] !== demo) {
    const joinedAt = now - 9 * DAY;
    statements.push(
      env.DB.prepare("insert into submembers (member_id, project_code, master_member_id, joined_at) values (?, ?, ?, ?)").bind(masters[2].id, project, masters[1].id, joinedAt),
      history(masters[2].id, masters[1].id, "joined", joinedAt),
    );
  }
  // Older history: someone who was freed and someone who was sold and won at the market.
  for (const sub of others.slice(cursor, cursor + 2)) {
    const by = masters[Math.floor(random() * masters.length)];
    statements.push(history(sub.id, by.id, "joined", now - 40 * DAY), history(sub.id, by.id, "freed", now - 25 * DAY));
  }

  // On the market: sold members with bidding loops (bids from masters, newest last).
  const listed = others.slice(cursor + 2, cursor + 5);
  for (const [index, sub] of listed.entries()) {
    const seller = masters[(index + 3) % masters.length];
    const listedAt = now - (index + 1) * 6 * 3_600_000;
    statements.push(history(sub.id, seller.id, "joined", listedAt - 30 * DAY), history(sub.id, seller.id, "sold", listedAt));
    const bidders = masters.filter((m) => m.id !== seller.id).slice(index, index + 2 + index * 2);
    let dueDate = listedAt + 3 * DAY;
    bidders.forEach((bidder, i) => {
      const at = listedAt + (i + 1) * 1_800_000;
      dueDate = Math.max(dueDate, at + DAY);
      statements.push(
        env.DB.prepare(
          "insert into bidding_loops (project_code, target_member_id, bidder_member_id, request_key, due_date, created_at) values (?, ?, ?, ?, ?, ?)",
        ).bind(project, sub.id, bidder.id, `seed-bid-${index}-${i}`, at + DAY, at),
      );
    });
    const last = bidders[bidders.length - 1];
    statements.push(
      env.DB.prepare(
        "insert into market_listings (member_id, project_code, seller_member_id, last_bidder_member_id, bidding_count, due_date, listed_at) values (?, ?, ?, ?, ?, ?, ?)",
      ).bind(sub.id, project, seller.id, last ? last.id : null, bidders.length, dueDate, listedAt),
      env.DB.prepare("update profiles set bidding_count = ? where member_id = ?").bind(bidders.length, sub.id),
    );
  }

  // Hot-search keywords.
  for (const [keyword, count] of KEYWORDS) {
    statements.push(
      env.DB.prepare("insert into search_keywords (project_code, keyword, search_count, last_searched_at, listed_at) values (?, ?, ?, ?, ?)").bind(project, keyword, count, now - count * 3_600_000, now - count * 3_600_000),
    );
  }

  // M coins: awards for replies and ratings, with the owner's master's share (§9), as the ledger records them.
  for (const member of ctx.members) {
    const awards = 1 + Math.floor(random() * 6);
    for (let i = 0; i < awards; i++) {
      const reason = i % 2 ? "photoRated" : "replyReceived";
      const source = `seed:${reason}:${member.memberNo}:${i}`;
      const at = now - Math.floor(random() * 30) * DAY;
      statements.push(ledger(member.id, 1, reason, source, at));
      const master = owner.get(member.id);
      if (master) statements.push(ledger(master, 1, `master:${reason}`, `${member.id}:${source}`, at));
    }
  }
  statements.push(ledger(demo.id, 20, "welcome", "seed:welcome", now - 30 * DAY));

  await env.DB.batch(statements);
}
