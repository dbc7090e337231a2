/** The live STOMP sessions by user id: producers publish through it, revocation closes them. */
import type { NotificationDto } from "./service.ts";
import type { StompSession } from "./stomp.ts";

/** The live sessions by user id; producers publish through it. */
export class NotificationHub {
  readonly #sessions = new Map<string, Set<StompSession>>();

  add(userId: string, session: StompSession): void {
    const set = this.#sessions.get(userId) ?? new Set();
    set.add(session);
    this.#sessions.set(userId, set);
  }

  remove(session: StompSession): void {
    const userId = session.principal?.userId;
    if (!userId) return;
    const set = this.#sessions.get(userId);
    set?.delete(session);
    if (set?.size === 0) this.#sessions.delete(userId);
  }

  /** Sends a list of notifications to every live session of the user. */
  publish(userId: string, list: readonly NotificationDto[]): void {
    for (const session of this.#sessions.get(userId) ?? []) session.deliver(list);
  }

  /** Number of live sessions (all users, or one). */
  size(userId?: string): number {
    if (userId) return this.#sessions.get(userId)?.size ?? 0;
    let n = 0;
    for (const set of this.#sessions.values()) n += set.size;
    return n;
  }

  /**
   * Ends every session of a user with an ERROR frame and a close (their access was revoked or
   * narrowed: the client reconnects with a token that is checked again). Returns how many.
   */
  closeUser(userId: string, message: string): number {
    const sessions = [...(this.#sessions.get(userId) ?? [])];
    for (const session of sessions) session.fail(message);
    return sessions.length;
  }

  /** Closes every session (platform shutdown). */
  closeAll(): void {
    for (const set of [...this.#sessions.values()]) {
      for (const session of [...set]) session.close(1001, "Server stopping");
    }
  }
}
