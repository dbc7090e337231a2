import assert from "node:assert/strict";
import { helpLanguage, resolveLanguage, toUiLanguage } from "./language.ts";

Deno.test("resolveLanguage() takes the first candidate that is a UI language", () => {
  assert.equal(resolveLanguage(["de", "fr"]), "de");
  assert.equal(resolveLanguage([null, "it", "fr-CH"]), "fr");
});

Deno.test("resolveLanguage() falls back to en", () => {
  assert.equal(resolveLanguage([undefined, "", "it"]), "en");
  assert.equal(resolveLanguage([]), "en");
});

Deno.test("toUiLanguage() normalises region tags and case", () => {
  assert.equal(toUiLanguage("UK"), "uk");
  assert.equal(toUiLanguage("de_CH"), "de");
  assert.equal(toUiLanguage("es"), null);
});

Deno.test("helpLanguage() opens the book of the user's language, English for any other", () => {
  assert.equal(helpLanguage("fr"), "fr");
  assert.equal(helpLanguage("de-CH"), "de");
  assert.equal(helpLanguage("uk"), "uk");
  assert.equal(helpLanguage("it"), "en");
});
