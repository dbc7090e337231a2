/**
 * The rules of the global settings (spec 2.8, 3, 5, 9) as zod schemas: every rule answers a
 * message key (`settings.*`) on the field it concerns, so the web form shows the translated
 * text next to the field. The route validates the PUT bodies with `settingsInput` and
 * `thresholdsInput`; the web form uses the same limits and lists
 * (web/src/lib/settings-rules.ts). Pure: imports only zod and libphonenumber-js.
 */
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "zod";
import { isCountry, isTimeZone } from "./countries.ts";

/** Customer manager form fields: at most 250 characters (spec 5). */
export const MAX_TEXT = 250;
export const LANGUAGES = ["en", "fr", "de", "uk"] as const;
export const DATE_FORMATS = [
  "DD.MM.YYYY",
  "DD/MM/YYYY",
  "MM/DD/YYYY",
  "YYYY-MM-DD",
  "MMM DD, YYYY",
] as const;
export const TIME_FORMATS = ["HH:mm", "HH:mm:ss", "hh:mm A", "hh:mm:ss A"] as const;
export const NUMBER_FORMATS = [
  "1'234.56",
  "1,234.56",
  "1.234,56",
  "1 234,56",
  "1234.56",
] as const;
/** Nominal LV voltage pairs phase/line of spec 9. */
export const LV_NOMINAL_VOLTAGES = [
  "277/480",
  "250/433",
  "240/415",
  "230/400",
  "220/380",
  "130/225",
  "120/210",
  "115/200",
  "110/190",
  "100/175",
] as const;
export const FREQUENCIES = [50, 60] as const;
/** Applications a customer can be given; the first two are the default app keys of spec 6. */
export const APPLICATIONS = [
  "app:grid-metering",
  "hes:data-export",
  "app:grid-monitoring",
  "app:visual-statistics",
  "app:power-quality",
  "app:io-monitoring",
  "hes:infrastructure-setup",
  "hes:io-configuration",
  "hes:scada-connector",
] as const;
export const DEFAULT_APPLICATIONS = ["app:grid-metering", "hes:data-export"] as const;
/**
 * Numeric ranges (inclusive) and decimals: 2 as the spec's numeric ranges, 6 for coordinates
 * (about 0.1 m); docs/decisions.md explains the choices.
 */
export const RANGES = {
  default_mv_nominal_voltage: { min: 1000, max: 52000, decimals: 2 },
  default_map_zoom_level: { min: 5, max: 24, decimals: 0 },
  "map_center.lat": { min: -90, max: 90, decimals: 6 },
  "map_center.lng": { min: -180, max: 180, decimals: 6 },
  "warning_thresholds.overvoltage_pct": { min: 1, max: 20, decimals: 2 },
  "warning_thresholds.undervoltage_pct": { min: 1, max: 20, decimals: 2 },
  "warning_thresholds.overcurrent_pct": { min: 50, max: 200, decimals: 2 },
} as const;
export const MAX_DOMAINS = 20;

const EMAIL = /^[^\s@]{1,64}@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export { COUNTRY_CODES, isCountry, isTimeZone } from "./countries.ts";
/** The longest tile URL template accepted. */
export const MAX_TILE_URL = 2000;
/** The placeholders of `settings.invalidTileUrl` (braces cannot stand in a message text). */
export const TILE_URL_PARAMS = {
  placeholders: "{z}/{x}/{y}",
  example: "https://tiles.example.org/{z}/{x}/{y}.png",
};

/**
 * Checks an online basemap's tile URL template: an https URL of at most 2000 characters with
 * each of {z}, {x} and {y} (maplibre's raster tile placeholders), no other braces, no spaces
 * and no credentials. Answers an error key or null (the web form runs the same check).
 */
export function checkTileUrl(url: string): "settings.invalidTileUrl" | "settings.tooLong" | null {
  if (url.length > MAX_TILE_URL) return "settings.tooLong";
  if (!["{z}", "{x}", "{y}"].every((p) => url.includes(p))) return "settings.invalidTileUrl";
  const rest = url.replaceAll(/\{[zxy]\}/g, "");
  if (/[{}\s]/.test(rest)) return "settings.invalidTileUrl";
  try {
    const parsed = new URL(
      url.replaceAll("{z}", "0").replaceAll("{x}", "0").replaceAll("{y}", "0"),
    );
    if (parsed.protocol !== "https:" || !parsed.hostname || parsed.username || parsed.password) {
      return "settings.invalidTileUrl";
    }
  } catch {
    return "settings.invalidTileUrl";
  }
  return null;
}

