/** The customer ids a super role picked, kept per browser tab in sessionStorage. */
import { CUSTOMER_IDS_STORAGE_KEY, parseStoredCustomerIds } from "./customer.ts";

/** Reads the stored customer ids; empty when none or when storage is unavailable. */
export function readStoredCustomerIds(): string[] {
  try {
    return parseStoredCustomerIds(window.sessionStorage.getItem(CUSTOMER_IDS_STORAGE_KEY));
  } catch {
    return [];
  }
}

/** Remembers `key` as the selected customer (first of the stored ids). */
export function storeSelectedCustomer(key: string): void {
  try {
    const rest = readStoredCustomerIds().filter((id) => id !== key);
    window.sessionStorage.setItem(CUSTOMER_IDS_STORAGE_KEY, JSON.stringify([key, ...rest]));
  } catch {
    // Without storage the pick lasts until the next reload.
  }
}
