/**
 * The notifications of each user (spec 3, 4 and 7): paged reads newest first, mark read and
 * delete one or all. A user only ever reaches their own notifications of their own customer;
 * anything else answers the same 404 as a missing key.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import { AppError, type Db } from "../../kernel/mod.ts";
import type {
  NotificationDto,
  NotificationPageDto as NotificationPage,
  OutboxDto,
} from "./contract.ts";
import {
  type NotificationInfo,
  type NotificationRow,
  notifications,
  type NotificationType,
  outbox,
  type Severity,
} from "./schema.ts";

/** Whose notifications a call is about: the caller's user id and customer key. */
export interface Owner {
  userId: string;
  customerKey: string;
}

/** Input of {@link NotificationsService.createMany}. */
export interface NewNotification {
  userId: string;
  customerKey: string;
  type: NotificationType;
  name: string;
  severity: Severity;
  info: NotificationInfo;
  productId?: string | null;
  creationTime?: Date;
}

export { MAX_PAGE_SIZE } from "./contract.ts";
export type { NotificationDto, NotificationPage, OutboxDto };

export function toDto(row: NotificationRow): NotificationDto {
  return {
    key: row.key,
    name: row.name,
    type: row.type,
    severity: row.severity,
    is_read: row.isRead,
    creation_time: row.creationTime.toISOString(),
    info: JSON.stringify(row.info),
    gridwatch_id: row.productId,
  };
}

const KEY_PATTERN = /^[\w-]{1,64}$/;

/** Reads and changes notifications; producers create them through {@link createMany}. */
export class NotificationsService {
  constructor(private readonly db: Db) {}

  /** The caller's own id only: another user's id (or a malformed one) is 404. */
  #own(owner: Owner, userId: string): void {
    if (userId !== owner.userId) throw new AppError("common.notFound");
  }

  #mine(owner: Owner) {
    return and(
      eq(notifications.userId, owner.userId),
      eq(notifications.customerKey, owner.customerKey),
    );
  }

  /** A page (0-based) of the user's notifications, newest first, with total and unread counts. */
  async list(owner: Owner, userId: string, page: number, size: number): Promise<NotificationPage> {
    this.#own(owner, userId);
    const rows = await this.db.select().from(notifications).where(this.#mine(owner))
      .orderBy(desc(notifications.creationTime), desc(notifications.key))
      .limit(size).offset(page * size);
    const [counts] = await this.db.select({
      total: count(),
      unread: sql<number>`count(*) filter (where not ${notifications.isRead})`.mapWith(Number),
    }).from(notifications).where(this.#mine(owner));
    return {
      notifications: rows.map(toDto),
      page,
      size,
      total: Number(counts?.total ?? 0),
      unread: Number(counts?.unread ?? 0),
    };
  }

  /** Sets is_read on one of the caller's notifications. */
  async markRead(owner: Owner, key: string, isRead: boolean): Promise<NotificationDto> {
    if (!KEY_PATTERN.test(key)) throw new AppError("common.notFound");
    const [row] = await this.db.update(notifications).set({ isRead })
      .where(and(eq(notifications.key, key), this.#mine(owner))).returning();
    if (!row) throw new AppError("common.notFound");
    return toDto(row);
  }

  /** Deletes one of the caller's notifications. */
  async delete(owner: Owner, key: string): Promise<void> {
    if (!KEY_PATTERN.test(key)) throw new AppError("common.notFound");
    const rows = await this.db.delete(notifications)
      .where(and(eq(notifications.key, key), this.#mine(owner))).returning({
        key: notifications.key,
      });
    if (rows.length === 0) throw new AppError("common.notFound");
  }

  /** Sets is_read on all the caller's notifications; returns how many changed. */
  async markAllRead(owner: Owner, userId: string, isRead: boolean): Promise<number> {
    this.#own(owner, userId);
    const rows = await this.db.update(notifications).set({ isRead })
      .where(and(this.#mine(owner), eq(notifications.isRead, !isRead)))
      .returning({ key: notifications.key });
    return rows.length;
  }

  /** Deletes all the caller's notifications; returns how many. */
  async deleteAll(owner: Owner, userId: string): Promise<number> {
    this.#own(owner, userId);
    const rows = await this.db.delete(notifications).where(this.#mine(owner))
      .returning({ key: notifications.key });
    return rows.length;
  }

  /** Stores notifications in one statement and returns them with their owners (for the push). */
  async createMany(
    items: readonly NewNotification[],
  ): Promise<{ userId: string; notification: NotificationDto }[]> {
    if (items.length === 0) return [];
    const rows = await this.db.insert(notifications).values(items.map((n) => ({
      key: crypto.randomUUID(),
      userId: n.userId,
      customerKey: n.customerKey,
      type: n.type,
      name: n.name,
      severity: n.severity,
      isRead: false,
      info: n.info,
      productId: n.productId ?? null,
      ...(n.creationTime ? { creationTime: n.creationTime } : {}),
    }))).returning();
    return rows.map((row) => ({ userId: row.userId, notification: toDto(row) }));
  }

  /** Keeps an e-mail in the outbox. */
  async keepMail(mail: Omit<OutboxDto, "id" | "created_at"> & { customerKey: string }) {
    await this.db.insert(outbox).values({
      id: crypto.randomUUID(),
      customerKey: mail.customerKey,
      userId: mail.user_id,
      recipient: mail.recipient,
      subject: mail.subject,
      body: mail.body,
      kind: mail.kind,
    });
  }

  /** The newest mails of the outbox of one customer (or of every customer for `null`). */
  async outbox(customerKey: string | null, limit = 200): Promise<OutboxDto[]> {
    const rows = await this.db.select().from(outbox)
      .where(customerKey === null ? undefined : eq(outbox.customerKey, customerKey))
      .orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
    return rows.map((r) => ({
      id: r.id,
      user_id: r.userId,
      recipient: r.recipient,
      subject: r.subject,
      body: r.body,
      kind: r.kind,
      created_at: r.createdAt.toISOString(),
    }));
  }
}
