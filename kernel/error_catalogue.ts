/**
 * The one error catalogue of the product: every numeric code of the specification (section 8.2)
 * and every generic HTTP error the API can answer, each with its HTTP status and message key.
 *
 * The API answers `{ code, key, params }` (see docs/contracts.md, "Errors"); the texts live in
 * `i18n/<lang>/errors.json` keyed by `key`, so the server never ships user-visible English and the
 * web can show a translated text with the code in small print. Keeping codes, statuses and keys
 * in a single table lets a test prove that no spec code is missing and that no key lacks a text.
 *
 * Status policy, so that clients can react without knowing every code:
 * - 400 for a malformed request, such as an unusable period;
 * - 404 when the thing the request is about does not exist (any more);
 * - 409 when the request clashes with current state: already exists, already running, in use;
 * - 422 when a well-formed request breaks a business rule;
 * - 429 when a counted limit of requests is reached;
 * - 502 / 504 when the cell (the field device upstream) fails or does not answer in time;
 * - 500 when the server itself fails to produce a result (report generation, computation).
 *
 * @module
 */

/** One row of the catalogue: an error the API can answer. */
export interface CatalogueEntry {
  /** Spec number (section 8.2); absent for generic HTTP errors that the spec does not number. */
  readonly code?: number;
  /** Dotted camelCase message key, grouped by area, e.g. `data.periodIncorrect`. */
  readonly key: string;
  /** HTTP status of the response. */
  readonly status: number;
}

