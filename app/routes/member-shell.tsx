import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/member-shell";
import { ScrollToTop } from "../components/scroll-to-top";
import { ToastProvider } from "../components/toast";
import { BottomNav } from "../features/shell/bottom-nav";
import { ConnectionBanner, useInboxStream } from "../features/chat/inbox-stream";
import { resumePush } from "../lib/web-push";

// Each page names itself; this title stands when a page failed and the frame shows the error instead.
export const meta: Route.MetaFunction = ({ error }) => [{ title: isRouteErrorResponse(error) && error.status === 404 ? "Velvet · 404" : "Velvet" }];

/** The app frame for every member-facing page: content above, scroll-to-top and bottom navigation below. */
export default function MemberShell({ params }: Route.ComponentProps) {
  const inbox = useInboxStream(params.projectCode.toLowerCase());
  // After login: the service worker, and this session's device for push when the member chose it.
  useEffect(() => void resumePush(), []);
  return (
    <ToastProvider>
      <div className="shell">
        <ConnectionBanner status={inbox.status} />
        <div className="shell-content">
          <Outlet />
        </div>
        <ScrollToTop />
        <BottomNav projectCode={params.projectCode.toLowerCase()} dots={inbox.dots} />
      </div>
    </ToastProvider>
  );
}

/**
 * A page that fails (an id that does not exist, a room the member may not open) keeps the frame: the member
 * reads why in their language and the bottom navigation still leads on — never a dead end.
 */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const projectCode = (params.projectCode ?? "smp").toLowerCase();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ToastProvider>
      <div className="shell">
        <div className="shell-content">
          <main className="page page-center">
            <h1>{notFound ? "404" : t("appName")}</h1>
            <p role="alert">{notFound ? t("notFound") : t("genericError")}</p>
            <Link className="button" to={`/${projectCode}/home`}>
              {t("nav.home")}
            </Link>
          </main>
        </div>
        <BottomNav projectCode={projectCode} />
      </div>
    </ToastProvider>
  );
}
