import assert from "node:assert/strict";
import { escapeHtml, interpolate, LANGUAGES, pickLanguage, renderLogin } from "./login_page.ts";

const PAGE = {
  action: "/oidc/interaction/abc/login",
  pageUrl: "/oidc/interaction/abc",
  appName: "GridWatch",
};

Deno.test("escapeHtml() escapes every HTML-significant character", () => {
  assert.equal(escapeHtml(`<script>"'&`), "&#60;script&#62;&#34;&#39;&#38;");
  assert.equal(escapeHtml("Feeder 12"), "Feeder 12");
});

Deno.test("pickLanguage() prefers the explicit choice over ui_locales and Accept-Language", () => {
  assert.equal(pickLanguage("uk", "fr-CH de", "de-DE,de;q=0.9"), "uk");
});

Deno.test("pickLanguage() takes the first known language of ui_locales", () => {
  assert.equal(pickLanguage(null, "fr-CH de", "de-DE,de;q=0.9"), "fr");
  assert.equal(pickLanguage(undefined, "it-CH de", undefined), "de");
});

Deno.test("pickLanguage() falls back to Accept-Language", () => {
  assert.equal(pickLanguage(null, undefined, "de-DE,de;q=0.9"), "de");
  assert.equal(pickLanguage("", "", "FR_ch"), "fr");
});

Deno.test("pickLanguage() answers en for unknown or absent languages", () => {
  assert.equal(pickLanguage(), "en");
  assert.equal(pickLanguage("xx", "it-CH", "es-ES,es;q=0.9,*;q=0.1"), "en");
});

Deno.test("pickLanguage() ignores names of Object.prototype members such as ?lang=constructor", () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    const lang = pickLanguage(name);
    assert.equal(lang, "en", name);
    // The login page must still render, not crash with a 500.
    assert.match(renderLogin({ ...PAGE, lang }), /<html lang="en">/);
  }
});

Deno.test("renderLogin() escapes an attacker-controlled e-mail value", () => {
  const email = `"><script>alert(document.cookie)</script><input value="`;
  const html = renderLogin({ ...PAGE, lang: "en", email, error: "invalidCredentials" });
  assert.doesNotMatch(html, /<script>alert/);
  assert.ok(html.includes(`value="${escapeHtml(email)}"`));
});

Deno.test("renderLogin() shows the error text in the chosen language", () => {
  const html = renderLogin({ ...PAGE, lang: "fr", error: "invalidCredentials" });
  assert.match(html, /<html lang="fr">/);
  assert.ok(
    html.includes(
      `<p class="error" role="alert">${escapeHtml(LANGUAGES.fr.invalidCredentials)}</p>`,
    ),
  );
  assert.ok(!html.includes(escapeHtml(LANGUAGES.en.invalidCredentials)));
  assert.ok(html.includes(escapeHtml(LANGUAGES.fr.submit)));
});

Deno.test("renderLogin() shows no error box without an error", () => {
  const html = renderLogin({ ...PAGE, lang: "de" });
  assert.doesNotMatch(html, /role="alert"/);
  assert.ok(html.includes(escapeHtml(LANGUAGES.de.title)));
});

Deno.test("renderLogin() marks the current language in the language switcher", () => {
  const html = renderLogin({ ...PAGE, lang: "de" });
  assert.match(html, /href="\/oidc\/interaction\/abc\?lang=de" lang="de" aria-current="true"/);
  assert.doesNotMatch(html, /lang="fr" aria-current/);
});

Deno.test("renderLogin() shows the lockout text with its minutes in every language", () => {
  for (const lang of Object.keys(LANGUAGES) as (keyof typeof LANGUAGES)[]) {
    const html = renderLogin({
      ...PAGE,
      lang,
      error: "accountLocked",
      errorParams: { minutes: 15 },
    });
    const expected = interpolate(LANGUAGES[lang].accountLocked, { minutes: 15 });
    assert.ok(expected.includes("15"), lang);
    assert.ok(html.includes(`role="alert">${escapeHtml(expected)}</p>`), lang);
    assert.doesNotMatch(html, /\{minutes\}/);
  }
});

Deno.test("interpolate() fills known placeholders and leaves unknown ones", () => {
  assert.equal(interpolate("Wait {seconds} s ({x})", { seconds: 4 }), "Wait 4 s ({x})");
  assert.equal(interpolate("{constructor}", {}), "{constructor}");
});

Deno.test("every login page language has the throttling texts with their placeholders", () => {
  for (const [lang, texts] of Object.entries(LANGUAGES)) {
    assert.match(texts.tooManyAttempts, /\{seconds\}/, lang);
    assert.match(texts.accountLocked, /\{minutes\}/, lang);
    assert.match(texts.addressLocked, /\{minutes\}/, lang);
  }
});
