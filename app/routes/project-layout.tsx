import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/project-layout";

/** §2: the project code is the first path segment; a code whose length is not 3 redirects to /smp. */
export function loader({ params }: Route.LoaderArgs) {
  if (params.projectCode.length !== 3 || !/^[a-z]{3}$/i.test(params.projectCode)) throw redirect("/smp");
  return { projectCode: params.projectCode.toLowerCase() };
}

export default function ProjectLayout() {
  return <Outlet />;
}
