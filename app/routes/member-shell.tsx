import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, isRouteErrorResponse, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/member-shell";
import { ScrollToTop } from "../components/scroll-to-top";
import { preloadDialogs } from "../components/dialog";
import { preloadToasts, ToastProvider } from "../components/toast";
import { sessionHeaders } from "../lib/api.server";
import { BottomNav, type NavDots } from "../features/shell/bottom-nav";
import { SideNav } from "../features/shell/side-nav";
import { SignedInContext } from "../lib/signed-in";
import { whenSettled } from "../lib/when-settled";
import { VisitorBar } from "../features/shell/visitor-bar";
import { ConnectionBanner, useInboxStream } from "../features/chat/inbox-stream";
import { resumePush } from "../features/notifications/web-push";

// Each page names itself; this title stands when a page failed and the frame shows the error instead.
export const meta: Route.MetaFunction = ({ error }) => [{ title: isRouteErrorResponse(error) && error.status === 404 ? "Velvet · 404" : "Velvet" }];

/**
 * Member or visitor, from the session cookie alone (no API call, no D1 read): it picks the navigation and keeps
 * visitors' pages from member controls and private calls (README Decisions "Visitors and navigation"). A session that
 * has ended is found out by the page's own private calls (→ login), as before.
 */
export function loader({ request }: Route.LoaderArgs) {
  return { signedIn: sessionHeaders(request) !== null };
}

/** Dialogs and toasts load their code after the first paint; it is fetched this long after a page opens. */
const PRELOAD_AFTER_MS = 1500;

// Within the shell the answer cannot change: logging in or out passes through login, outside this layout.
export const shouldRevalidate = () => false;

/** The frame around the page: visitor bar, side navigation (desktop), content, scroll-to-top, bottom navigation. */
function Frame({ projectCode, signedIn, dots, children }: { projectCode: string; signedIn: boolean; dots?: NavDots; children: React.ReactNode }) {
  return (
    <SignedInContext.Provider value={signedIn}>
      <div className={`shell ${signedIn ? "shell-member" : "shell-visitor"}`}>
        <SideNav projectCode={projectCode} dots={dots} signedIn={signedIn} />
        {!signedIn && <VisitorBar projectCode={projectCode} />}
        {children}
        <BottomNav projectCode={projectCode} dots={dots} signedIn={signedIn} />
      </div>
    </SignedInContext.Provider>
  );
}

/** The app frame for every member-facing page: content above, scroll-to-top and navigation (bottom or side). */
export default function MemberShell({ params, loaderData }: Route.ComponentProps) {
  const projectCode = params.projectCode.toLowerCase();
  const inbox = useInboxStream(projectCode);
  // After login: the service worker, and this session's device for push when the member chose it.
  const signedIn = loaderData.signedIn;
  useEffect(() => {
    if (signedIn) void resumePush();
  }, [signedIn]);
  // Each in an idle callback of its own: adding both modules' preload links at once was a 55–86 ms task on a
  // 4×-throttled phone, counted as blocking time.
  useEffect(() => {
    const cancels = [whenSettled(preloadDialogs, PRELOAD_AFTER_MS), whenSettled(preloadToasts, PRELOAD_AFTER_MS)];
    return () => {
      for (const cancel of cancels) cancel();
    };
  }, []);
  return (
    <ToastProvider>
      <Frame projectCode={projectCode} signedIn={loaderData.signedIn} dots={inbox.dots}>
        <ConnectionBanner status={inbox.status} />
        <div className="shell-content">
          <Outlet />
        </div>
        <ScrollToTop />
      </Frame>
    </ToastProvider>
  );
}

/**
 * A page that fails (an id that does not exist, a room the member may not open) keeps the frame: the member
 * reads why in their language and the navigation still leads on — never a dead end.
 */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const shell = useRouteLoaderData<typeof loader>("routes/member-shell");
  const projectCode = (params.projectCode ?? "smp").toLowerCase();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const signedIn = shell?.signedIn ?? true;
  return (
    <ToastProvider>
      <Frame projectCode={projectCode} signedIn={signedIn}>
        <div className="shell-content">
          <main className="page page-center">
            <h1>{notFound ? "404" : t("appName")}</h1>
            <p role="alert">{notFound ? t("notFound") : t("genericError")}</p>
            <Link className="button" to={`/${projectCode}/${signedIn ? "home" : "profiles"}`}>
              {signedIn ? t("nav.home") : t("shell:nav.feed")}
            </Link>
          </main>
        </div>
      </Frame>
    </ToastProvider>
  );
}
