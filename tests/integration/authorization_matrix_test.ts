/**
 * Authorization matrix generated from the app's own route list: every API route x role x
 * customer id gives the expected status. A route missing from EXPECTED fails the test, so a new
 * route cannot ship without its access rule.
 */
import assert from "node:assert/strict";
import { API_PREFIXES } from "../../main.ts";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { decodeClaims, startTestPlatform } from "../helpers/platform.ts";

type Caller =
  | "anonymous"
  | "user"
  | "admin"
  | "super-user"
  | "super-admin"
  | "operator"
  | "other-admin";
type Target = "own" | "foreign" | "nonexistent" | "malformed";
type Rule = (caller: Caller, target: Target) => number;

const signedIn = (caller: Caller) => caller !== "anonymous";
const superRole = (caller: Caller) => caller === "super-user" || caller === "super-admin";
/** Holders of app:grid-monitoring:admin (or the super-admin role). */
const monitoringAdmin = (caller: Caller) =>
  caller === "admin" || caller === "super-admin" || caller === "other-admin";
/** Every demo account holds app:grid-monitoring; ids in the matrix name no request or trigger. */
const monitoringRead = (c: Caller) => (signedIn(c) ? 404 : 401);
const monitoringWrite = (c: Caller) => (!signedIn(c) ? 401 : monitoringAdmin(c) ? 404 : 403);
/** Holders of hes:cm:admin: their own customer; the super-admin every customer. */
const settingsAdmin = (caller: Caller) =>
  caller === "admin" || caller === "super-admin" || caller === "other-admin";
/** Global and grid monitoring settings: 403 without the admin role, else 404 unless visible. */
const settingsRule = (isAdmin: (c: Caller) => boolean, ok: number): Rule => (c, t) => {
  if (!signedIn(c)) return 401;
  if (!isAdmin(c)) return 403;
  return t === "own" || (t === "foreign" && c === "super-admin") ? ok : 404;
};
/** Holders of hes:um:admin (or the super-admin role) manage users. */
const userManager = (c: Caller) => c === "admin" || c === "super-admin" || c === "other-admin";
/** User management by id: 403 without the right, own customer only unless super-admin. */
const manageUser = (c: Caller, t: Target, own: number, foreignBySuper: number) => {
  if (!signedIn(c)) return 401;
  if (!userManager(c)) return 403;
  if (t === "own") return own;
  return t === "foreign" && c === "super-admin" ? foreignBySuper : 404;
};
/** The nsm calls about a user's own notifications. */
const ownNotifications: Rule = (c, t) => (!signedIn(c) ? 401 : t === "own" ? 200 : 404);
/** A node id that exists nowhere: the node lookup answers 404 to everybody allowed to ask. */
const NO_NODE = "00000000-0000-4000-8000-000000000000";

/** Administrators of hes:infrastructure-setup (or the super-admin role) change the grid. */
const gridWriter = (caller: Caller) =>
  caller === "admin" || caller === "super-admin" || caller === "other-admin";
/** Every demo account reads the grid; ids in the matrix name no grid element. */
const gridRead = (c: Caller) => (signedIn(c) ? 404 : 401);
const gridWrite = (c: Caller) => (!signedIn(c) ? 401 : gridWriter(c) ? 404 : 403);
const FEEDER_BODY = {
  name: "LV line 1",
  type: "LV_LINE",
  in_out: "OUT",
  nominal_current_a: 250,
  parameters: {},
};

/** Holders of hes:infrastructure-setup / hes:io-configuration (every role but user, operator). */
const setupHolder = (c: Caller) => signedIn(c) && c !== "user" && c !== "operator";
const cellsRead = (ok: number) => (c: Caller) => (!signedIn(c) ? 401 : setupHolder(c) ? ok : 403);
const cellsWrite = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "admin" || c === "super-admin" || c === "other-admin" ? ok : 403;

/**
 * IO monitoring: holders of app:io-monitoring in a customer whose applications list it. The
 * operator holds no role for it; the other utility does not list the application (403 both).
 */
const ioMonitoring = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "operator" || c === "other-admin" ? 403 : ok;

