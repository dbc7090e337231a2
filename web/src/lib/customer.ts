/** Customer selection (spec 7) and the mandatory settings check of spec 6. */
import type { CustomerDto as Customer } from "../../../modules/customers/contract.ts";

/** sessionStorage key of the customer ids a super role picked. */
export const CUSTOMER_IDS_STORAGE_KEY = "gw.customerIds";

/** The name a customer keeps until someone sets a real one. */
export const PLACEHOLDER_CUSTOMER_NAME = "New customer";

/** Reads the stored customer ids: a JSON array of keys (a bare key is tolerated). */
export function parseStoredCustomerIds(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.filter((v): v is string => typeof v === "string");
    if (typeof parsed === "string") return [parsed];
  } catch {
    return [raw];
  }
  return [];
}

/**
 * The customer to work with: the one whose auth_connection_name equals the token's customer;
 * for super roles the stored pick comes first.
 */
export function selectCustomer(
  customers: readonly Customer[],
  options: { connectionName: string | null; isSuper: boolean; storedIds: readonly string[] },
): Customer | undefined {
  if (options.isSuper) {
    for (const id of options.storedIds) {
      const stored = customers.find((c) => c.key === id);
      if (stored) return stored;
    }
  }
  const own = customers.find((c) => c.auth_connection_name === options.connectionName);
  if (own) return own;
  return options.isSuper ? undefined : customers.length === 1 ? customers[0] : undefined;
}

/** Mandatory settings a customer lacks (spec 6); empty when all are set. */
export function missingCustomerSettings(customer: Customer): string[] {
  const missing: string[] = [];
  const name = customer.name?.trim() ?? "";
  if (name === "" || name === PLACEHOLDER_CUSTOMER_NAME) missing.push("name");
  if (!customer.default_language) missing.push("default_language");
  if (customer.default_map_zoom_level === null || customer.default_map_zoom_level === undefined) {
    missing.push("default_map_zoom_level");
  }
  if (!customer.default_lv_nominal_voltage) missing.push("default_lv_nominal_voltage");
  return missing;
}
