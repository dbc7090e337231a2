import assert from "node:assert/strict";
import { fieldIssues } from "../../kernel/mod.ts";
import {
  checkTileUrl,
  isCountry,
  isTimeZone,
  settingsInput,
  thresholdsInput,
  tileUrlFor,
} from "./settings_rules.ts";
import type { z } from "zod";

/** The value of a valid body, the field errors of an invalid one. */
function read<S extends z.ZodType>(schema: S, body: unknown) {
  const result = schema.safeParse(body);
  return result.success ? { value: result.data as z.output<S>, issues: [] } : {
    value: undefined as unknown as z.output<S>,
    issues: fieldIssues(result.error.issues, body),
  };
}
const readSettings = (body: unknown) => read(settingsInput, body);
const readThresholds = (body: unknown) => read(thresholdsInput, body);

/** A body that breaks no rule. */
function validSettings(): Record<string, unknown> {
  return {
    name: "EW Demo AG",
    street: "Werkstrasse 1",
    postcode: "6003",
    city: "Luzern",
    country: "CH",
    technical_contact: {
      name: "Tina Technik",
      email: "tech@demo-ew.ch",
      phone: "+41 41 123 45 67",
    },
    default_date_format: "DD.MM.YYYY",
    default_time_format: "HH:mm",
    default_number_format: "1'234.56",
    default_timezone: "Europe/Zurich",
    default_language: "de",
    available_languages: ["de", "fr"],
    authorized_email_domains: ["demo-ew.ch"],
    default_frequency: 50,
    default_lv_nominal_voltage: "230/400",
    default_mv_nominal_voltage: 16000,
    map_center: { lat: 47.05, lng: 8.31 },
    default_map_zoom_level: 12,
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  };
}

const keysOf = (body: Record<string, unknown>) =>
  readSettings(body).issues.map((i) => `${i.path}:${i.key}`).sort();

Deno.test("settingsInput accepts a complete valid body and normalises it", () => {
  const { value, issues } = readSettings({
    ...validSettings(),
    name: "  EW Demo AG ",
    country: "ch",
    authorized_email_domains: ["Demo-EW.ch", "demo-ew.ch"],
  });
  assert.deepEqual(issues, []);
  assert.equal(value.name, "EW Demo AG");
  assert.equal(value.country, "CH");
  assert.deepEqual(value.authorized_email_domains, ["demo-ew.ch"]);
  assert.equal(value.applications, undefined);
});

Deno.test("settingsInput refuses texts over 250 characters and a missing name", () => {
  assert.deepEqual(keysOf({ ...validSettings(), city: "x".repeat(251) }), [
    "city:settings.tooLong",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), city: "x".repeat(250) }), []);
  assert.deepEqual(keysOf({ ...validSettings(), name: "  " }), ["name:settings.required"]);
});

Deno.test("settingsInput applies the language rules of spec 5", () => {
  assert.deepEqual(keysOf({ ...validSettings(), available_languages: [] }), [
    "available_languages:settings.languageRequired",
    "default_language:settings.defaultLanguageNotAvailable",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_language: "" }), [
    "default_language:settings.defaultLanguageRequired",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_language: "en" }), [
    "default_language:settings.defaultLanguageNotAvailable",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), available_languages: ["de", "it"] }), [
    "available_languages:settings.invalidChoice",
  ]);
});

Deno.test("settingsInput allows only the LV pairs of spec 9 and 50 or 60 Hz", () => {
  assert.deepEqual(keysOf({ ...validSettings(), default_lv_nominal_voltage: "230/415" }), [
    "default_lv_nominal_voltage:settings.invalidChoice",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_lv_nominal_voltage: "277/480" }), []);
  assert.deepEqual(keysOf({ ...validSettings(), default_frequency: 55 }), [
    "default_frequency:settings.invalidChoice",
  ]);
});

Deno.test("settingsInput checks ranges, integers and 2 decimals", () => {
  assert.deepEqual(keysOf({ ...validSettings(), default_map_zoom_level: 4 }), [
    "default_map_zoom_level:settings.outOfRange",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_map_zoom_level: 12.5 }), [
    "default_map_zoom_level:settings.integer",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_mv_nominal_voltage: null }), []);
  assert.deepEqual(keysOf({ ...validSettings(), default_mv_nominal_voltage: 400 }), [
    "default_mv_nominal_voltage:settings.outOfRange",
  ]);
  assert.deepEqual(
    keysOf({ ...validSettings(), map_center: { lat: 46.812355, lng: 8.263672 } }),
    [],
  );
  assert.deepEqual(keysOf({ ...validSettings(), map_center: { lat: 46.8123551, lng: 8 } }), [
    "map_center.lat:settings.decimals",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), map_center: { lat: 91, lng: "8" } }), [
    "map_center.lat:settings.outOfRange",
    "map_center.lng:settings.number",
  ]);
});

Deno.test("settingsInput validates time zone, country, formats, e-mail, phone and domains", () => {
  assert.deepEqual(keysOf({ ...validSettings(), default_timezone: "Europe/Lucerne" }), [
    "default_timezone:settings.invalidTimezone",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), country: "EU" }), [
    "country:settings.invalidCountry",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), default_date_format: "D/M/YY" }), [
    "default_date_format:settings.invalidChoice",
  ]);
  const contact = { name: null, email: "no-mail", phone: "12" };
  assert.deepEqual(keysOf({ ...validSettings(), technical_contact: contact }), [
    "technical_contact.email:settings.invalidEmail",
    "technical_contact.phone:settings.invalidPhone",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), authorized_email_domains: ["demo ew.ch"] }), [
    "authorized_email_domains:settings.invalidDomain",
  ]);
  assert.deepEqual(keysOf({ ...validSettings(), authorized_email_domains: [] }), [
    "authorized_email_domains:settings.domainRequired",
  ]);
});

