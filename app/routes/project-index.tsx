import { redirect } from "react-router";
import type { Route } from "./+types/project-index";

// §2: a bare project path redirects to {projectCode}/profiles.
export const loader = ({ params }: Route.LoaderArgs) => redirect(`/${params.projectCode}/profiles`);