/**
 * Visual statistics: holders of app:visual-statistics (every demo account but the operator;
 * the access guard of spec 2.2 reads the apps_roles claim). Ids name no feeder.
 */
const visualStatistics = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "operator" ? 403 : ok;
const VSM_PERIOD = "from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z";

/**
 * Data export: holders of hes:data-export (every demo account but the operator); the usage for
 * its admins. Keys name no export; the selection names no feeder (400 on the feeder).
 */
const dataExport = (ok: number) => (c: Caller) => !signedIn(c) ? 401 : c === "operator" ? 403 : ok;
const dataExportAdmin = (c: Caller) =>
  !signedIn(c) ? 401 : c === "admin" || c === "super-admin" || c === "other-admin" ? 200 : 403;
const EXPORT_SELECTION = {
  period: { from: "2026-11-21T00:00:00Z", to: "2026-11-22T00:00:00Z" },
  feeders: [NO_NODE],
  parameters: ["u"],
  interval: "1h",
  format: "csv",
};
const { period: _, ...SCHEDULE } = { ...EXPORT_SELECTION, file_name: "Matrix" };

/**
 * API clients (docs/external-api.md): admins of hes:api-clients (admin, super-admin, the other
 * utility's admin) manage their own customer's clients; ids name no client.
 */
const apiClientsAdmin = (c: Caller) => c === "admin" || c === "super-admin" || c === "other-admin";
const acm = (ok: number) => (c: Caller) => (!signedIn(c) ? 401 : apiClientsAdmin(c) ? ok : 403);

/**
 * SCADA connector: administrators of hes:scada-connector (admin, other admin; the super-admin
 * by role). Bodies are absent (400 for the writes), ids name no profile (404).
 */
const scadaAdmin = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "admin" || c === "super-admin" || c === "other-admin" ? ok : 403;

/**
 * Power quality (reports /pqm, events /pqe): holders of app:power-quality (every demo account
 * but the operator) of a customer whose applications list it (not the other utility); limit
 * sets are changed by its admins. Keys name no report or event.
 */
const pq = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "operator" || c === "other-admin" ? 403 : ok;
const pqAdmin = (ok: number) => (c: Caller) =>
  !signedIn(c) ? 401 : c === "admin" || c === "super-admin" ? ok : 403;

