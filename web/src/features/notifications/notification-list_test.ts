import assert from "node:assert/strict";
import type { NotificationItem } from "./notification-atoms.ts";
import {
  listHeight,
  mergeByKey,
  notificationTarget,
  notificationText,
  pageSize,
  parseInfo,
  relativeTime,
} from "./notification-list.ts";

const item = (key: string, minute: number, isRead = false): NotificationItem => ({
  key,
  name: "CELLS_TO_CONFIGURE",
  severity: "INFO",
  is_read: isRead,
  creation_time: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  type: "SETUP_INFORMATION",
  info: "{}",
  gridwatch_id: null,
});

Deno.test("the list is the window height minus 180 and loads (height / 50) + 1 rows", () => {
  assert.equal(listHeight(900), 720);
  assert.equal(pageSize(720), 15);
  assert.equal(pageSize(listHeight(100)), 2, "a tiny window still loads rows");
});

Deno.test("mergeByKey() replaces known keys, adds new ones, newest first", () => {
  const list = [item("b", 2), item("a", 1)];
  const merged = mergeByKey(list, [item("c", 3), item("a", 1, true)]);
  assert.deepEqual(merged.list.map((n) => n.key), ["c", "b", "a"]);
  assert.equal(merged.list[2]!.is_read, true);
  assert.equal(merged.added, 1);
  assert.equal(merged.newlyUnread, 0, "one new unread, one read");
  assert.equal(mergeByKey(merged.list, [item("c", 3)]).added, 0, "a repeated message");
});

Deno.test("texts by type and state (spec 2.7)", () => {
  const text = (
    n: { name?: string; type?: NotificationItem["type"]; info: Record<string, unknown> },
  ) => notificationText({ name: "X", type: "DATA_EXPORT", ...n, info: JSON.stringify(n.info) });
  assert.equal(text({ info: { state: "DONE" } }).key, "text.stateDone");
  assert.equal(text({ info: { state: "FAILED" } }).key, "text.stateFailed");
  assert.equal(text({ info: {} }).key, "text.stateFailed");
  assert.equal(
    text({ type: "POWER_QUALITY", info: { state: "DONE" } }).values.type,
    "POWER_QUALITY",
  );
  assert.equal(
    text({ name: "AUTOMATIC_REQUEST_TRIGGER", info: { status: "FAILURE", node_name: "N" } }).key,
    "text.triggerFailed",
  );
  assert.equal(
    text({ name: "AUTOMATIC_REQUEST_TRIGGER", info: { status: "STARTED" } }).key,
    "text.triggerStarted",
  );
  assert.deepEqual(
    text({ name: "NODE_STATE_CHANGED", info: { number_of_alarms: 3 } }).values.count,
    3,
  );
  assert.equal(
    text({ name: "NODE_STATE_CHANGED", info: { number_of_alarms: 1 } }).key,
    "text.nodeAlarm",
  );
  assert.equal(text({ name: "NODE_STATE_CHANGED", info: { counter: 2 } }).key, "text.nodesCleared");
  assert.equal(
    text({ name: "MAPPING_VALIDATED", info: { status: "CORRECT" } }).key,
    "text.mappingCorrect",
  );
  assert.equal(text({ name: "CELLS_TO_CONFIGURE", info: { number_of_alarms: 4 } }).values.count, 4);
  assert.deepEqual(
    text({ name: "LOGIN_LOCKED", info: { state: "LOCKED", status: "a@demo-ew.ch", counter: 15 } }),
    { key: "text.loginLocked", values: { email: "a@demo-ew.ch", minutes: 15 } },
  );
  const io = { status: "Station door", counter: 2, node_name: "TS Dorf" };
  assert.deepEqual(
    text({ name: "IO_STATE_CHANGED", type: "IO_MONITORING", info: { ...io, state: "ON" } }),
    { key: "text.ioStateOn", values: { module: "Station door", channel: 2, node: "TS Dorf" } },
  );
  assert.equal(
    text({ name: "IO_STATE_CHANGED", type: "IO_MONITORING", info: { ...io, state: "OFF" } }).key,
    "text.ioStateOff",
  );
});

Deno.test("parseInfo() tolerates broken JSON; relativeTime() speaks the language", () => {
  assert.deepEqual(parseInfo("{"), {});
  assert.deepEqual(parseInfo("[1]"), [1]);
  const now = Date.parse("2026-01-01T12:00:00Z");
  assert.equal(relativeTime("2026-01-01T11:55:00Z", "en", now), "5 minutes ago");
  assert.equal(relativeTime("2026-01-01T09:00:00Z", "de", now), "vor 3 Stunden");
  assert.equal(relativeTime("2025-12-31T12:00:00Z", "fr", now), "hier");
});

Deno.test("notificationTarget() opens the node of an alarm and the work of an I/O change", () => {
  const alarm = {
    name: "NODE_STATE_CHANGED",
    type: "GRID_MONITORING" as const,
    info: JSON.stringify({ number_of_alarms: 1, node_id: "n7", node_name: "CAB Waldrand" }),
  };
  assert.deepEqual(notificationTarget(alarm), {
    to: "/grid-monitoring",
    search: { voltage: "lv", node: "n7" },
  });
  const io = {
    name: "IO_STATE_CHANGED",
    type: "IO_MONITORING" as const,
    info: '{"ew_key":"ew-3"}',
  };
  assert.deepEqual(notificationTarget(io), { to: "/io-monitoring", search: { ew: "ew-3" } });
  assert.equal(notificationTarget(item("c", 1)), null, "cells waiting: marked read only");
  const older = { ...alarm, info: JSON.stringify({ number_of_alarms: 1, node_name: "x" }) };
  assert.equal(notificationTarget(older), null, "a notification without a node opens nothing");
  assert.equal(
    notificationTarget({ name: "EXPORT", type: "DATA_EXPORT", info: '{"state":"DONE"}' }),
    null,
  );
});
