import type { PassengerLanguage } from "./languages.js";

/**
 * The printable voucher's words in each passenger language (src/domain/languages.ts). Values of the
 * reservation (hotel, dates, names, codes) are printed as they are; only the page's own words change.
 */
export interface VoucherText {
  title: string;
  showAtReception: string;
  void: string;
  hotel: string;
  stay: string;
  stayCaption: string;
  checkIn: string;
  checkOut: string;
  nights: string;
  rooms: string;
  passengers: string;
  confirmationNumber: string;
  transport: string;
  airportToHotel: string;
  hotelToAirport: string;
  pickupLocation: string;
  pickupTime: string;
  vehicle: string;
  dispatcher: string;
  verification: string;
  verificationCode: string;
  qrAlt: (voucherUrn: string, code: string) => string;
  voucherLine: (voucherUrn: string, version: number) => string;
  amended: string;
}

export const VOUCHER_TEXT: Readonly<Record<PassengerLanguage, VoucherText>> = {
  en: {
    title: "Hotel voucher",
    showAtReception: "Show this voucher at the hotel reception.",
    void: "This voucher is void: the reservation was cancelled.",
    hotel: "Hotel",
    stay: "Stay",
    stayCaption: "Dates, rooms and passengers",
    checkIn: "Check-in",
    checkOut: "Check-out",
    nights: "Nights",
    rooms: "Rooms",
    passengers: "Passengers",
    confirmationNumber: "Confirmation number",
    transport: "Transport",
    airportToHotel: "From the airport to the hotel",
    hotelToAirport: "From the hotel to the airport",
    pickupLocation: "Pickup location",
    pickupTime: "Pickup time",
    vehicle: "Vehicle or driver",
    dispatcher: "Dispatcher",
    verification: "Verification",
    verificationCode: "Verification code",
    qrAlt: (urn, code) => `QR code of voucher ${urn} with verification code ${code}`,
    voucherLine: (urn, version) => `Voucher ${urn}, version ${version}`,
    amended: "amended",
  },
  es: {
    title: "Bono de hotel",
    showAtReception: "Presente este bono en la recepción del hotel.",
    void: "Este bono no es válido: la reserva fue cancelada.",
    hotel: "Hotel",
    stay: "Estancia",
    stayCaption: "Fechas, habitaciones y pasajeros",
    checkIn: "Entrada",
    checkOut: "Salida",
    nights: "Noches",
    rooms: "Habitaciones",
    passengers: "Pasajeros",
    confirmationNumber: "Número de confirmación",
    transport: "Transporte",
    airportToHotel: "Del aeropuerto al hotel",
    hotelToAirport: "Del hotel al aeropuerto",
    pickupLocation: "Lugar de recogida",
    pickupTime: "Hora de recogida",
    vehicle: "Vehículo o conductor",
    dispatcher: "Central",
    verification: "Verificación",
    verificationCode: "Código de verificación",
    qrAlt: (urn, code) => `Código QR del bono ${urn} con el código de verificación ${code}`,
    voucherLine: (urn, version) => `Bono ${urn}, versión ${version}`,
    amended: "modificado",
  },
  fr: {
    title: "Bon d'hôtel",
    showAtReception: "Présentez ce bon à la réception de l'hôtel.",
    void: "Ce bon n'est plus valable : la réservation a été annulée.",
    hotel: "Hôtel",
    stay: "Séjour",
    stayCaption: "Dates, chambres et passagers",
    checkIn: "Arrivée",
    checkOut: "Départ",
    nights: "Nuits",
    rooms: "Chambres",
    passengers: "Passagers",
    confirmationNumber: "Numéro de confirmation",
    transport: "Transport",
    airportToHotel: "De l'aéroport à l'hôtel",
    hotelToAirport: "De l'hôtel à l'aéroport",
    pickupLocation: "Lieu de prise en charge",
    pickupTime: "Heure de prise en charge",
    vehicle: "Véhicule ou chauffeur",
    dispatcher: "Régulation",
    verification: "Vérification",
    verificationCode: "Code de vérification",
    qrAlt: (urn, code) => `Code QR du bon ${urn} avec le code de vérification ${code}`,
    voucherLine: (urn, version) => `Bon ${urn}, version ${version}`,
    amended: "modifié",
  },
  de: {
    title: "Hotelgutschein",
    showAtReception: "Zeigen Sie diesen Gutschein an der Hotelrezeption vor.",
    void: "Dieser Gutschein ist ungültig: Die Reservierung wurde storniert.",
    hotel: "Hotel",
    stay: "Aufenthalt",
    stayCaption: "Daten, Zimmer und Fluggäste",
    checkIn: "Anreise",
    checkOut: "Abreise",
    nights: "Nächte",
    rooms: "Zimmer",
    passengers: "Fluggäste",
    confirmationNumber: "Bestätigungsnummer",
    transport: "Transfer",
    airportToHotel: "Vom Flughafen zum Hotel",
    hotelToAirport: "Vom Hotel zum Flughafen",
    pickupLocation: "Abholort",
    pickupTime: "Abholzeit",
    vehicle: "Fahrzeug oder Fahrer",
    dispatcher: "Disposition",
    verification: "Prüfung",
    verificationCode: "Prüfcode",
    qrAlt: (urn, code) => `QR-Code des Gutscheins ${urn} mit dem Prüfcode ${code}`,
    voucherLine: (urn, version) => `Gutschein ${urn}, Version ${version}`,
    amended: "geändert",
  },
  pt: {
    title: "Voucher de hotel",
    showAtReception: "Apresente este voucher na recepção do hotel.",
    void: "Este voucher não é válido: a reserva foi cancelada.",
    hotel: "Hotel",
    stay: "Estadia",
    stayCaption: "Datas, quartos e passageiros",
    checkIn: "Entrada",
    checkOut: "Saída",
    nights: "Noites",
    rooms: "Quartos",
    passengers: "Passageiros",
    confirmationNumber: "Número de confirmação",
    transport: "Transporte",
    airportToHotel: "Do aeroporto para o hotel",
    hotelToAirport: "Do hotel para o aeroporto",
    pickupLocation: "Local de embarque",
    pickupTime: "Hora de embarque",
    vehicle: "Veículo ou motorista",
    dispatcher: "Central",
    verification: "Verificação",
    verificationCode: "Código de verificação",
    qrAlt: (urn, code) => `Código QR do voucher ${urn} com o código de verificação ${code}`,
    voucherLine: (urn, version) => `Voucher ${urn}, versão ${version}`,
    amended: "alterado",
  },
};