/** Expected status per route ("METHOD /path" as Hono lists it). */
const EXPECTED: Record<string, Rule> = {
  "GET /csm/customers": (c) => (signedIn(c) ? 200 : 401),
  "GET /csm/customers/:cid": (c, t) => {
    if (!signedIn(c)) return 401;
    if (t === "own") return 200;
    if (t === "foreign" && superRole(c)) return 200;
    return 404;
  },
  "GET /usm/users/current/:id": (c, t) => {
    if (!signedIn(c)) return 401;
    if (t === "own") return 200;
    if (t === "foreign" && superRole(c)) return 200;
    return 404;
  },
  "PATCH /usm/users/current/:id": (c, t) => (!signedIn(c) ? 401 : t === "own" ? 200 : 404),
  "POST /usm/users/current/:id/password": (c, t) => (!signedIn(c) ? 401 : t === "own" ? 422 : 404),
  "POST /usm/users/current/:id/email-validation": (c, t) =>
    !signedIn(c) ? 401 : t === "own" ? 202 : 404,
  // Public: the link comes from a mail; an unknown token redirects to the failure notice.
  "GET /usm/email-validation/:token": () => 302,
  "GET /usm/users": (c) => (!signedIn(c) ? 401 : userManager(c) ? 200 : 403),
  // The body names an e-mail in use: managers reach the 609 check.
  "POST /usm/users": (c) => (!signedIn(c) ? 401 : userManager(c) ? 409 : 403),
  "GET /usm/users/:cid/:id": (c, t) => manageUser(c, t, 200, 200),
  // Own: a super-admin would demote itself (lock-out, 422); the others reach the 609 check.
  "PUT /usm/users/:cid/:id": (c, t) => manageUser(c, t, c === "super-admin" ? 422 : 409, 409),
  // Callers run in order: the super-admin's foreign call disables the other admin, whose token
  // is revoked when its turn comes (401); it stays revoked after the enable, and the matrix
  // logs the other admin in again after that route.
  "POST /usm/users/:cid/:id/disable": (c, t) =>
    c === "other-admin" ? 401 : manageUser(c, t, 422, 200),
  "POST /usm/users/:cid/:id/enable": (c, t) =>
    c === "other-admin" ? 401 : manageUser(c, t, 422, 200),
  // Walked last: the super-admin's foreign call deletes the other admin, whose token is then
  // refused (401) when its turn comes.
  "DELETE /usm/users/:cid/:id": (c, t) => c === "other-admin" ? 401 : manageUser(c, t, 422, 204),
  "GET /gsm/grid-structure/hv-mv-station-groups": (c) => (signedIn(c) ? 200 : 401),
  "GET /evm/grid-monitoring/grid-status": (c) => (signedIn(c) ? 200 : 401),
  "GET /evm/custom-monitoring/requests": (c) => (signedIn(c) ? 200 : 401),
  "POST /evm/custom-monitoring/requests": monitoringRead,
  "GET /evm/custom-monitoring/requests/:id": monitoringRead,
  "POST /evm/custom-monitoring/requests/:id/stop": monitoringRead,
  "GET /evm/custom-monitoring/requests/:id/values": monitoringRead,
  "GET /evm/custom-monitoring/triggers": (c) => (signedIn(c) ? 200 : 401),
  "POST /evm/custom-monitoring/triggers": monitoringWrite,
  "GET /evm/custom-monitoring/triggers/:id": monitoringRead,
  "PUT /evm/custom-monitoring/triggers/:id": monitoringWrite,
  "DELETE /evm/custom-monitoring/triggers/:id": monitoringWrite,
  "GET /evm/grid-monitoring/nodes/:id": monitoringRead,
  "GET /evm/grid-monitoring/nodes/:id/values": monitoringRead,
  "GET /csm/customers/:cid/settings": settingsRule(settingsAdmin, 200),
  "PUT /csm/customers/:cid/settings": settingsRule(settingsAdmin, 200),
  "GET /csm/customers/:cid/grid-monitoring-settings": settingsRule(monitoringAdmin, 200),
  "PUT /csm/customers/:cid/grid-monitoring-settings": settingsRule(monitoringAdmin, 200),
  // The matrix sends no image: an allowed upload is refused by content (415), nothing stored.
  "PUT /csm/customers/:cid/logo": settingsRule(settingsAdmin, 415),
  "GET /csm/customers/:cid/logo": (c) => (signedIn(c) ? 404 : 401),
  "DELETE /csm/customers/:cid/logo": settingsRule(settingsAdmin, 204),
  // User tokens are not cell credentials: the ingestion protocol refuses every one of them.
  "POST /ingest/v1/batches": () => 401,
  // Notifications: only the caller's own (another user's id or any unknown key: 404).
  "GET /nsm/notifications/users/:id": ownNotifications,
  "PUT /nsm/notifications/users/:id": ownNotifications,
  "DELETE /nsm/notifications/users/:id": ownNotifications,
  "PUT /nsm/notifications/:key": (c) => (signedIn(c) ? 404 : 401),
  "DELETE /nsm/notifications/:key": (c) => (signedIn(c) ? 404 : 401),
  "GET /nsm/outbox": (c) =>
    !signedIn(c) ? 401 : c === "admin" || c === "super-admin" || c === "other-admin" ? 200 : 403,
  // The STOMP endpoint authenticates in its CONNECT frame; a plain GET is no upgrade: 400.
  "GET /nsm/websocket": () => 400,
  // Grid setup (docs/contracts.md, "Grid setup calls").
  "POST /gsm/hv-mv-station-groups": (c) => (!signedIn(c) ? 401 : gridWriter(c) ? 201 : 403),
  "PUT /gsm/hv-mv-station-groups/:id": gridWrite,
  "DELETE /gsm/hv-mv-station-groups/:id": gridWrite,
  "POST /gsm/mv-feeder-groups": gridWrite,
  "PUT /gsm/mv-feeder-groups/:id": gridWrite,
  "DELETE /gsm/mv-feeder-groups/:id": gridWrite,
  "GET /gsm/mv-feeder-groups/:id/mv-topology": gridRead,
  "PUT /gsm/mv-feeder-groups/:id/mv-topology": gridWrite,
  "DELETE /gsm/mv-feeder-groups/:id/mv-topology": gridWrite,
  "POST /gsm/lv-groups": gridWrite,
  "PUT /gsm/lv-groups/:id": gridWrite,
  "DELETE /gsm/lv-groups/:id": gridWrite,
  "POST /gsm/nodes": gridWrite,
  "GET /gsm/nodes/:id": gridRead,
  "PUT /gsm/nodes/:id": gridWrite,
  "DELETE /gsm/nodes/:id": gridWrite,
  "POST /gsm/nodes/:id/feeders": gridWrite,
  "PUT /gsm/nodes/:id/feeders/:feederId": gridWrite,
  "DELETE /gsm/nodes/:id/feeders/:feederId": gridWrite,
  "GET /gsm/electrical-works/status": (c) => (signedIn(c) ? 200 : 401),
  "GET /gsm/electrical-works/search": (c) => (signedIn(c) ? 200 : 401),
  "GET /gsm/map-layers": (c) => (signedIn(c) ? 200 : 401),
  "GET /gsm/map-layers/:id": gridRead,
  // A JSON body is not a file upload: writers get 415, everybody else is refused first.
  "POST /gsm/map-layers": (c) => (!signedIn(c) ? 401 : gridWriter(c) ? 415 : 403),
  "DELETE /gsm/map-layers/:id": gridWrite,
  // Cells and mapping calls (docs/contracts.md): holders of hes:infrastructure-setup read,
  // its admins change; the I/O configuration the same with hes:io-configuration. The plain
  // user and the operator hold neither.
  "GET /gsm/cells": cellsRead(200),
  "GET /gsm/cells/search": cellsRead(200),
  "GET /gsm/cells/linkable-nodes": cellsRead(200),
  "GET /gsm/cells/:id": cellsRead(404),
  "PUT /gsm/cells/:id/message": cellsWrite(404),
  "POST /gsm/cells/:id/take-from-stock": cellsWrite(404),
  "POST /gsm/cells/:id/link": cellsWrite(404),
  "POST /gsm/cells/:id/unlink": cellsWrite(404),
  "GET /gsm/cells/:id/mapping": cellsRead(404),
  "PUT /gsm/cells/:id/mapping": cellsWrite(404),
  "PATCH /gsm/cells/:id/mapping": cellsWrite(404),
  "POST /gsm/cells/:id/mapping/validate": cellsWrite(404),
  "POST /gsm/cells/:id/mapping/confirm": cellsWrite(404),
  "POST /gsm/cells/:id/mapping/ignore": cellsWrite(404),
  // Cell onboarding: the matrix bodies are refused by content (400), nothing is registered.
  "POST /gsm/cells": cellsWrite(400),
  "POST /gsm/cells/import": cellsWrite(400),
  "POST /gsm/cells/:id/credential": cellsWrite(404),
  "DELETE /gsm/cells/:id/credential": cellsWrite(404),
  "GET /gsm/io-modules": cellsRead(200),
  // The matrix body has no module size: writers pass the access check and get 400.
  "POST /gsm/io-modules": cellsWrite(400),
  "PATCH /gsm/io-modules/:id": cellsWrite(404),
  "DELETE /gsm/io-modules/:id": cellsWrite(404),
  "GET /gsm/cells/:id/io-modules": cellsRead(404),
  "POST /gsm/cells/:id/io-modules": cellsWrite(404),
  "DELETE /gsm/cells/:id/io-modules/:moduleId": cellsWrite(404),
  // IO monitoring (docs/contracts.md, "IO monitoring: /iom"); ids name no electrical work.
  "GET /iom/electrical-works": ioMonitoring(200),
  "GET /iom/electrical-works/:key/history": ioMonitoring(404),
  // Visual statistics (docs/contracts.md, "Visual statistics: /vsm").
  "GET /vsm/parameters": visualStatistics(200),
  "GET /vsm/series": visualStatistics(404),
  "GET /vsm/histogram": visualStatistics(404),
  "GET /vsm/compare": visualStatistics(404),
  // Data export (docs/contracts.md, "Data export: /dem").
  "GET /dem/feeders": dataExport(200),
  "GET /dem/usage": dataExportAdmin,
  "POST /dem/exports/estimate": dataExport(400),
  "POST /dem/exports": dataExport(400),
  "GET /dem/exports": dataExport(200),
  "GET /dem/exports/:key": dataExport(404),
  "GET /dem/exports/:key/file": dataExport(404),
  "POST /dem/exports/:key/link": dataExport(404),
  "POST /dem/exports/:key/cancel": dataExport(404),
  "DELETE /dem/exports/:key": dataExport(404),
  "GET /dem/schedules": dataExport(200),
  "POST /dem/schedules": dataExport(400),
  "GET /dem/schedules/:key": dataExport(404),
  "PUT /dem/schedules/:key": dataExport(404),
  "POST /dem/schedules/:key/run": dataExport(404),
  "DELETE /dem/schedules/:key": dataExport(404),
  // Public: the signed link is the proof; a forged one is unknown.
  "GET /dem/files/:key": () => 404,
  // API clients (/acm); the body of a creation is refused by validation once access passed.
  "GET /acm/clients": acm(200),
  "POST /acm/clients": acm(400),
  "POST /acm/clients/:id/secret": acm(404),
  "DELETE /acm/clients/:id": acm(404),
  "GET /acm/audit": acm(200),
  // external_v1 takes API client tokens only: every user's token is refused.
  "GET /external/v1/openapi.json": () => 200,
  "GET /external/v1/gsm/station-groups": () => 401,
  "GET /external/v1/gsm/nodes": () => 401,
  "GET /external/v1/gsm/cells": () => 401,
  "GET /external/v1/fm/cells": () => 401,
  "GET /external/v1/fm/cells/:id": () => 401,
  "GET /external/v1/dm/feeders": () => 401,
  "GET /external/v1/dm/feeders/:id/values": () => 401,
  "GET /external/v1/dm/feeders/:id/latest": () => 401,
  "POST /external/v1/dm/feeders/:id/measurements": () => 401,
  "POST /external/v1/gsm/station-groups": () => 401,
  "PUT /external/v1/gsm/station-groups/:id": () => 401,
  "DELETE /external/v1/gsm/station-groups/:id": () => 401,
  "POST /external/v1/gsm/mv-feeder-groups": () => 401,
  "PUT /external/v1/gsm/mv-feeder-groups/:id": () => 401,
  "DELETE /external/v1/gsm/mv-feeder-groups/:id": () => 401,
  "POST /external/v1/gsm/lv-groups": () => 401,
  "PUT /external/v1/gsm/lv-groups/:id": () => 401,
  "DELETE /external/v1/gsm/lv-groups/:id": () => 401,
  "POST /external/v1/gsm/nodes": () => 401,
  "PUT /external/v1/gsm/nodes/:id": () => 401,
  "DELETE /external/v1/gsm/nodes/:id": () => 401,
  "POST /external/v1/gsm/nodes/:id/feeders": () => 401,
  "PUT /external/v1/gsm/nodes/:id/feeders/:feederId": () => 401,
  "DELETE /external/v1/gsm/nodes/:id/feeders/:feederId": () => 401,
  "GET /external/v1/pq/reports": () => 401,
  "POST /external/v1/pq/reports": () => 401,
  "GET /external/v1/pq/reports/:key": () => 401,
  "GET /external/v1/pq/reports/:key/pdf": () => 401,
  "GET /external/v1/pq/reports/:key/csv": () => 401,
  "GET /external/v1/pq/events": () => 401,
  "GET /external/v1/pq/events/:key": () => 401,
  "POST /external/v1/pq/events/:key/recording": () => 401,
  "GET /external/v1/pq/events/:key/recording": () => 401,
  // SCADA connector (docs/contracts.md, "/scm").
  "GET /scm/status": scadaAdmin(200),
  "GET /scm/profiles": scadaAdmin(200),
  "POST /scm/profiles": scadaAdmin(400),
  "PUT /scm/profiles/:id": scadaAdmin(400),
  "DELETE /scm/profiles/:id": scadaAdmin(404),
  "GET /scm/profiles/:id/points": scadaAdmin(404),
  "PUT /scm/profiles/:id/points": scadaAdmin(400),
  "POST /scm/profiles/:id/points/generate": scadaAdmin(404),
  "GET /scm/profiles/:id/points/pdf": scadaAdmin(404),
  "GET /scm/nodes": scadaAdmin(200),
  "POST /scm/profiles/:id/points/add": scadaAdmin(400),
  // Power-quality reports (/pqm) and events (/pqe).
  "GET /pqm/electrical-works": pq(200),
  "POST /pqm/reports": pq(400),
  "GET /pqm/reports": pq(200),
  "GET /pqm/reports/:key": pq(404),
  "GET /pqm/reports/:key/pdf": pq(404),
  "GET /pqm/reports/:key/csv": pq(404),
  "POST /pqm/reports/:key/cancel": pq(404),
  "DELETE /pqm/reports/:key": pq(404),
  "GET /pqm/limit-sets": pq(200),
  "POST /pqm/limit-sets": pqAdmin(400),
  "PUT /pqm/limit-sets/:key": pqAdmin(400),
  "DELETE /pqm/limit-sets/:key": pqAdmin(404),
  "GET /pqm/auto-analyses": pq(200),
  "POST /pqm/auto-analyses": pqAdmin(400),
  "PUT /pqm/auto-analyses/:key": pqAdmin(400),
  "POST /pqm/auto-analyses/:key/pause": pqAdmin(404),
  "POST /pqm/auto-analyses/:key/resume": pqAdmin(404),
  "POST /pqm/auto-analyses/:key/run": pqAdmin(404),
  "DELETE /pqm/auto-analyses/:key": pqAdmin(404),
  "GET /pqm/auto-analyses/:key/runs": pq(404),
  "GET /pqm/compliance": pq(200),
  "GET /pqm/compliance/map": pq(200),
  "POST /pqm/compliance/evaluate": pqAdmin(202),
  "GET /pqe/electrical-works": pq(200),
  "GET /pqe/events": pq(200),
  "GET /pqe/events/tables": pq(200),
  "GET /pqe/events/points": pq(200),
  "GET /pqe/events/:key": pq(404),
  "POST /pqe/events/:key/recording": pq(404),
  "GET /pqe/events/:key/recording": pq(404),
  "GET /pqe/grid-events": pq(200),
  "GET /pqe/recordings": pq(200),
  // A basemap tile: any signed-in user of the customer; none is set (404).
  "GET /csm/customers/:cid/map-tiles/:z/:x/:y": (c) => (signedIn(c) ? 404 : 401),
  // Recordings are uploaded with cell credentials only.
  "PUT /ingest/v1/recordings/:id": () => 401,
  "POST /ingest/v1/recordings/:id/failure": () => 401,
  // The cell configuration takes cell credentials only.
  "GET /ingest/v1/configuration": () => 401,
  "POST /ingest/v1/configuration/ack": () => 401,
};

