import assert from "node:assert/strict";
import {
  channelsOf,
  hasNotificationsEnabled,
  notificationApps,
  notificationAppsFor,
  readNotificationSettings,
  withChannel,
} from "./notification-settings.ts";

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

Deno.test("notificationAppsFor() needs a role for the key; IO monitoring also the customer's app", () => {
  const keys = (roles: string[], apps: string[] = []) =>
    notificationAppsFor(roles, apps).map((a) => a.key);
  assert.deepEqual(keys(["hes:default", "app:grid-monitoring:user"]), ["app:grid-monitoring"]);
  assert.deepEqual(keys(["app:io-monitoring:user"]), []);
  assert.deepEqual(keys(["app:io-monitoring:user"], ["app:io-monitoring"]), ["app:io-monitoring"]);
  assert.deepEqual(keys(["hes:infrastructure-setup-x:user"]), []);
});

Deno.test("readNotificationSettings() and channelsOf() read both value shapes", () => {
  const settings = readNotificationSettings({
    notification: {
      apps: { a: true, b: { web: false, email: true }, c: "junk" },
      email: true,
    },
  });
  assert.deepEqual(settings, { apps: { a: true, b: { web: false, email: true } }, email: true });
  assert.deepEqual(channelsOf(settings, "a"), { web: true, email: false });
  assert.deepEqual(channelsOf(settings, "b"), { web: false, email: true });
  assert.deepEqual(channelsOf(settings, "z"), { web: false, email: false });
  assert.deepEqual(readNotificationSettings(null), { apps: {}, email: false });
});

Deno.test("withChannel() switches one channel and keeps the rest", () => {
  const start = { apps: { a: true }, email: false };
  const next = withChannel(start, "a", "email", true);
  assert.deepEqual(next.apps.a, { web: true, email: true });
  assert.deepEqual(withChannel(next, "b", "web", true).apps, {
    a: { web: true, email: true },
    b: { web: true, email: false },
  });
  assert.deepEqual(start.apps, { a: true }, "the input is not changed");
});
