import assert from "node:assert/strict";
import { ERROR_CATALOGUE, findByCode, findByKey } from "./error_catalogue.ts";
import en from "./i18n/en/errors.json" with { type: "json" };
import fr from "./i18n/fr/errors.json" with { type: "json" };
import de from "./i18n/de/errors.json" with { type: "json" };
import uk from "./i18n/uk/errors.json" with { type: "json" };

// Copied from spec section 8.2 on purpose: the test must not derive it from the catalogue itself.
// deno-fmt-ignore -- one line per area of the spec keeps the list comparable with 8.2 at a glance
const SPEC_CODES = [
  100, 101, 102, 103, 105, 108, 109, 110, 111, 114, 115,
  301, 303, 307, 308, 309, 310, 313, 322, 323, 330, 331, 333, 351, 356, 358,
  401, 402, 403, 410, 420,
  501, 502, 503, 505, 506, 508, 509, 510, 512, 513, 514, 515, 516, 517, 518, 520, 521, 522, 523,
  524, 526,
  601, 602, 603, 604, 609, 611,
] as const;

const LANGUAGES: Readonly<Record<string, Readonly<Record<string, string>>>> = { en, fr, de, uk };

// Statuses a client can act on; anything else in the table would be a typo.
const HTTP_ERROR_STATUSES = new Set([
  400,
  401,
  403,
  404,
  405,
  409,
  413,
  415,
  422,
  429,
  431,
  500,
  502,
  503,
  504,
]);

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] ?? "").sort();
}

Deno.test("ERROR_CATALOGUE holds every numeric code of spec 8.2", () => {
  const codes = new Set(ERROR_CATALOGUE.map((entry) => entry.code));
  const missing = SPEC_CODES.filter((code) => !codes.has(code));
  assert.deepEqual(missing, []);
});

Deno.test("ERROR_CATALOGUE holds no numeric code outside spec 8.2", () => {
  const spec = new Set<number>(SPEC_CODES);
  const extra = ERROR_CATALOGUE.flatMap((entry) =>
    entry.code !== undefined && !spec.has(entry.code) ? [entry.code] : []
  );
  assert.deepEqual(extra, []);
});

Deno.test("ERROR_CATALOGUE codes are unique", () => {
  const codes = ERROR_CATALOGUE.flatMap((entry) => entry.code === undefined ? [] : [entry.code]);
  assert.equal(new Set(codes).size, codes.length);
});

Deno.test("ERROR_CATALOGUE keys are unique and dotted camelCase", () => {
  const keys = ERROR_CATALOGUE.map((entry) => entry.key);
  assert.equal(new Set(keys).size, keys.length);
  for (const key of keys) {
    assert.match(key, /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/, key);
  }
});

Deno.test("ERROR_CATALOGUE statuses are valid HTTP error statuses", () => {
  for (const entry of ERROR_CATALOGUE) {
    assert.ok(HTTP_ERROR_STATUSES.has(entry.status), `${entry.key}: status ${entry.status}`);
  }
});

Deno.test("ERROR_CATALOGUE has the generic HTTP errors the API answers", () => {
  const expected: ReadonlyArray<readonly [string, number]> = [
    ["common.badRequest", 400],
    ["common.validation", 400],
    ["common.unauthorized", 401],
    ["common.forbidden", 403],
    ["common.notFound", 404],
    ["common.methodNotAllowed", 405],
    ["common.conflict", 409],
    ["common.payloadTooLarge", 413],
    ["common.unsupportedMediaType", 415],
    ["common.rateLimited", 429],
    ["common.headersTooLarge", 431],
    ["common.internal", 500],
    ["common.serviceUnavailable", 503],
    ["grid.elementNotFound", 404],
    ["grid.structureNotDefined", 404],
  ];
  for (const [key, status] of expected) {
    const entry = findByKey(key);
    assert.ok(entry, key);
    assert.equal(entry.status, status, key);
    assert.equal(entry.code, undefined, key);
  }
});

Deno.test("findByCode() returns the entry of a spec code and undefined for an unknown code", () => {
  assert.deepEqual(findByCode(401), { code: 401, key: "data.periodIncorrect", status: 400 });
  assert.equal(findByCode(301)?.key, "setup.cellDisconnected");
  assert.equal(findByCode(999), undefined);
});

Deno.test("findByKey() returns the entry of a key and undefined for an unknown key", () => {
  assert.equal(findByKey("users.weakPassword")?.code, 601);
  assert.equal(findByKey("pq.reportExists")?.status, 409);
  assert.equal(findByKey("messages.unableToLoadData"), undefined);
  assert.equal(findByKey("no.such.key"), undefined);
});

Deno.test("errors.json has a non-empty text for every catalogue key in every language", () => {
  for (const [language, texts] of Object.entries(LANGUAGES)) {
    for (const { key } of ERROR_CATALOGUE) {
      assert.ok(texts[key]?.trim(), `${language}: ${key}`);
    }
  }
});

Deno.test("errors.json holds the same keys with non-empty texts in every language", () => {
  const english = Object.keys(en).sort();
  for (const [language, texts] of Object.entries(LANGUAGES)) {
    assert.deepEqual(Object.keys(texts).sort(), english, language);
    for (const key of english) assert.ok(texts[key]?.trim(), `${language}: ${key}`);
  }
});

Deno.test("errors.json texts keep the same {{placeholders}} in every language", () => {
  const english: Readonly<Record<string, string>> = en;
  for (const [key, text] of Object.entries(english)) {
    const expected = placeholders(text);
    for (const [language, texts] of Object.entries(LANGUAGES)) {
      assert.deepEqual(placeholders(texts[key] ?? ""), expected, `${language}: ${key}`);
    }
  }
});

Deno.test("errors.json keys are never a prefix of another key", () => {
  // Lets the flat files be turned into nested i18next resources without a key losing its text.
  const keys = Object.keys(en);
  for (const key of keys) {
    const nested = keys.filter((other) => other.startsWith(`${key}.`));
    assert.deepEqual(nested, [], key);
  }
});

Deno.test("errors.json gives the spec wording of 8.1 and section 5 in English", () => {
  const english: Readonly<Record<string, string>> = en;
  assert.equal(english["messages.unableToLoadData"], "Unable to load data");
  assert.equal(english["messages.pageLoading"], "Page is loading, please wait ...");
  assert.equal(english["messages.unknownCode"], "Unknown message (code {{code}})");
  assert.equal(english["grid.elementNotFound"], "This element of the grid was not found!");
  assert.equal(english["validation.nameMax"], "Name can have maximum {{count}} characters.");
  assert.equal(english["validation.resolutionRange"], "Resolution value must be between -1 and 1");
  assert.equal(english["monitoring.requestLimit"], "Maximum {{limit}} requests reached.");
});
