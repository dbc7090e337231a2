import assert from "node:assert/strict";
import { AppError, openMigratedDatabase } from "../../kernel/mod.ts";
import { type NewNotification, NotificationsService, type Owner } from "./service.ts";

const A: Owner = { userId: "ua", customerKey: "c1" };
const B: Owner = { userId: "ub", customerKey: "c1" };
/** Same user id under another customer: must never see A's notifications. */
const A_ELSEWHERE: Owner = { userId: "ua", customerKey: "c2" };

async function withService(fn: (service: NotificationsService) => Promise<void>) {
  const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    await fn(new NotificationsService(database.db));
  } finally {
    await database.close();
  }
}

const note = (owner: Owner, minute: number): NewNotification => ({
  userId: owner.userId,
  customerKey: owner.customerKey,
  type: "SETUP_INFORMATION",
  name: "CELLS_TO_CONFIGURE",
  severity: "INFO",
  info: { number_of_alarms: minute },
  productId: minute === 0 ? "cell-1" : null,
  creationTime: new Date(Date.UTC(2026, 0, 1, 0, minute)),
});

const notFound = (error: unknown) =>
  error instanceof AppError && error.entry.key === "common.notFound";

Deno.test("lists the owner's notifications newest first in pages with total and unread", async () => {
  await withService(async (service) => {
    await service.createMany([...Array(7)].map((_, i) => note(A, i)));
    await service.createMany([note(B, 30), note(A_ELSEWHERE, 40)]);
    const first = await service.list(A, "ua", 0, 3);
    assert.equal(first.total, 7);
    assert.equal(first.unread, 7);
    assert.deepEqual(
      first.notifications.map((n) => JSON.parse(n.info).number_of_alarms),
      [6, 5, 4],
    );
    const last = await service.list(A, "ua", 2, 3);
    assert.deepEqual(last.notifications.map((n) => JSON.parse(n.info).number_of_alarms), [0]);
    assert.equal(last.notifications[0]?.gridwatch_id, "cell-1");
    assert.equal(last.notifications[0]?.creation_time, "2026-01-01T00:00:00.000Z");
    assert.equal((await service.list(A, "ua", 3, 3)).notifications.length, 0);
    assert.equal((await service.list(A_ELSEWHERE, "ua", 0, 10)).total, 1);
  });
});

Deno.test("another user's id or key answers 404 and changes nothing", async () => {
  await withService(async (service) => {
    const [mine] = await service.createMany([note(A, 1)]);
    await service.createMany([note(B, 2)]);
    await assert.rejects(service.list(B, "ua", 0, 10), notFound);
    await assert.rejects(service.markRead(B, mine!.notification.key, true), notFound);
    await assert.rejects(service.markRead(A_ELSEWHERE, mine!.notification.key, true), notFound);
    await assert.rejects(service.delete(B, mine!.notification.key), notFound);
    await assert.rejects(service.markAllRead(B, "ua", true), notFound);
    await assert.rejects(service.deleteAll(B, "ua"), notFound);
    await assert.rejects(service.markRead(A, "no such key", true), notFound);
    await assert.rejects(service.delete(A, crypto.randomUUID()), notFound);
    const page = await service.list(A, "ua", 0, 10);
    assert.equal(page.total, 1);
    assert.equal(page.unread, 1);
  });
});

Deno.test("marks one and all as read, deletes one and all", async () => {
  await withService(async (service) => {
    const created = await service.createMany([note(A, 1), note(A, 2), note(A, 3), note(B, 4)]);
    const read = await service.markRead(A, created[0]!.notification.key, true);
    assert.equal(read.is_read, true);
    assert.equal((await service.list(A, "ua", 0, 10)).unread, 2);
    assert.equal(await service.markAllRead(A, "ua", true), 2);
    assert.equal((await service.list(A, "ua", 0, 10)).unread, 0);
    assert.equal((await service.list(B, "ub", 0, 10)).unread, 1, "B is untouched");
    await service.delete(A, created[1]!.notification.key);
    assert.equal((await service.list(A, "ua", 0, 10)).total, 2);
    assert.equal(await service.deleteAll(A, "ua"), 2);
    assert.equal((await service.list(A, "ua", 0, 10)).total, 0);
    assert.equal((await service.list(B, "ub", 0, 10)).total, 1, "B is untouched");
  });
});

Deno.test("the outbox keeps mails per customer", async () => {
  await withService(async (service) => {
    await service.keepMail({
      customerKey: "c1",
      user_id: "ua",
      recipient: "a@x.ch",
      subject: "s",
      body: "b",
      kind: "NOTIFICATION",
    });
    await service.keepMail({
      customerKey: "c2",
      user_id: null,
      recipient: "b@y.ch",
      subject: "s2",
      body: "b2",
      kind: "EMAIL_VALIDATION",
    });
    assert.deepEqual((await service.outbox("c1")).map((m) => m.recipient), ["a@x.ch"]);
    assert.equal((await service.outbox(null)).length, 2);
  });
});
