import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/**
 * Every URL of §2, explicitly. Pages live under /:projectCode (three letters; anything else → /smp).
 * Feature sections below are owned by their feature; keep each section's lines together.
 */
export default [
  index("routes/root-redirect.tsx"),
  route("locales/:lang", "routes/locales.ts"),

  route(":projectCode", "routes/project-layout.tsx", [
    index("routes/project-index.tsx"),

    // session (issue 2)
    route("login", "routes/login.tsx"),
    route("registration", "routes/registration.tsx"),
    route("reset-password", "routes/reset-password.tsx"),

    layout("routes/member-shell.tsx", [
      // home (issue 8)
      route("home", "routes/home.tsx"),

      // profiles (issue 3)

      // social (issue 4)

      // chat (issue 5)

      // tasks and albums (issue 6)
      route("task/:tab", "routes/task.tsx"),
      route("mission/:idMission", "routes/mission.tsx"),
      route("review/:idMission", "routes/review.tsx"),
      route("albums", "routes/albums.tsx"),
      route("albums/:idAlbum/edit", "routes/album-edit.tsx"),
      route("albums/:idAlbum", "routes/album.tsx"),

      // market (issue 7)

      // engagement (issue 8)
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
