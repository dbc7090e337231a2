/** The texts of a report's PDF in the four languages of the product. */
import type { ReportLanguage } from "./contract.ts";
import { MORE_TEXTS, type MoreTexts } from "./pdf_texts_more.ts";

/** Every text of the PDF. */
export interface PdfTexts extends MoreTexts {
  title: string;
  utility: string;
  electricalWork: string;
  node: string;
  feeders: string;
  period: string;
  timezone: string;
  standard: string;
  verdict: string;
  passed: string;
  notPassed: string;
  notEvaluable: string;
  created: string;
  summary: string;
  parameter: string;
  phase: string;
  limit: string;
  value: string;
  max: string;
  result: string;
  availability: string;
  availabilityText: string;
  intervals: string;
  valid: string;
  flagged: string;
  missing: string;
  weeks: string;
  week: string;
  part: string;
  failedParameters: string;
  harmonics: string;
  harmonicsText: string;
  page: string;
  frequencyNote: string;
  parameters: Record<string, string>;
}

const EN: Omit<PdfTexts, keyof MoreTexts> = {
  title: "Power quality report",
  utility: "Utility",
  electricalWork: "Electrical work",
  node: "Node",
  feeders: "Feeders",
  period: "Period",
  timezone: "Time zone",
  standard: "Standard",
  verdict: "Result",
  passed: "Passed",
  notPassed: "Not passed",
  notEvaluable: "Not evaluable",
  created: "Created",
  summary: "Summary per parameter and phase",
  parameter: "Parameter",
  phase: "Phase",
  limit: "Limit",
  value: "P95 / P99.5",
  max: "Max",
  result: "Result",
  availability: "Data availability",
  availabilityText: "Valid 10-minute intervals of the voltage over the whole period",
  intervals: "Intervals",
  valid: "Valid (N)",
  flagged: "Flagged",
  missing: "Missing",
  weeks: "Evaluation per week",
  week: "ISO week",
  part: "Part",
  failedParameters: "Parameters not passed",
  harmonics: "Harmonics 2-25: 95th percentile against the limit",
  harmonicsText: "% of the fundamental, worst phase",
  page: "Page",
  frequencyNote: "Frequency is evaluated per week on the 10-minute extremes of the 20-s values.",
  parameters: {
    voltage: "Voltage deviation",
    frequency: "Frequency deviation",
    flicker: "Flicker Plt",
    unbalance: "Unbalance",
    thd: "THD",
    harmonic: "Harmonic",
  },
};

const FR: Omit<PdfTexts, keyof MoreTexts> = {
  title: "Rapport de qualité de l'énergie",
  utility: "Distributeur",
  electricalWork: "Ouvrage électrique",
  node: "Nœud",
  feeders: "Départs",
  period: "Période",
  timezone: "Fuseau horaire",
  standard: "Norme",
  verdict: "Résultat",
  passed: "Conforme",
  notPassed: "Non conforme",
  notEvaluable: "Non évaluable",
  created: "Créé le",
  summary: "Synthèse par paramètre et par phase",
  parameter: "Paramètre",
  phase: "Phase",
  limit: "Limite",
  value: "P95 / P99,5",
  max: "Max",
  result: "Résultat",
  availability: "Disponibilité des données",
  availabilityText: "Intervalles de 10 minutes valides de la tension sur toute la période",
  intervals: "Intervalles",
  valid: "Valides (N)",
  flagged: "Marqués",
  missing: "Manquants",
  weeks: "Évaluation par semaine",
  week: "Semaine ISO",
  part: "Partie",
  failedParameters: "Paramètres non conformes",
  harmonics: "Harmoniques 2-25 : 95e centile comparé à la limite",
  harmonicsText: "% du fondamental, phase la plus défavorable",
  page: "Page",
  frequencyNote:
    "La fréquence est évaluée par semaine sur les extrêmes 10 minutes des valeurs de 20 s.",
  parameters: {
    voltage: "Écart de tension",
    frequency: "Écart de fréquence",
    flicker: "Papillotement Plt",
    unbalance: "Déséquilibre",
    thd: "THD",
    harmonic: "Harmonique",
  },
};

