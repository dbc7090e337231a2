/**
 * Texts of the e-mails in the interface languages (en, fr, de, uk): the e-mail validation mail
 * and one mail per notification, worded like the notification centre (spec 2.7).
 */
import type { NotificationInfo, NotificationType } from "./schema.ts";

export const MAIL_LANGUAGES = ["en", "fr", "de", "uk"] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** The language of a mail: the user's if it is one of the four, else English. */
export function mailLanguage(language: string | null | undefined): MailLanguage {
  const base = (language ?? "").slice(0, 2).toLowerCase();
  return (MAIL_LANGUAGES as readonly string[]).includes(base) ? base as MailLanguage : "en";
}

interface Texts {
  validationSubject: string;
  validationBody: (name: string, link: string) => string;
  notificationSubject: (type: string) => string;
  footer: string;
  types: Record<NotificationType, string>;
  nodeAlarms: (count: number, node: string) => string;
  nodesCleared: (count: number) => string;
  triggerStarted: (node: string) => string;
  triggerFailed: (node: string) => string;
  cellsToConfigure: (count: number) => string;
  mappingCorrect: (node: string) => string;
  mappingInvalid: (node: string, status: string) => string;
  stateDone: (type: string) => string;
  stateFailed: (type: string) => string;
  ioStateChanged: (module: string, channel: number, node: string, on: boolean) => string;
  scadaConnection: (profile: string, state: string, address: string) => string;
}

