/** The PDF's texts of the trends, probability curves and voltage events, in the four languages. */
import type { ReportLanguage } from "./contract.ts";

/** Texts of the trend, probability and events pages. */
export interface MoreTexts {
  trends: string;
  trendOf: string;
  trendCaption: string;
  weekLine: string;
  allowed: string;
  band100: string;
  cdf: string;
  cdfCaption: string;
  deviation: string;
  probability: string;
  noValues: string;
  events: string;
  eventsCaption: string;
  dipTable: string;
  swellTable: string;
  residual: string;
  swellVoltage: string;
  duration: string;
  interruptionsShort: string;
  interruptionsLong: string;
  rvc: string;
  msv: string;
  outsideTables: string;
  eventList: string;
  noEvents: string;
  eventsListed: string;
  start: string;
  type: string;
  extreme: string;
  tableCell: string;
  eventTypes: Record<string, string>;
}

const EN: MoreTexts = {
  trends: "Trends and cumulative probability",
  trendOf: "Trend over the period",
  trendCaption:
    "10-minute values per phase (range per plotted step); shaded: allowed band; dashed: 100 % band; vertical lines: ISO weeks",
  weekLine: "ISO week",
  allowed: "allowed",
  band100: "100 % band",
  cdf: "Cumulative probability",
  cdfCaption: "Share of valid intervals at or below a value; red: limit",
  deviation: "deviation from nominal, %",
  probability: "%",
  noValues: "No valid interval",
  events: "Voltage events (EN 50160)",
  eventsCaption:
    "Events the node's cell recorded in the period, classified by residual or swell voltage (% of the reference voltage) and duration",
  dipTable: "Voltage dips: residual voltage u and duration t",
  swellTable: "Voltage swells: swell voltage u and duration t",
  residual: "u (%)",
  swellVoltage: "u (%)",
  duration: "Duration",
  interruptionsShort: "Short interruptions (≤ 3 min)",
  interruptionsLong: "Long interruptions (> 3 min)",
  rvc: "Rapid voltage changes",
  msv: "Mains signalling voltage",
  outsideTables: "Dips and swells longer than 60 s",
  eventList: "Events in the period",
  noEvents: "No voltage event in the period.",
  eventsListed: "The newest {shown} of {total} events are listed.",
  start: "Start",
  type: "Type",
  extreme: "Extreme",
  tableCell: "Table cell",
  eventTypes: {
    DIP: "Dip",
    SWELL: "Swell",
    RVC: "RVC",
    INTERRUPTION: "Interruption",
    MSV: "MSV",
  },
};

const FR: MoreTexts = {
  trends: "Évolutions et probabilité cumulée",
  trendOf: "Évolution sur la période",
  trendCaption:
    "Valeurs 10 minutes par phase (plage par pas tracé) ; zone ombrée : bande admise ; tirets : bande 100 % ; traits verticaux : semaines ISO",
  weekLine: "Semaine ISO",
  allowed: "admis",
  band100: "bande 100 %",
  cdf: "Probabilité cumulée",
  cdfCaption: "Part des intervalles valides inférieurs ou égaux à une valeur ; rouge : limite",
  deviation: "écart par rapport au nominal, %",
  probability: "%",
  noValues: "Aucun intervalle valide",
  events: "Événements de tension (EN 50160)",
  eventsCaption:
    "Événements enregistrés par la cellule du nœud sur la période, classés par tension résiduelle ou de surtension (% de la tension de référence) et durée",
  dipTable: "Creux de tension : tension résiduelle u et durée t",
  swellTable: "Surtensions : tension u et durée t",
  residual: "u (%)",
  swellVoltage: "u (%)",
  duration: "Durée",
  interruptionsShort: "Coupures brèves (≤ 3 min)",
  interruptionsLong: "Coupures longues (> 3 min)",
  rvc: "Variations rapides de tension",
  msv: "Tensions de signalisation",
  outsideTables: "Creux et surtensions de plus de 60 s",
  eventList: "Événements de la période",
  noEvents: "Aucun événement de tension sur la période.",
  eventsListed: "Les {shown} plus récents des {total} événements sont listés.",
  start: "Début",
  type: "Type",
  extreme: "Extrême",
  tableCell: "Case du tableau",
  eventTypes: {
    DIP: "Creux",
    SWELL: "Surtension",
    RVC: "RVC",
    INTERRUPTION: "Coupure",
    MSV: "MSV",
  },
};

