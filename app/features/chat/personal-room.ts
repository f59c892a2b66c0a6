import { lateModule, useLateModule } from "../../lib/late-module";

// js-md5 is needed only for a link shown after hydration, so it is not part of any page's first load (README Decisions
// "Dialogs and toasts load after the first paint": every script fetched before the first paint counts toward it).
const md5Module = lateModule(() => import("js-md5"));

/** §2: a member's personal chatroom is `chatroom/{md5 of member code}`; null until js-md5 has arrived. */
export function usePersonalRoomId(memberNo: string | null): string | null {
  const loaded = useLateModule(md5Module, Boolean(memberNo), () => {});
  return memberNo && loaded ? loaded.md5(memberNo) : null;
}