/**
 * The URL of one tile of a template, or null for coordinates outside the tile pyramid (zoom 0 to
 * 24, x and y from 0 to 2^z - 1).
 */
export function tileUrlFor(template: string, z: number, x: number, y: number): string | null {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!whole(z) || z > 24 || !whole(x) || !whole(y) || x >= 2 ** z || y >= 2 ** z) return null;
  return template.replaceAll("{z}", String(z)).replaceAll("{x}", String(x))
    .replaceAll("{y}", String(y));
}

/** The online basemap: a tile URL template and its attribution; empty URL or null: none. */
const mapTiles = z.object({
  url: z.string({ error: "settings.invalidValue" }).nullish(),
  attribution: z.string({ error: "settings.invalidValue" }).nullish(),
}, { error: "settings.invalidValue" }).nullable().transform((raw, ctx) => {
  const url = (raw?.url ?? "").trim();
  const attribution = (raw?.attribution ?? "").trim();
  if (!url) return null;
  const urlError = checkTileUrl(url);
  if (urlError) {
    fail(
      ctx,
      urlError,
      urlError === "settings.tooLong" ? { count: MAX_TILE_URL } : TILE_URL_PARAMS,
      [
        "url",
      ],
    );
  }
  if (!attribution) fail(ctx, "settings.required", undefined, ["attribution"]);
  else if (attribution.length > MAX_TEXT) {
    fail(ctx, "settings.tooLong", { count: MAX_TEXT }, ["attribution"]);
  }
  return { url, attribution };
});

const missing = (input: unknown) => input === undefined || input === null || input === "";
type Ctx = z.RefinementCtx;
const fail = (ctx: Ctx, message: string, params?: Record<string, unknown>, path?: string[]) =>
  ctx.addIssue({
    code: "custom",
    message,
    ...(params ? { params } : {}),
    ...(path ? { path } : {}),
  });

/** A trimmed text of at most 250 characters; empty is null (`settings.required` if needed). */
function text(required: boolean) {
  return z.string({ error: "settings.invalidValue" }).nullish()
    .transform((raw, ctx) => {
      const value = (raw ?? "").trim();
      if (!value && required) fail(ctx, "settings.required");
      if (value.length > MAX_TEXT) fail(ctx, "settings.tooLong", { count: MAX_TEXT });
      return value || null;
    });
}
const requiredText = text(true).transform((value) => value ?? "");
const optionalText = text(false);

/** One of a list; missing is `settings.required`, anything else `settings.invalidChoice`. */
function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => missing(issue.input) ? "settings.required" : "settings.invalidChoice",
  });
}

/** A number of its range with its decimals (`settings.number`, `.integer`, `.decimals`, ...). */
function ranged(field: keyof typeof RANGES, integer = false) {
  const { min, max, decimals } = RANGES[field];
  return z.number({
    error: (issue) => missing(issue.input) ? "settings.required" : "settings.number",
  }).superRefine((value, ctx) => {
    if (integer && !Number.isInteger(value)) fail(ctx, "settings.integer");
    else if (Number(value.toFixed(decimals)) !== value) {
      fail(ctx, "settings.decimals", { count: decimals });
    }
    if (value < min || value > max) fail(ctx, "settings.outOfRange", { min, max });
  });
}

/** A list of trimmed texts, without repeats. */
const texts = z.array(z.string(), { error: "settings.invalidValue" })
  .transform((list) => [...new Set(list.map((v) => v.trim()))]);

/** The warning thresholds in percent of nominal (also the grid monitoring settings call). */
export const warningThresholds = z.object({
  overvoltage_pct: ranged("warning_thresholds.overvoltage_pct"),
  undervoltage_pct: ranged("warning_thresholds.undervoltage_pct"),
  overcurrent_pct: ranged("warning_thresholds.overcurrent_pct"),
}, { error: "settings.required" });
export type WarningThresholds = z.output<typeof warningThresholds>;

/** `PUT /csm/customers/{cid}/grid-monitoring-settings`. */
export const thresholdsInput = z.object({ warning_thresholds: warningThresholds })
  .meta({ id: "ThresholdsInput" });
export type ThresholdsInput = z.output<typeof thresholdsInput>;

/** A text field with one more rule on its non-empty value. */
function checked<T extends string | null>(
  base: z.ZodType<T>,
  ok: (value: string) => boolean,
  key: string,
) {
  return base.superRefine((value, ctx) => {
    if (value && !ok(value)) fail(ctx, key);
  });
}

