import { LocalTime } from "../../i18n/use-format";

/**
 * §9: message times are UTC-suffixed; shown in the member's language and own clock (UTC while hydrating). A module of
 * its own: lists that show only a message's time (a profile's chatroom messages) need not load the message item.
 */
export function MessageTime({ iso }: { iso: string }) {
  return <LocalTime value={iso} preset="shortDateTime" />;
}
