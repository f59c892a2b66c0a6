import { redirect } from "react-router";
import type { Route } from "./+types/not-found";

// §2: a project code whose length is not 3 redirects to /smp; anything else unknown is a 404.
export function loader({ params }: Route.LoaderArgs) {
  const first = (params["*"] ?? "").split("/")[0] ?? "";
  if (first.length !== 3) throw redirect("/smp");
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