const languages = texts.superRefine((list, ctx) => {
  if (list.some((l) => !(LANGUAGES as readonly string[]).includes(l))) {
    fail(ctx, "settings.invalidChoice");
  } else if (!list.length) fail(ctx, "settings.languageRequired");
});

const domains = texts.transform((list, ctx) => {
  const unique = [...new Set(list.map((d) => d.toLowerCase()).filter(Boolean))];
  const bad = unique.find((d) => !DOMAIN.test(d));
  if (bad) fail(ctx, "settings.invalidDomain", { domain: bad });
  else if (!unique.length) fail(ctx, "settings.domainRequired");
  else if (unique.length > MAX_DOMAINS) {
    fail(ctx, "settings.tooManyDomains", { count: MAX_DOMAINS });
  }
  return unique;
});

const applications = texts.superRefine((list, ctx) => {
  if (list.some((a) => !(APPLICATIONS as readonly string[]).includes(a))) {
    fail(ctx, "settings.invalidChoice");
  } else if (!DEFAULT_APPLICATIONS.every((a) => list.includes(a))) {
    fail(ctx, "settings.defaultApplicationsRequired");
  }
});

/** Whether a parse has no issue yet on the fields a cross-field rule reads. */
const clean =
  (...fields: string[]) => (payload: { value: unknown; issues: readonly z.core.$ZodRawIssue[] }) =>
    typeof payload.value === "object" && payload.value !== null &&
    !payload.issues.some((i) => !i.path?.length || fields.includes(i.path.join(".")));

/** `PUT /csm/customers/{cid}/settings`: the editable settings, checked by every rule. */
export const settingsInput = z.object({
  name: requiredText,
  street: optionalText,
  postcode: optionalText,
  city: optionalText,
  country: checked(requiredText, (c) => isCountry(c.toUpperCase()), "settings.invalidCountry")
    .transform((code) => code.toUpperCase()),
  technical_contact: z.object({
    name: optionalText,
    email: checked(optionalText, (e) => EMAIL.test(e), "settings.invalidEmail")
      .transform((email) => email?.toLowerCase() ?? null),
    phone: optionalText,
  }, { error: "settings.invalidValue" }).nullish()
    .transform((contact) => contact ?? { name: null, email: null, phone: null }),
  default_date_format: choice(DATE_FORMATS),
  default_time_format: choice(TIME_FORMATS),
  default_number_format: choice(NUMBER_FORMATS),
  default_timezone: checked(requiredText, isTimeZone, "settings.invalidTimezone"),
  default_language: z.string({ error: "settings.defaultLanguageRequired" })
    .min(1, "settings.defaultLanguageRequired"),
  available_languages: languages,
  authorized_email_domains: domains,
  default_frequency: z.literal(FREQUENCIES, {
    error: (issue) => missing(issue.input) ? "settings.required" : "settings.invalidChoice",
  }),
  default_lv_nominal_voltage: choice(LV_NOMINAL_VOLTAGES),
  default_mv_nominal_voltage: ranged("default_mv_nominal_voltage").nullish()
    .transform((v) => v ?? null),
  map_center: z.object({ lat: ranged("map_center.lat"), lng: ranged("map_center.lng") }, {
    error: "settings.required",
  }),
  default_map_zoom_level: ranged("default_map_zoom_level", true),
  warning_thresholds: warningThresholds,
  /** Only super-admins change it; absent means unchanged. */
  applications: applications.optional(),
  /** The online basemap; absent means unchanged, null or an empty URL switches it off. */
  map_tiles: mapTiles.optional(),
}).superRefine((v, ctx) => {
  // Rules across fields; each runs when the fields it reads are valid on their own.
  const phone = v.technical_contact?.phone;
  const country = isCountry(String(v.country ?? "")) ? v.country : undefined;
  if (phone && !isValidPhoneNumber(phone, country as never)) {
    fail(ctx, "settings.invalidPhone", undefined, ["technical_contact", "phone"]);
  }
}, { when: clean("technical_contact", "technical_contact.phone") }).superRefine((v, ctx) => {
  if (v.default_language && !(v.available_languages ?? []).includes(v.default_language)) {
    fail(ctx, "settings.defaultLanguageNotAvailable", undefined, ["default_language"]);
  }
}, { when: clean("default_language") }).meta({ id: "SettingsInput" });
export type SettingsInput = z.output<typeof settingsInput>;
