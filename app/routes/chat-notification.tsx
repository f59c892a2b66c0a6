import type { Route } from "./+types/chat-notification";
import { NotificationPage } from "../features/chat/notification-page";
import { requireSessionCookie } from "../lib/api.server";
import { pageTitle } from "../i18n/page-title";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "chat:notificationTitle") }];

/** §2 notification and notification/{chatId}: chat list left, conversation right. */
export function loader({ request }: Route.LoaderArgs) {
  requireSessionCookie(request);
  return null;
}

export default function NotificationRoute({ params }: Route.ComponentProps) {
  return (
    <main className="page page-wide">
      <NotificationPage projectCode={params.projectCode.toLowerCase()} chatId={(params as { chatId?: string }).chatId ?? null} />
    </main>
  );
}