const DE: MoreTexts = {
  trends: "Verläufe und Summenhäufigkeit",
  trendOf: "Verlauf im Zeitraum",
  trendCaption:
    "10-Minuten-Werte je Phase (Spanne je gezeichnetem Schritt); schattiert: zulässiges Band; gestrichelt: 100-%-Band; senkrechte Linien: ISO-Wochen",
  weekLine: "ISO-Woche",
  allowed: "zulässig",
  band100: "100-%-Band",
  cdf: "Summenhäufigkeit",
  cdfCaption: "Anteil der gültigen Intervalle bis zu einem Wert; rot: Grenzwert",
  deviation: "Abweichung vom Nennwert, %",
  probability: "%",
  noValues: "Kein gültiges Intervall",
  events: "Spannungsereignisse (EN 50160)",
  eventsCaption:
    "Ereignisse, die die Zelle des Knotens im Zeitraum aufgezeichnet hat, nach Rest- bzw. Überspannung (% der Bezugsspannung) und Dauer",
  dipTable: "Spannungseinbrüche: Restspannung u und Dauer t",
  swellTable: "Spannungserhöhungen: Spannung u und Dauer t",
  residual: "u (%)",
  swellVoltage: "u (%)",
  duration: "Dauer",
  interruptionsShort: "Kurze Unterbrechungen (≤ 3 min)",
  interruptionsLong: "Lange Unterbrechungen (> 3 min)",
  rvc: "Schnelle Spannungsänderungen",
  msv: "Signalspannungen",
  outsideTables: "Einbrüche und Erhöhungen über 60 s",
  eventList: "Ereignisse im Zeitraum",
  noEvents: "Kein Spannungsereignis im Zeitraum.",
  eventsListed: "Die neuesten {shown} von {total} Ereignissen sind aufgeführt.",
  start: "Beginn",
  type: "Art",
  extreme: "Extremwert",
  tableCell: "Tabellenfeld",
  eventTypes: {
    DIP: "Einbruch",
    SWELL: "Erhöhung",
    RVC: "RVC",
    INTERRUPTION: "Unterbrechung",
    MSV: "MSV",
  },
};

const UK: MoreTexts = {
  trends: "Тренди та інтегральна ймовірність",
  trendOf: "Тренд за період",
  trendCaption:
    "10-хвилинні значення за фазами (діапазон на крок графіка); затінено: допустима смуга; пунктир: смуга 100 %; вертикальні лінії: тижні ISO",
  weekLine: "Тиждень ISO",
  allowed: "допустимо",
  band100: "смуга 100 %",
  cdf: "Інтегральна ймовірність",
  cdfCaption: "Частка дійсних інтервалів зі значенням не більше заданого; червоне: межа",
  deviation: "відхилення від номіналу, %",
  probability: "%",
  noValues: "Немає дійсних інтервалів",
  events: "Події напруги (EN 50160)",
  eventsCaption:
    "Події, зареєстровані коміркою вузла за період, за залишковою напругою або перенапругою (% опорної напруги) і тривалістю",
  dipTable: "Провали напруги: залишкова напруга u і тривалість t",
  swellTable: "Перенапруги: напруга u і тривалість t",
  residual: "u (%)",
  swellVoltage: "u (%)",
  duration: "Тривалість",
  interruptionsShort: "Короткі перерви (≤ 3 хв)",
  interruptionsLong: "Довгі перерви (> 3 хв)",
  rvc: "Швидкі зміни напруги",
  msv: "Сигнальні напруги",
  outsideTables: "Провали й перенапруги довше 60 с",
  eventList: "Події за період",
  noEvents: "За період подій напруги немає.",
  eventsListed: "Наведено {shown} найновіших із {total} подій.",
  start: "Початок",
  type: "Тип",
  extreme: "Екстремум",
  tableCell: "Клітинка таблиці",
  eventTypes: {
    DIP: "Провал",
    SWELL: "Перенапруга",
    RVC: "RVC",
    INTERRUPTION: "Перерва",
    MSV: "MSV",
  },
};

/** The texts of a language. */
export const MORE_TEXTS: Readonly<Record<ReportLanguage, MoreTexts>> = {
  en: EN,
  fr: FR,
  de: DE,
  uk: UK,
};
