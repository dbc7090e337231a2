/** The customer's logo as an object URL (the logo call needs the bearer token, an <img> can't). */
import { useEffect, useState } from "react";
import { apiBlob } from "./api.ts";

/** The logo URL of the call, re-fetched when the ETag changes; null without a logo. */
export function useCustomerLogo(customerKey: string, etag: string | null | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!etag) {
      setUrl(null);
      return;
    }
    const controller = new AbortController();
    let objectUrl: string | null = null;
    apiBlob(`/csm/customers/${encodeURIComponent(customerKey)}/logo`, controller.signal)
      .then((blob) => {
        objectUrl = blob ? URL.createObjectURL(blob) : null;
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [customerKey, etag]);
  return url;
}
