import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { profileSummaries } from "../../worker/features/members/profile-summary";

// Embedding profiles must cost one row per member, not a scan of the tenant (bench: 20,000 rows per chunk).
describe("profileSummaries", () => {
  it("reads the requested members through the member index", async () => {
    const now = Date.now();
    const rows = Array.from({ length: 1500 }, (_, i) => i);
    for (let i = 0; i < rows.length; i += 50) {
      await env.DB.batch(
        rows.slice(i, i + 50).map((n) =>
          env.DB.prepare("insert into profiles (member_id, project_code, simple_code, created_at, updated_at) values (?, 'SMP', ?, ?, ?)").bind(`mcost${n}`, String(70000000 + n), now, now),
        ),
      );
    }
    const plan = await env.DB.prepare("explain query plan select * from profiles where +project_code = ? and member_id in (?, ?)").bind("SMP", "mcost1", "mcost2").all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toContain("profiles_member");
    const map = await profileSummaries(env, "SMP", ["mcost1", "mcost2", "mcost3"], null);
    expect([...map.keys()].sort()).toEqual(["mcost1", "mcost2", "mcost3"]);
  });
});