const TEXTS: Record<MailLanguage, Texts> = {
  en: {
    validationSubject: "GridWatch: confirm your e-mail address",
    validationBody: (name, link) =>
      `Hello ${name},\n\nplease confirm your e-mail address for GridWatch notifications by opening this link:\n\n${link}\n\nIf you did not ask for this, ignore this e-mail.`,
    notificationSubject: (type) => `GridWatch notification: ${type}`,
    footer: "You receive this e-mail because e-mail notifications are on in My Profile & Settings.",
    types: {
      GRID_MONITORING: "Grid Monitoring",
      DATA_EXPORT: "Data Export",
      POWER_QUALITY: "Power Quality",
      SETUP_INFORMATION: "Infrastructure Setup",
      IO_MONITORING: "IO Monitoring",
      CONNECTOR_SCADA: "SCADA Connector",
    },
    nodeAlarms: (n, node) => n === 1 ? `New alarm at ${node}` : `${n} new alarms in the grid`,
    nodesCleared: (n) => n === 1 ? "One node is back to normal" : `${n} nodes are back to normal`,
    triggerStarted: (node) => `Automatic request at ${node} started successfully`,
    triggerFailed: (node) =>
      `Automatic request at ${node} not started: another request was running`,
    cellsToConfigure: (n) =>
      n === 1
        ? "One cell is waiting for configuration"
        : `${n} cells are waiting for configuration`,
    mappingCorrect: (node) => `The line mapping at ${node} is correct`,
    mappingInvalid: (node, status) => `The line mapping at ${node} is not valid (${status})`,
    stateDone: (type) => `${type}: ready for download`,
    stateFailed: (type) => `${type}: failed`,
    ioStateChanged: (module, channel, node, on) =>
      `${module} channel ${channel} at ${node} is ${on ? "on" : "off"}`,
    scadaConnection: (profile, state, address) =>
      state === "CONNECTED"
        ? `SCADA master ${address} connected to profile ${profile}`
        : state === "DISCONNECTED"
        ? `SCADA master ${address} disconnected from profile ${profile}`
        : `SCADA profile ${profile} cannot listen on port ${address}`,
  },
  fr: {
    validationSubject: "GridWatch : confirmez votre adresse e-mail",
    validationBody: (name, link) =>
      `Bonjour ${name},\n\nveuillez confirmer votre adresse e-mail pour les notifications GridWatch en ouvrant ce lien :\n\n${link}\n\nSi vous n'avez rien demandé, ignorez cet e-mail.`,
    notificationSubject: (type) => `Notification GridWatch : ${type}`,
    footer:
      "Vous recevez cet e-mail car les notifications par e-mail sont activées dans Mon profil et paramètres.",
    types: {
      GRID_MONITORING: "Surveillance du réseau",
      DATA_EXPORT: "Export de données",
      POWER_QUALITY: "Qualité de tension",
      SETUP_INFORMATION: "Configuration de l'infrastructure",
      IO_MONITORING: "Surveillance E/S",
      CONNECTOR_SCADA: "Connecteur SCADA",
    },
    nodeAlarms: (n, node) =>
      n === 1 ? `Nouvelle alarme à ${node}` : `${n} nouvelles alarmes dans le réseau`,
    nodesCleared: (n) =>
      n === 1 ? "Un nœud est revenu à la normale" : `${n} nœuds sont revenus à la normale`,
    triggerStarted: (node) => `Requête automatique à ${node} démarrée avec succès`,
    triggerFailed: (node) =>
      `Requête automatique à ${node} non démarrée : une autre requête était en cours`,
    cellsToConfigure: (n) =>
      n === 1
        ? "Une cellule attend sa configuration"
        : `${n} cellules attendent leur configuration`,
    mappingCorrect: (node) => `Le mappage de ligne à ${node} est correct`,
    mappingInvalid: (node, status) => `Le mappage de ligne à ${node} n'est pas valide (${status})`,
    stateDone: (type) => `${type} : prêt au téléchargement`,
    stateFailed: (type) => `${type} : échec`,
    ioStateChanged: (module, channel, node, on) =>
      `${module} canal ${channel} à ${node} : ${on ? "activé" : "désactivé"}`,
    scadaConnection: (profile, state, address) =>
      state === "CONNECTED"
        ? `Maître SCADA ${address} connecté au profil ${profile}`
        : state === "DISCONNECTED"
        ? `Maître SCADA ${address} déconnecté du profil ${profile}`
        : `Le profil SCADA ${profile} ne peut pas écouter sur le port ${address}`,
  },
  de: {
    validationSubject: "GridWatch: Bestätigen Sie Ihre E-Mail-Adresse",
    validationBody: (name, link) =>
      `Guten Tag ${name},\n\nbitte bestätigen Sie Ihre E-Mail-Adresse für GridWatch-Benachrichtigungen mit diesem Link:\n\n${link}\n\nFalls Sie dies nicht angefordert haben, ignorieren Sie diese E-Mail.`,
    notificationSubject: (type) => `GridWatch-Benachrichtigung: ${type}`,
    footer:
      "Sie erhalten diese E-Mail, weil E-Mail-Benachrichtigungen in Mein Profil & Einstellungen aktiviert sind.",
    types: {
      GRID_MONITORING: "Netzüberwachung",
      DATA_EXPORT: "Datenexport",
      POWER_QUALITY: "Spannungsqualität",
      SETUP_INFORMATION: "Infrastruktur-Einrichtung",
      IO_MONITORING: "E/A-Überwachung",
      CONNECTOR_SCADA: "SCADA-Konnektor",
    },
    nodeAlarms: (n, node) => n === 1 ? `Neuer Alarm bei ${node}` : `${n} neue Alarme im Netz`,
    nodesCleared: (n) =>
      n === 1 ? "Ein Knoten ist wieder normal" : `${n} Knoten sind wieder normal`,
    triggerStarted: (node) => `Automatische Anfrage bei ${node} erfolgreich gestartet`,
    triggerFailed: (node) =>
      `Automatische Anfrage bei ${node} nicht gestartet: eine andere Anfrage lief bereits`,
    cellsToConfigure: (n) =>
      n === 1 ? "Eine Zelle wartet auf Konfiguration" : `${n} Zellen warten auf Konfiguration`,
    mappingCorrect: (node) => `Die Leitungszuordnung bei ${node} ist korrekt`,
    mappingInvalid: (node, status) =>
      `Die Leitungszuordnung bei ${node} ist nicht gültig (${status})`,
    stateDone: (type) => `${type}: bereit zum Herunterladen`,
    stateFailed: (type) => `${type}: fehlgeschlagen`,
    ioStateChanged: (module, channel, node, on) =>
      `${module} Kanal ${channel} bei ${node} ist ${on ? "ein" : "aus"}`,
    scadaConnection: (profile, state, address) =>
      state === "CONNECTED"
        ? `SCADA-Master ${address} mit Profil ${profile} verbunden`
        : state === "DISCONNECTED"
        ? `SCADA-Master ${address} von Profil ${profile} getrennt`
        : `SCADA-Profil ${profile} kann nicht auf Port ${address} lauschen`,
  },
  uk: {
    validationSubject: "GridWatch: підтвердьте свою адресу електронної пошти",
    validationBody: (name, link) =>
      `Вітаємо, ${name}!\n\nПідтвердьте свою адресу електронної пошти для сповіщень GridWatch, відкривши це посилання:\n\n${link}\n\nЯкщо ви цього не запитували, проігноруйте цей лист.`,
    notificationSubject: (type) => `Сповіщення GridWatch: ${type}`,
    footer:
      "Ви отримали цей лист, бо сповіщення електронною поштою увімкнено в розділі «Мій профіль і налаштування».",
    types: {
      GRID_MONITORING: "Моніторинг мережі",
      DATA_EXPORT: "Експорт даних",
      POWER_QUALITY: "Якість електроенергії",
      SETUP_INFORMATION: "Налаштування інфраструктури",
      IO_MONITORING: "Моніторинг входів/виходів",
      CONNECTOR_SCADA: "Конектор SCADA",
    },
    nodeAlarms: (n, node) => n === 1 ? `Нова тривога: ${node}` : `Нових тривог у мережі: ${n}`,
    nodesCleared: (n) =>
      n === 1 ? "Один вузол повернувся до норми" : `Вузлів, що повернулися до норми: ${n}`,
    triggerStarted: (node) => `Автоматичний запит на ${node} успішно запущено`,
    triggerFailed: (node) => `Автоматичний запит на ${node} не запущено: виконувався інший запит`,
    cellsToConfigure: (n) =>
      n === 1 ? "Одна комірка очікує налаштування" : `Комірок, що очікують налаштування: ${n}`,
    mappingCorrect: (node) => `Відповідність ліній на ${node} правильна`,
    mappingInvalid: (node, status) => `Відповідність ліній на ${node} неправильна (${status})`,
    stateDone: (type) => `${type}: готово до завантаження`,
    stateFailed: (type) => `${type}: помилка`,
    ioStateChanged: (module, channel, node, on) =>
      `${module}, канал ${channel} на ${node}: ${on ? "увімкнено" : "вимкнено"}`,
    scadaConnection: (profile, state, address) =>
      state === "CONNECTED"
        ? `SCADA-майстер ${address} підключився до профілю ${profile}`
        : state === "DISCONNECTED"
        ? `SCADA-майстер ${address} відключився від профілю ${profile}`
        : `Профіль SCADA ${profile} не може слухати порт ${address}`,
  },
};

