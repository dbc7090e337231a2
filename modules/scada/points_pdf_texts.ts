/** The texts of the point list's PDF in the four languages (the web's scada.json wording). */
import type { PdfLanguage, Quantity } from "./contract.ts";

export type { PdfLanguage };

export interface PointsPdfTexts {
  title: string;
  page: string;
  profile: string;
  master: string;
  port: string;
  asdu: string;
  sizes: string;
  generated: string;
  count: (activated: number, total: number) => string;
  columns: {
    ioa: string;
    type: string;
    elementType: string;
    element: string;
    value: string;
    unit: string;
    activated: string;
  };
  node: string;
  feeder: string;
  yes: string;
  no: string;
  unknown: string;
  quantity: (q: Quantity, phase: number | null) => string;
}

const phase = (p: number | null) => (p ? ` L${p}` : "");

export const POINTS_PDF_TEXTS: Record<PdfLanguage, PointsPdfTexts> = {
  en: {
    title: "SCADA point list (IEC 60870-5-104)",
    page: "Page",
    profile: "Profile",
    master: "Master's IP address",
    port: "TCP port",
    asdu: "ASDU (common address)",
    sizes: "Sizes: common address 2 octets, cause of transmission 2 octets, IOA 3 octets",
    generated: "Generated",
    count: (a, t) => `${t} points, ${a} activated`,
    columns: {
      ioa: "IOA",
      type: "Type (GI / spontaneous)",
      elementType: "Element type",
      element: "Element",
      value: "Value",
      unit: "Unit",
      activated: "Activated",
    },
    node: "Node",
    feeder: "Feeder",
    yes: "yes",
    no: "no",
    unknown: "no longer in the grid",
    quantity: (q, p) =>
      ({
        U: `Voltage U${phase(p)}`,
        I: `Current I${phase(p)}`,
        P: `Active power P${phase(p)}`,
        Q: `Reactive power Q${phase(p)}`,
        FREQUENCY: "Frequency f",
        NODE_STATE: "Node state (warning or alarm)",
        CELL_CONNECTED: "Cell connected",
      })[q],
  },
  fr: {
    title: "Liste des points SCADA (CEI 60870-5-104)",
    page: "Page",
    profile: "Profil",
    master: "Adresse IP du maître",
    port: "Port TCP",
    asdu: "ASDU (adresse commune)",
    sizes: "Tailles : adresse commune 2 octets, cause de transmission 2 octets, IOA 3 octets",
    generated: "Générée le",
    count: (a, t) => `${t} points, ${a} activés`,
    columns: {
      ioa: "IOA",
      type: "Type (interrogation / spontané)",
      elementType: "Type d'élément",
      element: "Élément",
      value: "Valeur",
      unit: "Unité",
      activated: "Activé",
    },
    node: "Nœud",
    feeder: "Départ",
    yes: "oui",
    no: "non",
    unknown: "n'existe plus dans le réseau",
    quantity: (q, p) =>
      ({
        U: `Tension U${phase(p)}`,
        I: `Courant I${phase(p)}`,
        P: `Puissance active P${phase(p)}`,
        Q: `Puissance réactive Q${phase(p)}`,
        FREQUENCY: "Fréquence f",
        NODE_STATE: "État du nœud (avertissement ou alarme)",
        CELL_CONNECTED: "Cellule connectée",
      })[q],
  },
  de: {
    title: "SCADA-Datenpunktliste (IEC 60870-5-104)",
    page: "Seite",
    profile: "Profil",
    master: "IP-Adresse des Masters",
    port: "TCP-Port",
    asdu: "ASDU (gemeinsame Adresse)",
    sizes: "Längen: gemeinsame Adresse 2 Oktette, Übertragungsursache 2 Oktette, IOA 3 Oktette",
    generated: "Erstellt",
    count: (a, t) => `${t} Datenpunkte, ${a} aktiviert`,
    columns: {
      ioa: "IOA",
      type: "Typ (Abfrage / spontan)",
      elementType: "Elementtyp",
      element: "Element",
      value: "Wert",
      unit: "Einheit",
      activated: "Aktiviert",
    },
    node: "Knoten",
    feeder: "Abgang",
    yes: "ja",
    no: "nein",
    unknown: "nicht mehr im Netz",
    quantity: (q, p) =>
      ({
        U: `Spannung U${phase(p)}`,
        I: `Strom I${phase(p)}`,
        P: `Wirkleistung P${phase(p)}`,
        Q: `Blindleistung Q${phase(p)}`,
        FREQUENCY: "Frequenz f",
        NODE_STATE: "Knotenzustand (Warnung oder Alarm)",
        CELL_CONNECTED: "Zelle verbunden",
      })[q],
  },
  uk: {
    title: "Перелік точок SCADA (IEC 60870-5-104)",
    page: "Сторінка",
    profile: "Профіль",
    master: "IP-адреса майстра",
    port: "TCP-порт",
    asdu: "ASDU (спільна адреса)",
    sizes: "Розміри: спільна адреса 2 октети, причина передачі 2 октети, IOA 3 октети",
    generated: "Створено",
    count: (a, t) => `точок: ${t}, активовано: ${a}`,
    columns: {
      ioa: "IOA",
      type: "Тип (опитування / спонтанно)",
      elementType: "Тип елемента",
      element: "Елемент",
      value: "Величина",
      unit: "Одиниця",
      activated: "Активовано",
    },
    node: "Вузол",
    feeder: "Фідер",
    yes: "так",
    no: "ні",
    unknown: "більше немає в мережі",
    quantity: (q, p) =>
      ({
        U: `Напруга U${phase(p)}`,
        I: `Струм I${phase(p)}`,
        P: `Активна потужність P${phase(p)}`,
        Q: `Реактивна потужність Q${phase(p)}`,
        FREQUENCY: "Частота f",
        NODE_STATE: "Стан вузла (попередження або тривога)",
        CELL_CONNECTED: "Комірку підключено",
      })[q],
  },
};