/** A valid query for routes that need one. */
const QUERIES: Record<string, string> = {
  "GET /gsm/cells": "?category=IN_STOCK",
  "GET /gsm/cells/search": "?q=GW",
  "GET /evm/grid-monitoring/grid-status": "?level=LV",
  "GET /evm/grid-monitoring/nodes/:id": "?level=LV",
  "GET /evm/grid-monitoring/nodes/:id/values": "?level=LV",
  "GET /gsm/electrical-works/search": "?q=Seeblick",
  "GET /vsm/series": `?feeders=${NO_NODE}&parameters=u&${VSM_PERIOD}`,
  "GET /vsm/histogram": `?feeder=${NO_NODE}&parameter=u&${VSM_PERIOD}`,
  "GET /vsm/compare": `?feeders=${NO_NODE},${crypto.randomUUID()}&parameter=u&${VSM_PERIOD}`,
  "GET /iom/electrical-works/:key/history": "?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z",
  "GET /dem/files/:key": "?token=1.x.y",
};

/** A valid body for routes that need one, so the matrix tests access, not validation. */
const BODIES: Record<string, unknown> = {
  "POST /dem/exports/estimate": EXPORT_SELECTION,
  "POST /dem/exports": { ...EXPORT_SELECTION, file_name: "Matrix", directory_structure: "flat" },
  "POST /dem/schedules": { ...SCHEDULE, frequency: "DAILY" },
  "PUT /dem/schedules/:key": { ...SCHEDULE, frequency: "DAILY" },
  "POST /acm/clients": { name: "x", permission: "read" },
  "DELETE /acm/clients/:id": { name: "Matrix client" },
  "PUT /gsm/cells/:id/message": { message: "Matrix" },
  "POST /gsm/cells/:id/link": { node_id: NO_NODE },
  "POST /gsm/cells": { serial_number: "x" },
  "POST /gsm/cells/import": { csv: "" },
  "PUT /gsm/cells/:id/mapping": { entries: [] },
  "PATCH /gsm/cells/:id/mapping": { entries: [] },
  "POST /gsm/io-modules": {
    name: "Matrix",
    module_type: "DIGITAL_INPUT",
    system_type: "DRY_CONTACT",
    size: null,
    resolution: 1,
  },
  "POST /gsm/cells/:id/io-modules": { module_id: NO_NODE },
  "PATCH /gsm/io-modules/:id": { scale: null },
  "PATCH /usm/users/current/:id": { language: "en" },
  "PUT /nsm/notifications/users/:id": { is_read: true },
  "PUT /nsm/notifications/:key": { is_read: true },
  "POST /usm/users/current/:id/password": { current_password: "not-it", password: "Kx7#mPq2vL9z" },
  "POST /usm/users": {
    name: "Matrix Person",
    email: "user@demo-ew.ch",
    phone: null,
    role: "user",
    start_page: null,
    language: "en",
    apps_roles: ["hes:default"],
    password: "Kx7#mPq2vL9z",
  },
  "PUT /usm/users/:cid/:id": {
    name: "Matrix Person",
    email: "user@demo-ew.ch",
    phone: null,
    role: "admin",
    start_page: null,
    language: "en",
    apps_roles: ["hes:default", "hes:um:admin"],
  },
  "POST /ingest/v1/batches": { measurements: [] },
  "POST /evm/custom-monitoring/requests": { node_id: NO_NODE, duration_min: 5 },
  "POST /evm/custom-monitoring/triggers": {
    node_id: NO_NODE,
    delta_lv_a: 50,
    delta_mv_a: 20,
    duration_min: 5,
  },
  "PUT /csm/customers/:cid/settings": {
    name: "EW Demo AG",
    country: "CH",
    technical_contact: { name: null, email: null, phone: null },
    default_date_format: "DD.MM.YYYY",
    default_time_format: "HH:mm",
    default_number_format: "1'234.56",
    default_timezone: "Europe/Zurich",
    default_language: "en",
    available_languages: ["en", "de"],
    authorized_email_domains: ["demo-ew.ch", "sw-beispiel.ch"],
    default_frequency: 50,
    default_lv_nominal_voltage: "230/400",
    default_mv_nominal_voltage: 16000,
    map_center: { lat: 47.05, lng: 8.31 },
    default_map_zoom_level: 12,
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  },
  "PUT /csm/customers/:cid/grid-monitoring-settings": {
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  },
  "POST /gsm/hv-mv-station-groups": { name: "Matrix station" },
  "PUT /gsm/hv-mv-station-groups/:id": { name: "Matrix station" },
  "POST /gsm/mv-feeder-groups": { station_group_id: NO_NODE, name: "Matrix MV" },
  "PUT /gsm/mv-feeder-groups/:id": { name: "Matrix MV" },
  "PUT /gsm/mv-feeder-groups/:id/mv-topology": { feeder_ids: [NO_NODE, crypto.randomUUID()] },
  "POST /gsm/lv-groups": { mv_feeder_group_id: NO_NODE, name: "Matrix LV" },
  "PUT /gsm/lv-groups/:id": { name: "Matrix LV" },
  "POST /gsm/nodes": {
    lv_group_id: NO_NODE,
    name: "Matrix node",
    electrical_work: { name: "Matrix work", type: "LV_CABINET" },
    latitude: 47,
    longitude: 8,
    feeders: [FEEDER_BODY],
  },
  "PUT /gsm/nodes/:id": {
    name: "Matrix node",
    electrical_work: { name: "Matrix work", type: "LV_CABINET" },
    latitude: 47,
    longitude: 8,
  },
  "POST /gsm/nodes/:id/feeders": FEEDER_BODY,
  "PUT /gsm/nodes/:id/feeders/:feederId": FEEDER_BODY,
  "PUT /evm/custom-monitoring/triggers/:id": {
    delta_lv_a: 50,
    delta_mv_a: 20,
    duration_min: 5,
    enabled: true,
  },
};

