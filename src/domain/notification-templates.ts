/**
 * The passengers' notification texts, per template and language (src/domain/languages.ts picks the
 * language). One text serves every channel: short enough for an SMS, with a subject for e-mail.
 */
import { FALLBACK_LANGUAGE, type PassengerLanguage, passengerLanguage } from "./languages.js";
import type { NotificationTemplate } from "./notification.js";

export interface TemplateValues {
  /** The lead passenger's last name. */
  name: string;
  /** The disrupted flight, e.g. ZX100. */
  flight: string;
  /** Its departure airport, e.g. JFK. */
  origin: string;
  /** The magic link, or the passenger site where the passenger logs in with PNR and last name. */
  link: string;
  /** `transport-return`: the re-accommodated flight, e.g. ZX102. */
  nextFlight?: string;
  /** `transport-return`: when and where the ride back to the airport picks the group up. */
  pickupTime?: string;
  pickupLocation?: string;
}

export interface RenderedMessage {
  language: PassengerLanguage;
  subject: string;
  text: string;
}

type Text = { subject: string; text: string };

const TEXTS: Record<PassengerLanguage, Record<NotificationTemplate, Text>> = {
  en: {
    offer: {
      subject: "Flight {flight}: your hotel for tonight",
      text: "Dear {name}, flight {flight} from {origin} is cancelled and we have booked a hotel for you. See your offer and accept or decline it: {link}",
    },
    voucher: {
      subject: "Flight {flight}: your hotel voucher",
      text: "Dear {name}, your hotel voucher for flight {flight} is ready. Show it at the hotel: {link}",
    },
    "offer-reminder": {
      subject: "Flight {flight}: please answer your hotel offer",
      text: "Dear {name}, you have not yet answered your hotel offer for flight {flight}. Accept or decline it here: {link}",
    },
    "transport-return": {
      subject: "Flight {flight}: your ride back to the airport",
      text: "Dear {name}, your ride to the airport for flight {nextFlight} is booked: pickup at {pickupTime} from {pickupLocation}. Details: {link}",
    },
  },
  es: {
    offer: {
      subject: "Vuelo {flight}: su hotel para esta noche",
      text: "Estimado/a {name}: el vuelo {flight} desde {origin} está cancelado y le hemos reservado un hotel. Vea su oferta y acéptela o rechácela: {link}",
    },
    voucher: {
      subject: "Vuelo {flight}: su bono de hotel",
      text: "Estimado/a {name}: su bono de hotel para el vuelo {flight} está listo. Preséntelo en el hotel: {link}",
    },
    "offer-reminder": {
      subject: "Vuelo {flight}: responda a su oferta de hotel",
      text: "Estimado/a {name}: aún no ha respondido a su oferta de hotel para el vuelo {flight}. Acéptela o rechácela aquí: {link}",
    },
    "transport-return": {
      subject: "Vuelo {flight}: su traslado de vuelta al aeropuerto",
      text: "Estimado/a {name}: su traslado al aeropuerto para el vuelo {nextFlight} está reservado: recogida a las {pickupTime} en {pickupLocation}. Detalles: {link}",
    },
  },
  fr: {
    offer: {
      subject: "Vol {flight} : votre hôtel pour cette nuit",
      text: "Bonjour {name}, le vol {flight} au départ de {origin} est annulé et nous vous avons réservé un hôtel. Consultez votre offre et acceptez-la ou refusez-la : {link}",
    },
    voucher: {
      subject: "Vol {flight} : votre bon d'hôtel",
      text: "Bonjour {name}, votre bon d'hôtel pour le vol {flight} est prêt. Présentez-le à l'hôtel : {link}",
    },
    "offer-reminder": {
      subject: "Vol {flight} : merci de répondre à votre offre d'hôtel",
      text: "Bonjour {name}, vous n'avez pas encore répondu à votre offre d'hôtel pour le vol {flight}. Acceptez-la ou refusez-la ici : {link}",
    },
    "transport-return": {
      subject: "Vol {flight} : votre transfert vers l'aéroport",
      text: "Bonjour {name}, votre transfert vers l'aéroport pour le vol {nextFlight} est réservé : prise en charge à {pickupTime} à {pickupLocation}. Détails : {link}",
    },
  },
  de: {
    offer: {
      subject: "Flug {flight}: Ihr Hotel für heute Nacht",
      text: "Guten Tag {name}, der Flug {flight} ab {origin} ist annulliert und wir haben ein Hotel für Sie gebucht. Sehen Sie Ihr Angebot an und nehmen Sie es an oder lehnen Sie es ab: {link}",
    },
    voucher: {
      subject: "Flug {flight}: Ihr Hotelgutschein",
      text: "Guten Tag {name}, Ihr Hotelgutschein für den Flug {flight} ist bereit. Zeigen Sie ihn im Hotel vor: {link}",
    },
    "offer-reminder": {
      subject: "Flug {flight}: Bitte beantworten Sie Ihr Hotelangebot",
      text: "Guten Tag {name}, Sie haben Ihr Hotelangebot für den Flug {flight} noch nicht beantwortet. Nehmen Sie es hier an oder lehnen Sie es ab: {link}",
    },
    "transport-return": {
      subject: "Flug {flight}: Ihre Fahrt zurück zum Flughafen",
      text: "Guten Tag {name}, Ihre Fahrt zum Flughafen für den Flug {nextFlight} ist gebucht: Abholung um {pickupTime} bei {pickupLocation}. Details: {link}",
    },
  },
  pt: {
    offer: {
      subject: "Voo {flight}: o seu hotel para esta noite",
      text: "Caro(a) {name}, o voo {flight} de {origin} foi cancelado e reservámos um hotel para si. Veja a sua oferta e aceite-a ou recuse-a: {link}",
    },
    voucher: {
      subject: "Voo {flight}: o seu voucher de hotel",
      text: "Caro(a) {name}, o seu voucher de hotel para o voo {flight} está pronto. Apresente-o no hotel: {link}",
    },
    "offer-reminder": {
      subject: "Voo {flight}: responda à sua oferta de hotel",
      text: "Caro(a) {name}, ainda não respondeu à sua oferta de hotel para o voo {flight}. Aceite-a ou recuse-a aqui: {link}",
    },
    "transport-return": {
      subject: "Voo {flight}: o seu transfer de volta ao aeroporto",
      text: "Caro(a) {name}, o seu transfer para o aeroporto para o voo {nextFlight} está reservado: recolha às {pickupTime} em {pickupLocation}. Detalhes: {link}",
    },
  },
};

/** The template in the passenger's preferred language, or English (FALLBACK_LANGUAGE). */
export function renderNotification(
  template: NotificationTemplate,
  preferredLanguage: string | null | undefined,
  values: TemplateValues,
): RenderedMessage {
  const language = passengerLanguage(preferredLanguage);
  const text = TEXTS[language][template] ?? TEXTS[FALLBACK_LANGUAGE][template];
  const fill = (s: string) =>
    s.replace(
      /\{(name|flight|origin|link|nextFlight|pickupTime|pickupLocation)\}/g,
      (_, key: keyof TemplateValues) => values[key] ?? "",
    );
  return { language, subject: fill(text.subject), text: fill(text.text) };
}
