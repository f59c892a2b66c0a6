import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/guestbook";
import { isOk } from "../../worker/contract/envelope";
import type { GuestbookCounts, GuestbookEntry, Page } from "../../worker/contract/social";
import { GuestbookEntries } from "../features/social/guestbook-entries";
import { useMemberId } from "../features/social/social-client";
import * as social from "../api/social-api";
import { loadApi, requireSessionCookie } from "../lib/api.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

const PAGE = 30;

export async function loader({ request, context }: Route.LoaderArgs) {
  const memberId = requireSessionCookie(request)["X-Member-ID"];
  return loadApi<Page<GuestbookEntry> & GuestbookCounts>(context, request, `/core/guestbooks/${memberId}?pageSize=${PAGE}`, { private: true });
}

/** My guestbook: everything members wrote to me, newest first; reading clears the unread badge. */
export default function Guestbook({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("social");
  const memberId = useMemberId();
  const [entries, setEntries] = useState(loaderData.items);
  const [next, setNext] = useState(loaderData.next);
  const [total, setTotal] = useState(loaderData.total);

  async function more() {
    if (!memberId || !next) return;
    const body = await social.guestbookPage(memberId, PAGE, next);
    if (!isOk(body)) return;
    setEntries((list) => [...list, ...body.info.items]);
    setNext(body.info.next);
  }

  return (
    <main className="page stack">
      <h1>{t("guestbook.title")}</h1>
      <p className="muted">{t("guestbook.total", { count: total })}</p>
      <GuestbookEntries
        entries={entries}
        empty={t("messages.emptyGuestbook")}
        onDeleted={(id) => {
          setEntries((list) => list.filter((e) => e.idGuestbook !== id));
          setTotal((n) => Math.max(0, n - 1));
        }}
      />
      {next && (
        <button type="button" className="button" onClick={() => void more()}>
          {t("common:loadMore")}
        </button>
      )}
    </main>
  );
}
