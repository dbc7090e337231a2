import assert from "node:assert/strict";
import {
  bodyFromForm,
  type CustomerSettings,
  formFromSettings,
  isDirty,
  serverFieldErrors,
  validateForm,
} from "./settings-form.ts";

const settings: CustomerSettings = {
  key: "c-1",
  auth_connection_name: "demo-ew",
  name: "EW Demo AG",
  default_language: "en",
  available_languages: ["en", "de"],
  default_map_zoom_level: 12,
  default_lv_nominal_voltage: "230/400",
  default_mv_nominal_voltage: null,
  default_frequency: 50,
  default_timezone: "Europe/Zurich",
  default_date_format: "DD.MM.YYYY",
  default_time_format: "HH:mm",
  default_number_format: "1'234.56",
  country: "CH",
  map_center: { lat: 46.812355, lng: 8.263672 },
  applications: ["app:grid-metering", "hes:data-export"],
  authorized_email_domains: ["demo-ew.ch", "ew-demo.ch"],
  warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  street: null,
  postcode: null,
  city: "Luzern",
  technical_contact: { name: null, email: null, phone: null },
  logo: null,
  logo_etag: null,
  updated_at: null,
};

Deno.test("formFromSettings() and bodyFromForm() round-trip the stored settings", () => {
  const body = bodyFromForm(formFromSettings(settings), false);
  assert.equal(body.city, "Luzern");
  assert.equal(body.street, null);
  assert.equal(body.default_mv_nominal_voltage, null);
  assert.deepEqual(body.map_center, { lat: 46.812355, lng: 8.263672 });
  assert.deepEqual(body.authorized_email_domains, ["demo-ew.ch", "ew-demo.ch"]);
  assert.equal("applications" in body, false);
  assert.deepEqual(
    bodyFromForm(formFromSettings(settings), true).applications,
    settings.applications,
  );
  assert.deepEqual(validateForm(formFromSettings(settings)), {});
});

Deno.test("validateForm() reports every broken rule under the server's field path", () => {
  const form = formFromSettings(settings);
  form.text.name = "";
  form.text["warning_thresholds.overcurrent_pct"] = "300";
  form.available_languages = [];
  assert.deepEqual(Object.keys(validateForm(form)).sort(), [
    "available_languages",
    "default_language",
    "name",
    "warning_thresholds.overcurrent_pct",
  ]);
});

Deno.test("isDirty() notices a change and serverFieldErrors() reads params.issues", () => {
  const saved = formFromSettings(settings);
  const form = formFromSettings(settings);
  assert.equal(isDirty(form, saved), false);
  form.text.city = "Bern";
  assert.equal(isDirty(form, saved), true);
  assert.deepEqual(
    serverFieldErrors({
      key: "common.validation",
      params: { issues: [{ path: "city", key: "settings.tooLong", params: { count: 250 } }] },
    }),
    { city: { key: "settings.tooLong", params: { count: 250 } } },
  );
  assert.deepEqual(
    serverFieldErrors({ key: "settings.applicationsSuperAdminOnly", params: {} }),
    {},
  );
  assert.deepEqual(serverFieldErrors(null), {});
});
