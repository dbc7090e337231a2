/**
 * Server-rendered pages of the embedded identity provider (login, logout, error) in the
 * product's look and the user's language. Every interpolated value is HTML-escaped.
 */
import de from "./i18n/de.json" with { type: "json" };
import en from "./i18n/en.json" with { type: "json" };
import fr from "./i18n/fr.json" with { type: "json" };
import uk from "./i18n/uk.json" with { type: "json" };

export type LoginTexts = typeof en;
export const LANGUAGES = { en, fr, de, uk } as const satisfies Record<string, LoginTexts>;
export type Language = keyof typeof LANGUAGES;
const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  fr: "Français",
  de: "Deutsch",
  uk: "Українська",
};

/** Picks the page language: explicit choice, then ui_locales, then Accept-Language, then en. */
export function pickLanguage(...candidates: (string | undefined | null)[]): Language {
  for (const candidate of candidates) {
    for (const part of (candidate ?? "").split(/[\s,]+/)) {
      const code = part.split(/[-_;]/)[0]?.toLowerCase();
      // Own keys only: `in` would also accept Object.prototype names such as "constructor".
      if (code && Object.hasOwn(LANGUAGES, code)) return code as Language;
    }
  }
  return "en";
}

/** Replaces `{name}` placeholders with their values; unknown names stay as they are. */
export function interpolate(text: string, params: Readonly<Record<string, string | number>>) {
  return text.replace(
    /\{(\w+)\}/g,
    (whole, name: string) => Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f6f8;--card:#fff;--fg:#14202b;--muted:#5b6b7a;--accent:#0b6bcb;--accent-fg:#fff;--border:#d5dde5;--danger:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#0f161d;--card:#17212b;--fg:#e6edf3;--muted:#9fb0c0;--accent:#4aa3ff;--accent-fg:#06121f;--border:#2a3947;--danger:#ff8a80}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif}
main{width:min(400px,92vw);background:var(--card);border:1px solid var(--border);border-radius:12px;padding:32px;box-shadow:0 8px 30px rgba(0,0,0,.08)}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;font-size:18px}.brand svg{color:var(--accent)}
h1{font-size:22px;margin:20px 0 4px}p.sub{margin:0 0 20px;color:var(--muted)}
label{display:block;font-weight:600;margin:14px 0 6px}input{width:100%;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:transparent;color:inherit;font:inherit}
input:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
button{margin-top:22px;width:100%;padding:11px;border:0;border-radius:8px;background:var(--accent);color:var(--accent-fg);font:inherit;font-weight:600;cursor:pointer}
.error{margin:16px 0 0;padding:10px 12px;border-radius:8px;border:1px solid var(--danger);color:var(--danger)}
nav{margin-top:22px;display:flex;gap:12px;flex-wrap:wrap;font-size:13px}nav a{color:var(--muted)}nav a[aria-current]{color:var(--fg);font-weight:600}
`;

const LOGO =
  `<svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M13 2 3 14h9l-1 8 10-12h-9l1-8z"/></svg>`;

function page(lang: Language, title: string, body: string, appName: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${
    escapeHtml(title)
  } · ${
    escapeHtml(appName)
  }</title><style>${STYLE}</style></head><body><main><div class="brand">${LOGO}<span>${
    escapeHtml(appName)
  }</span></div>${body}</main></body></html>`;
}

/** The login form of an interaction. */
export function renderLogin(opts: {
  lang: Language;
  action: string;
  pageUrl: string;
  appName: string;
  email?: string;
  error?: keyof LoginTexts;
  /** Values of the error text's `{name}` placeholders (e.g. the minutes of a lockout). */
  errorParams?: Record<string, string | number>;
}): string {
  const t = LANGUAGES[opts.lang];
  const error = opts.error
    ? `<p class="error" role="alert">${
      escapeHtml(interpolate(t[opts.error], opts.errorParams ?? {}))
    }</p>`
    : "";
  const languages = (Object.keys(LANGUAGES) as Language[]).map((code) => {
    const current = code === opts.lang ? ' aria-current="true"' : "";
    return `<a href="${escapeHtml(`${opts.pageUrl}?lang=${code}`)}" lang="${code}"${current}>${
      LANGUAGE_NAMES[code]
    }</a>`;
  }).join("");
  const body = `<h1>${escapeHtml(t.title)}</h1><p class="sub">${escapeHtml(t.subtitle)}</p>
<form method="post" action="${escapeHtml(opts.action)}" autocomplete="on">
<input type="hidden" name="lang" value="${opts.lang}">
<label for="email">${escapeHtml(t.email)}</label>
<input id="email" name="email" type="email" required autocomplete="username" autofocus value="${
    escapeHtml(opts.email ?? "")
  }">
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
${error}<button type="submit">${escapeHtml(t.submit)}</button></form>
<nav aria-label="${escapeHtml(t.language)}">${languages}</nav>`;
  return page(opts.lang, t.title, body, opts.appName);
}

/** The logout confirmation, submitted at once by a nonce'd script (the button is the fallback). */
export function renderLogout(
  opts: { lang: Language; form: string; nonce: string; appName: string },
): string {
  const t = LANGUAGES[opts.lang];
  const form = opts.form.replace(
    "</form>",
    `<button type="submit" name="logout" value="yes">${escapeHtml(t.signOut)}</button></form>`,
  );
  const script =
    `<script nonce="${opts.nonce}">var f=document.forms[0];var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();</script>`;
  return page(
    opts.lang,
    t.signOut,
    `<h1>${escapeHtml(t.signingOut)}</h1>${form}${script}`,
    opts.appName,
  );
}

/** A plain message page (signed out, errors). */
export function renderMessage(
  opts: { lang: Language; text: keyof LoginTexts; appName: string; homeUrl: string },
): string {
  const t = LANGUAGES[opts.lang];
  return page(
    opts.lang,
    t[opts.text],
    `<h1>${escapeHtml(t[opts.text])}</h1><p><a href="${escapeHtml(opts.homeUrl)}">${
      escapeHtml(t.backToApp)
    }</a></p>`,
    opts.appName,
  );
}
