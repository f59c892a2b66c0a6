import type { Route } from "./+types/home";
import type { HomeDashboard as Dashboard } from "../../worker/contract/home";
import { HomeDashboard } from "../features/home/home-dashboard";
import { useLogout } from "../features/session/use-logout";
import { loadApi, requireSessionCookie } from "../lib/api.server";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** One loader, one in-process API call, one D1 batch behind it (worker/features/home/home.service.ts). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireSessionCookie(request);
  const dashboard = await loadApi<Dashboard>(context, request, `/core/home/${params.projectCode.toUpperCase()}`, { private: true });
  return { dashboard };
}

export default function Home({ loaderData, params }: Route.ComponentProps) {
  const logout = useLogout(params.projectCode);
  return <HomeDashboard data={loaderData.dashboard} projectCode={params.projectCode.toLowerCase()} onLogout={() => void logout()} />;
}