const DE: Omit<PdfTexts, keyof MoreTexts> = {
  title: "Bericht zur Spannungsqualität",
  utility: "Netzbetreiber",
  electricalWork: "Anlage",
  node: "Knoten",
  feeders: "Abgänge",
  period: "Zeitraum",
  timezone: "Zeitzone",
  standard: "Norm",
  verdict: "Ergebnis",
  passed: "Bestanden",
  notPassed: "Nicht bestanden",
  notEvaluable: "Nicht auswertbar",
  created: "Erstellt",
  summary: "Übersicht je Merkmal und Phase",
  parameter: "Merkmal",
  phase: "Phase",
  limit: "Grenzwert",
  value: "P95 / P99,5",
  max: "Max",
  result: "Ergebnis",
  availability: "Datenverfügbarkeit",
  availabilityText: "Gültige 10-Minuten-Intervalle der Spannung im gesamten Zeitraum",
  intervals: "Intervalle",
  valid: "Gültig (N)",
  flagged: "Markiert",
  missing: "Fehlend",
  weeks: "Bewertung je Woche",
  week: "ISO-Woche",
  part: "Teil",
  failedParameters: "Nicht bestandene Merkmale",
  harmonics: "Oberschwingungen 2-25: 95. Perzentil und Grenzwert",
  harmonicsText: "% der Grundschwingung, ungünstigste Phase",
  page: "Seite",
  frequencyNote:
    "Die Frequenz wird je Woche über die 10-Minuten-Extremwerte der 20-s-Werte bewertet.",
  parameters: {
    voltage: "Spannungsabweichung",
    frequency: "Frequenzabweichung",
    flicker: "Flicker Plt",
    unbalance: "Unsymmetrie",
    thd: "THD",
    harmonic: "Oberschwingung",
  },
};

const UK: Omit<PdfTexts, keyof MoreTexts> = {
  title: "Звіт про якість електроенергії",
  utility: "Оператор мережі",
  electricalWork: "Електроустановка",
  node: "Вузол",
  feeders: "Фідери",
  period: "Період",
  timezone: "Часовий пояс",
  standard: "Стандарт",
  verdict: "Результат",
  passed: "Відповідає",
  notPassed: "Не відповідає",
  notEvaluable: "Неможливо оцінити",
  created: "Створено",
  summary: "Підсумок за параметрами та фазами",
  parameter: "Параметр",
  phase: "Фаза",
  limit: "Межа",
  value: "P95 / P99,5",
  max: "Макс",
  result: "Результат",
  availability: "Наявність даних",
  availabilityText: "Дійсні 10-хвилинні інтервали напруги за весь період",
  intervals: "Інтервали",
  valid: "Дійсні (N)",
  flagged: "Позначені",
  missing: "Відсутні",
  weeks: "Оцінка за тижнями",
  week: "Тиждень ISO",
  part: "Частина",
  failedParameters: "Параметри, що не відповідають",
  harmonics: "Гармоніки 2-25: 95-й процентиль порівняно з межею",
  harmonicsText: "% від основної гармоніки, найгірша фаза",
  page: "Сторінка",
  frequencyNote: "Частота оцінюється щотижня за 10-хвилинними екстремумами 20-секундних значень.",
  parameters: {
    voltage: "Відхилення напруги",
    frequency: "Відхилення частоти",
    flicker: "Флікер Plt",
    unbalance: "Несиметрія",
    thd: "THD",
    harmonic: "Гармоніка",
  },
};

/** The texts of a language. */
export const PDF_TEXTS: Readonly<Record<ReportLanguage, PdfTexts>> = {
  en: { ...EN, ...MORE_TEXTS.en },
  fr: { ...FR, ...MORE_TEXTS.fr },
  de: { ...DE, ...MORE_TEXTS.de },
  uk: { ...UK, ...MORE_TEXTS.uk },
};

/** The name of a summary parameter (`h5` reads "Harmonic 5"). */
export function parameterName(texts: PdfTexts, parameter: string): string {
  if (/^h\d+$/.test(parameter)) return `${texts.parameters.harmonic} ${parameter.slice(1)}`;
  return texts.parameters[parameter] ?? parameter;
}