Deno.test("settingsInput keeps the default app keys in the applications", () => {
  assert.deepEqual(keysOf({ ...validSettings(), applications: ["app:grid-monitoring"] }), [
    "applications:settings.defaultApplicationsRequired",
  ]);
  assert.deepEqual(
    keysOf({ ...validSettings(), applications: ["app:grid-metering", "hes:data-export", "x"] }),
    ["applications:settings.invalidChoice"],
  );
});

Deno.test("thresholdsInput refuses thresholds outside their ranges", () => {
  const { issues } = readThresholds({
    warning_thresholds: { overvoltage_pct: 25, undervoltage_pct: 10.555, overcurrent_pct: 40 },
  });
  assert.deepEqual(issues.map((i) => [i.path, i.key, i.params]), [
    ["warning_thresholds.overvoltage_pct", "settings.outOfRange", { min: 1, max: 20 }],
    ["warning_thresholds.undervoltage_pct", "settings.decimals", { count: 2 }],
    ["warning_thresholds.overcurrent_pct", "settings.outOfRange", { min: 50, max: 200 }],
  ]);
});

Deno.test("isCountry() and isTimeZone() accept real codes only", () => {
  assert.equal(isCountry("CH"), true);
  assert.equal(isCountry("UA"), true);
  assert.equal(isCountry("XX"), false);
  for (const code of ["XA", "XB", "DD", "YU", "SU", "EU", "ch"]) {
    assert.equal(isCountry(code), false);
  }
  assert.equal(isTimeZone("Europe/Kyiv") || isTimeZone("Europe/Kiev"), true);
  assert.equal(isTimeZone("UTC"), true);
  assert.equal(isTimeZone("Mars/Olympus"), false);
});

Deno.test("a body that is not an object is a validation error, never a crash", () => {
  for (const body of [null, [], "text", 42]) {
    const result = settingsInput.safeParse(body);
    assert.equal(result.success, false, JSON.stringify(body));
  }
});

Deno.test("checkTileUrl() accepts https URL templates with {z}, {x} and {y} only", () => {
  assert.equal(checkTileUrl("https://tile.openstreetmap.org/{z}/{x}/{y}.png"), null);
  assert.equal(checkTileUrl("https://maps.example.ch/wmts/{z}/{y}/{x}.jpeg?key=abc"), null);
  for (
    const bad of [
      "http://tile.example.org/{z}/{x}/{y}.png", // not https
      "https://tile.example.org/{z}/{x}.png", // no {y}
      "https://{s}.tile.example.org/{z}/{x}/{y}.png", // other placeholders
      "https://tile.example.org/{z}/{x}/{y}.png x", // a space
      "https://user:pw@tile.example.org/{z}/{x}/{y}.png", // credentials
      "ftp://tile.example.org/{z}/{x}/{y}",
      "javascript:alert(1)//{z}/{x}/{y}",
      "{z}/{x}/{y}",
    ]
  ) assert.equal(checkTileUrl(bad), "settings.invalidTileUrl", bad);
  assert.equal(
    checkTileUrl(`https://t.example.org/{z}/{x}/{y}?${"a".repeat(2000)}`),
    "settings.tooLong",
  );
});

Deno.test("tileUrlFor() fills a template within the tile pyramid only", () => {
  const t = "https://t.example.org/{z}/{x}/{y}.png";
  assert.equal(tileUrlFor(t, 12, 2140, 1436), "https://t.example.org/12/2140/1436.png");
  assert.equal(tileUrlFor(t, 0, 0, 0), "https://t.example.org/0/0/0.png");
  assert.equal(tileUrlFor(t, 1, 2, 0), null);
  assert.equal(tileUrlFor(t, 25, 0, 0), null);
  assert.equal(tileUrlFor(t, 3, -1, 0), null);
  assert.equal(tileUrlFor(t, Number.NaN, 0, 0), null);
  assert.equal(tileUrlFor(t, 2.5, 0, 0), null);
});

Deno.test("settingsInput: the online basemap is off by default, unchanged when absent, checked when set", () => {
  assert.equal(readSettings(validSettings()).value.map_tiles, undefined);
  assert.equal(readSettings({ ...validSettings(), map_tiles: null }).value.map_tiles, null);
  assert.equal(
    readSettings({ ...validSettings(), map_tiles: { url: " ", attribution: "" } }).value.map_tiles,
    null,
  );
  const tiles = { url: " https://t.example.org/{z}/{x}/{y}.png ", attribution: "© Example " };
  assert.deepEqual(readSettings({ ...validSettings(), map_tiles: tiles }).value.map_tiles, {
    url: "https://t.example.org/{z}/{x}/{y}.png",
    attribution: "© Example",
  });
  assert.deepEqual(
    keysOf({ ...validSettings(), map_tiles: { url: "http://t.example.org/{z}/{x}/{y}" } }),
    ["map_tiles.attribution:settings.required", "map_tiles.url:settings.invalidTileUrl"],
  );
  assert.deepEqual(keysOf({ ...validSettings(), map_tiles: "x" }), [
    "map_tiles:settings.invalidValue",
  ]);
});
