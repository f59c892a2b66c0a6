import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/**
 * Every URL of §2, explicitly. Pages live under /:projectCode (three letters; anything else → /smp).
 * Feature sections below are owned by their feature; keep each section's lines together.
 */
export default [
  index("routes/root-redirect.tsx"),
  route("locales/:lang", "routes/locales.ts"),
  // social: §2 the basement is a separate site outside the project path (kycStatus 1 only).
  route("basement", "routes/basement.tsx"),

  route(":projectCode", "routes/project-layout.tsx", [
    index("routes/project-index.tsx"),

    // session
    route("login", "routes/login.tsx"),
    route("registration", "routes/registration.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("line-callback", "routes/line-callback.tsx"), // §7 LINE login/bind redirectUrl (README Decisions "LINE login")

    layout("routes/member-shell.tsx", [
      // home
      route("home", "routes/home.tsx"),

      // profiles
      route("profile", "routes/profile.tsx"),
      route("profiles", "routes/profiles.tsx"),
      route("all-profiles", "routes/all-profiles.tsx"),
      route("photo-grid", "routes/photo-grid.tsx"),
      route("avatar-wall", "routes/avatar-wall.tsx"),
      route("share/:simpleCode", "routes/share.tsx", { id: "share-by-path" }),
      route("s", "routes/share.tsx"),
      route("qr", "routes/qr.tsx"),

      // social
      route("message", "routes/message.tsx"),
      route("guestbook", "routes/guestbook.tsx"),

      // chat
      route("public-chat/:chatroomId", "routes/chat-public.tsx"),
      route("notification", "routes/chat-notification.tsx", { id: "chat-notification-list" }),
      route("notification/:chatId", "routes/chat-notification.tsx"),
      route("notes/:idChatroomMessage", "routes/chat-notes.tsx"),
      route("chatroom/:roomKey", "routes/chat-room.tsx", { id: "chat-room-one" }),
      route("chatroom/:fromMemberNo/:toMemberNo", "routes/chat-room.tsx", { id: "chat-room-pair" }),
      route("chatroom/:fromMemberNo/:toMemberNo/:connectionId", "routes/chat-room.tsx"),

      // tasks and albums
      route("task/:tab", "routes/task.tsx"),
      route("mission/:idMission", "routes/mission.tsx"),
      route("review/:idMission", "routes/review.tsx"),
      route("albums", "routes/albums.tsx"),
      route("albums/:idAlbum/edit", "routes/album-edit.tsx"),
      route("albums/:idAlbum", "routes/album.tsx"),

      // market
      route("market", "routes/market.tsx"),
      route("market/:masterMemberNo", "routes/market-master.tsx"),

      // engagement
      route("ai-room", "routes/ai-room.tsx"),

      // moderation (README Decisions "Moderation"): operators only, 404 for everyone else
      route("moderation", "routes/moderation.tsx"),

      // settings (README Decisions "Settings in one place"): reached from My profile
      route("settings", "routes/settings.tsx"),
      // collectibles and the daily lottery (README Decisions "Collectibles and the daily lottery"): reached from My profile
      route("collectibles", "routes/collectibles.tsx"),
      route("lottery", "routes/lottery.tsx"),
      // wallet (README Decisions "Card payments"): coins by card and saved cards, reached from the market's wallet
      route("wallet", "routes/wallet.tsx"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
