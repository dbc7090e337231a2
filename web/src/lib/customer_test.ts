import assert from "node:assert/strict";
import { missingCustomerSettings, parseStoredCustomerIds, selectCustomer } from "./customer.ts";
import type { CustomerDto as Customer } from "../../../modules/customers/contract.ts";

const customer = (key: string, connection: string, extra: Partial<Customer> = {}): Customer => ({
  key,
  auth_connection_name: connection,
  name: `Customer ${key}`,
  default_language: "en",
  available_languages: ["en"],
  default_map_zoom_level: 6,
  default_lv_nominal_voltage: "230/400",
  default_mv_nominal_voltage: null,
  default_frequency: 50,
  default_timezone: "Europe/Zurich",
  default_date_format: "DD.MM.YYYY",
  default_time_format: "HH:mm",
  default_number_format: "1'234.56",
  country: "CH",
  map_center: { lat: 46.8, lng: 8.2 },
  applications: [],
  authorized_email_domains: [],
  logo_etag: null,
  warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  ...extra,
});
const all = [customer("c1", "demo-ew"), customer("c2", "other-ew")];

Deno.test("selectCustomer() picks the customer whose auth_connection_name is the token's", () => {
  assert.equal(
    selectCustomer(all, { connectionName: "other-ew", isSuper: false, storedIds: [] })?.key,
    "c2",
  );
});

Deno.test("selectCustomer() ignores stored ids for ordinary users", () => {
  assert.equal(
    selectCustomer(all, { connectionName: "demo-ew", isSuper: false, storedIds: ["c2"] })?.key,
    "c1",
  );
});

Deno.test("selectCustomer() prefers the stored pick of a super role, else its own customer", () => {
  assert.equal(
    selectCustomer(all, { connectionName: "demo-ew", isSuper: true, storedIds: ["c2"] })?.key,
    "c2",
  );
  assert.equal(
    selectCustomer(all, { connectionName: "demo-ew", isSuper: true, storedIds: ["zz"] })?.key,
    "c1",
  );
});

Deno.test("parseStoredCustomerIds() reads a JSON array and tolerates a bare key", () => {
  assert.deepEqual(parseStoredCustomerIds('["c2","c1"]'), ["c2", "c1"]);
  assert.deepEqual(parseStoredCustomerIds("c3"), ["c3"]);
  assert.deepEqual(parseStoredCustomerIds(null), []);
});

Deno.test("missingCustomerSettings() flags the placeholder name and unset mandatory settings", () => {
  assert.deepEqual(missingCustomerSettings(customer("c", "x")), []);
  assert.deepEqual(
    missingCustomerSettings(customer("c", "x", {
      name: "New customer",
      default_language: "",
      default_map_zoom_level: null,
      default_lv_nominal_voltage: null,
    })),
    ["name", "default_language", "default_map_zoom_level", "default_lv_nominal_voltage"],
  );
  assert.deepEqual(missingCustomerSettings(customer("c", "x", { name: "  " })), ["name"]);
});
