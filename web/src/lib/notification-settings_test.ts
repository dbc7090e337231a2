import assert from "node:assert/strict";
import { hasNotificationsEnabled, notificationApps } from "./notification-settings.ts";

Deno.test("hasNotificationsEnabled() is false for an empty or missing apps object", () => {
  assert.equal(hasNotificationsEnabled({}), false);
  assert.equal(hasNotificationsEnabled(undefined), false);
  assert.equal(hasNotificationsEnabled({ "app:grid-monitoring": false }), false);
  assert.equal(hasNotificationsEnabled({ "hes:data-export": { web: false, email: false } }), false);
});

Deno.test("hasNotificationsEnabled() is true when any app or channel flag is true", () => {
  assert.equal(hasNotificationsEnabled({ "app:grid-monitoring": true }), true);
  assert.equal(hasNotificationsEnabled({ "hes:data-export": { web: false, email: true } }), true);
});

Deno.test("notificationApps() reads user_metadata.notification.apps defensively", () => {
  assert.deepEqual(notificationApps({ notification: { apps: { a: true } } }), { a: true });
  assert.equal(notificationApps({ language: "en" }), undefined);
  assert.equal(notificationApps(null), undefined);
});
