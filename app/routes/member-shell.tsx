import { Outlet } from "react-router";
import type { Route } from "./+types/member-shell";
import { ToastProvider } from "../components/toast";
import { BottomNav } from "../features/shell/bottom-nav";
import { ConnectionBanner, useInboxStream } from "../features/chat/inbox-stream";

/** The app frame for every member-facing page: content above, bottom navigation below. */
export default function MemberShell({ params }: Route.ComponentProps) {
  const inbox = useInboxStream(params.projectCode.toLowerCase());
  return (
    <ToastProvider>
      <div className="shell">
        <ConnectionBanner status={inbox.status} />
        <div className="shell-content">
          <Outlet />
        </div>
        <BottomNav projectCode={params.projectCode.toLowerCase()} dots={inbox.dots} />
      </div>
    </ToastProvider>
  );
}
