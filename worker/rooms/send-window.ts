/**
 * Per-connection send limit, kept in the connection's serialized state so it survives hibernation:
 * at most `limit` client messages in any `windowMs`.
 */
export class SendWindow {
  times: number[];
  constructor(previous: readonly number[] | undefined, private limit = 10, private windowMs = 10_000, private at = Date.now()) {
    this.times = (previous ?? []).filter((t) => t > this.at - this.windowMs);
  }
  allow(): boolean {
    if (this.times.length >= this.limit) return false;
    this.times.push(this.at);
    return true;
  }
}