/** Every error of the product. Params named in comments are the i18n placeholders of the text. */
export const ERROR_CATALOGUE: readonly CatalogueEntry[] = Object.freeze([
  // Generic HTTP errors, used by middleware and by modules whose failure has no spec number.
  { key: "common.badRequest", status: 400 },
  // params.issues carries the field issues; the text stays general so the form can show them.
  { key: "common.validation", status: 400 },
  { key: "common.unauthorized", status: 401 },
  { key: "common.forbidden", status: 403 },
  { key: "common.notFound", status: 404 },
  { key: "common.methodNotAllowed", status: 405 },
  { key: "common.conflict", status: 409 },
  { key: "common.payloadTooLarge", status: 413 },
  { key: "common.unsupportedMediaType", status: 415 },
  { key: "common.rateLimited", status: 429 },
  { key: "common.headersTooLarge", status: 431 },
  { key: "common.internal", status: 500 },
  { key: "common.serviceUnavailable", status: 503 },
  // The spec gives these grid texts (8.1) without a number, yet the API must be able to send them.
  { key: "grid.elementNotFound", status: 404 },
  { key: "grid.structureNotDefined", status: 404 },

  // Mapping (1xx)
  { code: 100, key: "mapping.unexpectedProblem", status: 500 },
  { code: 101, key: "mapping.listEmpty", status: 422 },
  { code: 102, key: "mapping.severalNodes", status: 422 },
  { code: 103, key: "mapping.duplicate", status: 409 },
  { code: 105, key: "mapping.neutralOnlyUnsupported", status: 422 },
  // The cell is still working; the same request succeeds later, hence a conflict, not a rule.
  { code: 108, key: "mapping.validationPending", status: 409 },
  { code: 109, key: "mapping.mustBeIgnored", status: 422 },
  { code: 110, key: "mapping.notFound", status: 404 },
  { code: 111, key: "mapping.threePhasesRequired", status: 422 },
  { code: 114, key: "mapping.sendFailed", status: 502 },
  { code: 115, key: "mapping.validationRequestFailed", status: 502 },

  // Setup and monitoring (3xx)
  { code: 301, key: "setup.cellDisconnected", status: 502 },
  { code: 303, key: "setup.transformerFeederBeforeMvLines", status: 409 },
  { code: 307, key: "setup.singleMvTransformer", status: 409 },
  { code: 308, key: "setup.mvEstimationNeedsMapping", status: 422 },
  { code: 309, key: "setup.mvTransformerRequired", status: 422 },
  { code: 310, key: "setup.cellNotLinked", status: 422 },
  { code: 313, key: "setup.mvLineExists", status: 409 },
  { code: 322, key: "monitoring.requestLimit", status: 429 }, // params: limit
  { code: 323, key: "monitoring.monthlyRequestLimit", status: 429 }, // params: limit
  { code: 330, key: "monitoring.triggerRunning", status: 409 },
  { code: 331, key: "monitoring.requestRunning", status: 409 },
  { code: 333, key: "monitoring.infiniteRequestRunning", status: 409 },
  { code: 351, key: "setup.noSectionedMvTopology", status: 404 },
  { code: 356, key: "setup.mvFeederInTopology", status: 409 },
  { code: 358, key: "setup.electricalWorkInTopology", status: 409 },
  // Grid setup rules of spec 5 without a number (texts shared with the web forms).
  { key: "validation.deleteStationHasMvFeeders", status: 409 },
  { key: "validation.deleteMvFeederHasLvGrids", status: 409 },
  { key: "validation.deleteLvGridHasNodes", status: 409 },
  { key: "validation.deleteLastFeeder", status: 409 },
  { key: "setup.maxFeeders", status: 422 }, // params: max
  { key: "validation.mapLayerFileType", status: 415 },
  { key: "validation.fileTooLarge", status: 413 }, // params: size
  { key: "messages.unableToLoadMapLayer", status: 422 },
  // Cells and I/O setup rules of spec 5 without a number.
  { key: "validation.incompatibleNodeType", status: 422 }, // params: type
  { key: "validation.ioConfigurationUnsupported", status: 422 },
  { key: "validation.moduleThresholdExceeded", status: 422 }, // params: type, limit
  { key: "validation.deleteModuleInUse", status: 409 },
  { key: "setup.cellWrongState", status: 409 }, // params: type
  { key: "setup.nodeHasCell", status: 409 }, // params: cell_id
  // Cell onboarding: a serial number is one device, registered once in the installation.
  { key: "setup.cellSerialExists", status: 409 }, // params: serial_number (import: line)

  // Data (4xx)
  { code: 401, key: "data.periodIncorrect", status: 400 },
  { code: 402, key: "data.periodTooLong", status: 400 },
  { code: 403, key: "data.periodTooShort", status: 400 },
  { code: 410, key: "data.noVoltageOrCurrent", status: 404 },
  { code: 420, key: "data.phasorThreePhaseMvOnly", status: 422 },

  // Power quality (5xx)
  { code: 501, key: "pq.reportExists", status: 409 },
  { code: 502, key: "pq.wrongReportStatus", status: 409 },
  { code: 503, key: "pq.wrongAutoAnalysisStatus", status: 409 },
  { code: 505, key: "pq.noNodeLinked", status: 422 },
  { code: 506, key: "pq.nodeDeleted", status: 404 },
  { code: 508, key: "pq.cellNotConfigured", status: 422 },
  { code: 509, key: "pq.startBeforeCellConfiguration", status: 422 },
  // Resolved by deleting an existing report, so it clashes with state rather than breaking a rule.
  { code: 510, key: "pq.reportLimit", status: 409 }, // params: limit
  { code: 512, key: "pq.startBeyondDataLifetime", status: 422 }, // params: limit
  { code: 513, key: "pq.tooFarInFuture", status: 422 }, // params: limit
  { code: 514, key: "pq.nodeNotFound", status: 404 },
  { code: 515, key: "pq.cellFilesNotFound", status: 404 },
  { code: 516, key: "pq.cellFilesError", status: 502 },
  { code: 517, key: "pq.cellConfigurationWrong", status: 422 },
  { code: 518, key: "pq.downloadTimeout", status: 504 },
  { code: 520, key: "pq.autoAnalysisBeyondDataLifetime", status: 422 },
  { code: 521, key: "pq.dataFilesCorrupted", status: 502 },
  { code: 522, key: "pq.complianceLimitsError", status: 500 },
  { code: 523, key: "pq.pdfGenerationError", status: 500 },
  { code: 524, key: "pq.csvGenerationError", status: 500 },
  // Not synchronised yet or the link is down: a retry later may succeed.
  { code: 526, key: "pq.dataNotAvailable", status: 503 },
  // A report's job a dead process left running, given up after its last attempt (no code).
  { key: "pq.reportInterrupted", status: 500 }, // params: attempts

  // Users (6xx)
  { code: 601, key: "users.weakPassword", status: 422 },
  { code: 602, key: "users.passwordReused", status: 422 },
  { code: 603, key: "users.passwordTooCommon", status: 422 },
  { code: 604, key: "users.passwordContainsUserInfo", status: 422 },
  { code: 609, key: "users.emailExists", status: 409 },
  { code: 611, key: "users.passwordRuleBroken", status: 422 },

  // Global settings (no spec number). The field rules (settings.required, .tooLong, ...) are
  // message keys of common.validation issues (modules/customers/settings_rules.ts).
  { key: "settings.applicationsSuperAdminOnly", status: 403 },
  { key: "settings.logoTooLarge", status: 413 },
  { key: "settings.logoNotImage", status: 415 },
  { key: "settings.logoDimensions", status: 422 }, // params: max
  // User management rules without a spec number (docs/decisions.md, "User management").
  { key: "users.passwordMismatch", status: 422 },
  { key: "users.currentPasswordWrong", status: 422 },
  { key: "users.roleAboveOwn", status: 422 },
  { key: "users.selfLockout", status: 422 },
  { key: "users.ownPasswordInProfile", status: 422 },
  { key: "users.emailNotValidated", status: 422 },
  { key: "users.startPageNotReachable", status: 422 },
  { key: "users.languageNotAvailable", status: 422 }, // params: languages
  // Grid monitoring node history: at most 7 days (the data code 402 speaks of 366 days).
  { key: "monitoring.valuesPeriodTooLong", status: 400 }, // params: days
  // Visual statistics (docs/contracts.md, "Visual statistics: /vsm").
  { key: "statistics.tooManySelections", status: 400 }, // params: limit
  { key: "statistics.compareFeeders", status: 400 }, // params: min, max
  { key: "statistics.tooManyPoints", status: 400 }, // params: limit
  // Data export (docs/export.md).
  { key: "export.notFound", status: 404 },
  { key: "export.tooLarge", status: 422 }, // params: bytes, max
  { key: "export.notActive", status: 409 },
  { key: "export.scheduleNotFound", status: 404 },
  { key: "export.tooManySchedules", status: 409 }, // params: max
  { key: "export.notReady", status: 409 }, // params: status
  // Reasons an export failed (stored on the export, shown in the list).
  { key: "export.failed", status: 500 }, // params: detail
  { key: "export.interrupted", status: 500 }, // params: attempts
  // API clients and external_v1 (docs/external-api.md).
  { key: "apiClients.tooManyClients", status: 422 }, // params: limit
  { key: "apiClients.nameTaken", status: 409 }, // params: name
  { key: "apiClients.nameMismatch", status: 422 },
  { key: "apiClients.tokenQuota", status: 429 }, // params: limit
  { key: "apiClients.insufficientScope", status: 403 }, // params: scope
]);

// Lookups run on every error response; index once instead of scanning the table each time.
const BY_CODE: ReadonlyMap<number, CatalogueEntry> = new Map(
  ERROR_CATALOGUE.flatMap((entry) => entry.code === undefined ? [] : [[entry.code, entry]]),
);
const BY_KEY: ReadonlyMap<string, CatalogueEntry> = new Map(
  ERROR_CATALOGUE.map((entry) => [entry.key, entry]),
);

/** The catalogue entry of a spec number (section 8.2), or `undefined` for an unknown code. */
export function findByCode(code: number): CatalogueEntry | undefined {
  return BY_CODE.get(code);
}

/** The catalogue entry of a message key, or `undefined` when the key is not an API error. */
export function findByKey(key: string): CatalogueEntry | undefined {
  return BY_KEY.get(key);
}
