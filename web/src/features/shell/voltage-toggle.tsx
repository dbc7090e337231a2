import { useNavigate, useSearch } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { mvAvailableAtom } from "../../lib/shell-atoms.ts";
import { type Voltage, voltageOf, withVoltage } from "../../lib/voltage.ts";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { Tooltip } from "../../ui/tooltip.tsx";

/**
 * Low Voltage / Medium Voltage. The level lives in the `voltage` query parameter, so reload
 * and shared links keep it; Medium Voltage is disabled when the page reports no MV values.
 */
export function VoltageToggle() {
  const { t } = useTranslation("shell");
  const search: { voltage?: unknown } = useSearch({ strict: false });
  const navigate = useNavigate();
  const mvAvailable = useAtomValue(mvAvailableAtom);
  const value = voltageOf(search);
  const select = (voltage: Voltage) => {
    void navigate({ to: ".", search: (prev) => withVoltage(prev, voltage), replace: false });
  };
  return (
    <SegmentedControl<Voltage>
      tone="header"
      label={t("voltage.label")}
      value={value}
      onChange={select}
      options={[
        { value: "lv", label: t("voltage.lv") },
        {
          value: "mv",
          label: t("voltage.mv"),
          disabled: !mvAvailable,
          wrap: mvAvailable
            ? undefined
            : (option) => <Tooltip content={t("voltage.mvUnavailable")}>{option}</Tooltip>,
        },
      ]}
    />
  );
}
