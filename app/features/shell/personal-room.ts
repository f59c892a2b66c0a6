import { lateModule, useLateModule } from "../../lib/late-module";

// js-md5 is needed only after hydration, so no page's first load fetches it (README Decisions "Small stylesheets ride
// with the app's; js-md5 and partysocket come after hydration").
const md5Module = lateModule(() => import("js-md5"));

/** §2: a member's personal chatroom is `chatroom/{md5 of member code}`; null until js-md5 has arrived. */
export function usePersonalRoomId(memberNo: string | null): string | null {
  const loaded = useLateModule(md5Module, Boolean(memberNo), () => {});
  return memberNo && loaded ? loaded.md5(memberNo) : null;
}
