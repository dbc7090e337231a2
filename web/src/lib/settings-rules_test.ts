import assert from "node:assert/strict";
import {
  checkDomains,
  checkEmail,
  checkLanguages,
  checkLogoFile,
  checkNumber,
  checkPhone,
  checkText,
  checkThresholds,
  checkTiles,
  countries,
  parseDomains,
} from "./settings-rules.ts";

Deno.test("checkText() mirrors the 250-character limit and required fields", () => {
  assert.equal(checkText("x".repeat(250)), null);
  assert.deepEqual(checkText("x".repeat(251)), { key: "settings.tooLong", params: { count: 250 } });
  assert.deepEqual(checkText("  ", true), { key: "settings.required" });
  assert.equal(checkText(""), null);
});

Deno.test("checkNumber() mirrors ranges, integers and 2 decimals", () => {
  assert.equal(checkNumber("10", "warning_thresholds.overvoltage_pct"), null);
  assert.equal(checkNumber("12,5", "warning_thresholds.overvoltage_pct"), null);
  assert.deepEqual(checkNumber("25", "warning_thresholds.overvoltage_pct"), {
    key: "settings.outOfRange",
    params: { min: 1, max: 20 },
  });
  assert.deepEqual(
    checkNumber("1.234", "warning_thresholds.overvoltage_pct")?.key,
    "settings.decimals",
  );
  assert.deepEqual(checkNumber("abc", "map_center.lat")?.key, "settings.number");
  assert.deepEqual(
    checkNumber("12.5", "default_map_zoom_level", { integer: true })?.key,
    "settings.integer",
  );
  assert.equal(checkNumber("", "default_mv_nominal_voltage", { optional: true }), null);
  assert.deepEqual(checkNumber("", "default_map_zoom_level")?.key, "settings.required");
});

Deno.test("checkLanguages() needs one language and a default among them", () => {
  assert.deepEqual(checkLanguages([], ""), {
    available: { key: "settings.languageRequired" },
    default: { key: "settings.defaultLanguageRequired" },
  });
  assert.deepEqual(checkLanguages(["de"], "en").default, {
    key: "settings.defaultLanguageNotAvailable",
  });
  assert.deepEqual(checkLanguages(["de", "en"], "en"), { available: null, default: null });
});

Deno.test("parseDomains() and checkDomains() accept domain names only", () => {
  assert.deepEqual(parseDomains("Demo-EW.ch, demo-ew.ch\nsw-beispiel.ch"), [
    "demo-ew.ch",
    "sw-beispiel.ch",
  ]);
  assert.equal(checkDomains(["demo-ew.ch"]), null);
  assert.deepEqual(checkDomains([]), { key: "settings.domainRequired" });
  assert.deepEqual(checkDomains(["demo_ew"]), {
    key: "settings.invalidDomain",
    params: { domain: "demo_ew" },
  });
});

Deno.test("checkEmail() and checkPhone() accept empty or valid values", () => {
  assert.equal(checkEmail(""), null);
  assert.equal(checkEmail("tech@demo-ew.ch"), null);
  assert.deepEqual(checkEmail("tech@"), { key: "settings.invalidEmail" });
  assert.equal(checkPhone("041 123 45 67", "CH"), null);
  assert.deepEqual(checkPhone("12", "CH"), { key: "settings.invalidPhone" });
});

Deno.test("checkLogoFile() mirrors the JPEG/PNG and 3 MB rules", () => {
  assert.equal(checkLogoFile({ size: 1000, type: "image/png" }), null);
  assert.deepEqual(checkLogoFile({ size: 1000, type: "image/svg+xml" }), {
    key: "settings.logoNotImage",
  });
  assert.deepEqual(checkLogoFile({ size: 3 * 1024 * 1024 + 1, type: "image/jpeg" }), {
    key: "settings.logoTooLarge",
  });
});

Deno.test("checkThresholds() keys errors like the server's fields", () => {
  assert.deepEqual(
    Object.keys(
      checkThresholds({ overvoltage_pct: "0", undervoltage_pct: "10", overcurrent_pct: "" }),
    ),
    ["warning_thresholds.overvoltage_pct", "warning_thresholds.overcurrent_pct"],
  );
});

Deno.test("countries() lists the 249 current ISO 3166-1 countries, no pseudo or withdrawn code", () => {
  const list = countries("en");
  assert.equal(list.length, 249);
  assert.ok(list.some((c) => c.code === "CH" && c.name === "Switzerland"));
  assert.ok(list.some((c) => c.code === "SS"), "South Sudan (2011)");
  for (const gone of ["EU", "UN", "XA", "XB", "XK", "DD", "YU", "SU", "CS", "AN", "TP", "ZZ"]) {
    assert.ok(!list.some((c) => c.code === gone), gone);
  }
  const french = countries("fr");
  assert.ok(french.some((c) => c.code === "CH" && c.name === "Suisse"));
});

Deno.test("checkNumber() allows 6 decimals for map coordinates", () => {
  assert.equal(checkNumber("46.812355", "map_center.lat"), null);
  assert.deepEqual(checkNumber("46.8123551", "map_center.lat"), {
    key: "settings.decimals",
    params: { count: 6 },
  });
});

Deno.test("checkTiles() mirrors the server's online basemap rules on the form's fields", () => {
  assert.deepEqual(checkTiles("", ""), {});
  assert.deepEqual(checkTiles("https://t.example.org/{z}/{x}/{y}.png", "© Example"), {});
  assert.deepEqual(checkTiles("https://t.example.org/{z}/{x}.png", ""), {
    "map_tiles.url": {
      key: "settings.invalidTileUrl",
      params: { placeholders: "{z}/{x}/{y}", example: "https://tiles.example.org/{z}/{x}/{y}.png" },
    },
    "map_tiles.attribution": { key: "settings.required" },
  });
});