/** The validation mail of `users.emailValidationRequested`. */
export function validationMail(
  language: string,
  name: string,
  link: string,
): { subject: string; text: string } {
  const t = TEXTS[mailLanguage(language)];
  return { subject: t.validationSubject, text: t.validationBody(name, link) };
}

/** One line describing a notification (the same reading as the bell, spec 2.7). */
export function notificationLine(
  language: string,
  n: { type: NotificationType; name: string; info: NotificationInfo },
): string {
  const t = TEXTS[mailLanguage(language)];
  const node = n.info.node_name ?? n.info.ew_name ?? "-";
  switch (n.name) {
    case "NODE_STATE_CHANGED":
      return (n.info.number_of_alarms ?? 0) > 0
        ? t.nodeAlarms(n.info.number_of_alarms!, node)
        : t.nodesCleared(n.info.counter ?? 0);
    case "AUTOMATIC_REQUEST_TRIGGER":
      return n.info.status === "FAILURE" ? t.triggerFailed(node) : t.triggerStarted(node);
    case "CELLS_TO_CONFIGURE":
      return t.cellsToConfigure(n.info.number_of_alarms ?? 0);
    case "MAPPING_VALIDATED":
      return n.info.status === "CORRECT"
        ? t.mappingCorrect(node)
        : t.mappingInvalid(node, n.info.status ?? "-");
    case "IO_STATE_CHANGED":
      return t.ioStateChanged(
        n.info.status ?? "-",
        n.info.counter ?? 1,
        node,
        n.info.state === "ON",
      );
    case "SCADA_CONNECTION":
      return t.scadaConnection(n.info.node_name ?? "-", n.info.state ?? "-", n.info.status ?? "-");
    default:
      return n.info.state === "DONE"
        ? t.stateDone(t.types[n.type])
        : t.stateFailed(t.types[n.type]);
  }
}

/** The mail of one notification. */
export function notificationMail(
  language: string,
  n: { type: NotificationType; name: string; info: NotificationInfo },
): { subject: string; text: string } {
  const t = TEXTS[mailLanguage(language)];
  return {
    subject: t.notificationSubject(t.types[n.type]),
    text: `${notificationLine(language, n)}\n\n${t.footer}`,
  };
}
