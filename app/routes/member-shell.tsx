import { Outlet } from "react-router";
import type { Route } from "./+types/member-shell";
import { ToastProvider } from "../components/toast";
import { BottomNav } from "../features/shell/bottom-nav";

/** The app frame for every member-facing page: content above, bottom navigation below. */
export default function MemberShell({ params }: Route.ComponentProps) {
  return (
    <ToastProvider>
      <div className="shell">
        <div className="shell-content">
          <Outlet />
        </div>
        <BottomNav projectCode={params.projectCode.toLowerCase()} />
      </div>
    </ToastProvider>
  );
}