Deno.test({
  name: "every API route answers the expected status for every role and customer id",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const accounts: Record<Exclude<Caller, "anonymous">, { email: string; password: string }> = {
        user: DEMO_USERS[0],
        admin: DEMO_USERS[1],
        "super-user": DEMO_USERS[2],
        "super-admin": DEMO_USERS[3],
        operator: DEMO_USERS[4],
        "other-admin": OTHER_ADMIN,
      };
      const tokens = new Map<Caller, string>();
      for (const [caller, account] of Object.entries(accounts)) {
        tokens.set(
          caller as Caller,
          (await platform.login(account.email, account.password)).access_token,
        );
      }
      const userId = (caller: Caller) =>
        String(decodeClaims(tokens.get(caller)!).sub).split("|")[1]!;
      const customers =
        await (await platform.request("/csm/customers", { token: tokens.get("super-admin")! }))
          .json() as { key: string; auth_connection_name: string }[];
      const customerOf = (name: string) =>
        customers.find((c) => c.auth_connection_name === name)!.key;

      const routes = platform.app.routes
        .filter((r) => r.method !== "ALL" && API_PREFIXES.some((p) => r.path.startsWith(`${p}/`)))
        .map((r) => `${r.method} ${r.path}`);
      const LAST = "DELETE /usm/users/:cid/:id";
      const unique = [...new Set(routes)].sort((a, b) => Number(a === LAST) - Number(b === LAST));
      const missing = unique.filter((r) => !(r in EXPECTED));
      assert.deepEqual(missing, [], `Routes without an authorization rule: ${missing.join(", ")}`);

      const failures: string[] = [];
      for (const route of unique) {
        const [method, pattern] = route.split(" ") as [string, string];
        for (const caller of ["anonymous", ...Object.keys(accounts)] as Caller[]) {
          const own = caller === "other-admin" ? "sw-beispiel" : "demo-ew";
          const foreign = own === "demo-ew" ? "sw-beispiel" : "demo-ew";
          const ids: Record<Target, { cid: string; id: string }> = {
            own: {
              cid: customerOf(own),
              id: caller === "anonymous" ? userId("user") : userId(caller),
            },
            foreign: {
              cid: customerOf(foreign),
              id: userId(caller === "other-admin" ? "admin" : "other-admin"),
            },
            nonexistent: { cid: crypto.randomUUID(), id: crypto.randomUUID() },
            malformed: { cid: "%27%3B--", id: "..%2F..%2Fetc%2Fpasswd" },
          };
          for (const target of Object.keys(ids) as Target[]) {
            const path = pattern.replace(":cid", ids[target].cid).replace(":id", ids[target].id) +
              (QUERIES[route] ?? "");
            const token = tokens.get(caller);
            const body = route in BODIES ? JSON.stringify(BODIES[route]) : null;
            const res = await platform.request(path, {
              method,
              body,
              headers: body ? { "content-type": "application/json" } : {},
              ...(token ? { token } : {}),
            });
            const text = await res.text();
            const expected = EXPECTED[route]!(caller, target);
            if (res.status !== expected) {
              failures.push(`${route} ${caller} ${target}: ${res.status} != ${expected}`);
            }
            if (res.status >= 400) {
              assert.ok(!/\bat \w|stack/i.test(text), `No stack trace in ${route}: ${text}`);
              assert.ok(typeof (JSON.parse(text) as { key: string }).key === "string");
            }
          }
        }
        if (route === "POST /usm/users/:cid/:id/enable") {
          const fresh = await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password);
          tokens.set("other-admin", fresh.access_token);
        }
      }
      assert.deepEqual(failures, []);
    } finally {
      await platform.close();
    }
  },
});
