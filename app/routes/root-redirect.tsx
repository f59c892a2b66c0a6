import { redirect } from "react-router";

// §2: the root redirects to /smp/profiles.
export const loader = () => redirect("/smp/profiles");
