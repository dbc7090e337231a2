/**
 * The customer's date, time and number formats (global settings) bound to the current customer
 * and interface language, for every screen that shows a date or a measured number.
 */
import { useAtomValue } from "jotai";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  type CustomerFormats,
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
} from "./format.ts";
import { customerAtom } from "./session-atoms.ts";

const FALLBACK: CustomerFormats = {
  default_date_format: "DD.MM.YYYY",
  default_time_format: "HH:mm",
  default_number_format: "1'234.56",
  default_timezone: "UTC",
};

/** Formatters in the customer's formats; invalid or missing instants give "". */
export function useFormatters() {
  const customer = useAtomValue(customerAtom);
  const { i18n } = useTranslation();
  return useMemo(() => {
    const formats = customer ?? FALLBACK;
    const language = i18n.language;
    return {
      dateTime: (value: Date | string | number) => formatDateTime(value, formats, language),
      date: (value: Date | string | number) => formatDate(value, formats, language),
      time: (value: Date | string | number) => formatTime(value, formats),
      number: (value: number, digits = 2) => formatNumber(value, formats, digits),
    };
  }, [customer, i18n.language]);
}
