import type { Problem } from "./problem.js";

/** A read of the screen: its latest answer, or the problem that kept it from loading. */
export interface Loaded<T> {
  value?: T;
  problem?: Problem;
}

/**
 * The passenger API's answers as the app reads them: the members it uses of the response schemas the
 * passenger OpenAPI document publishes. The app cannot import the server's schemas, so
 * test/types/passenger-app-answers.ts holds these types to them: `npm run typecheck` fails when an
 * answer no longer fits, or when a type here names a member the answer lacks.
 */
export interface MeProfile {
  caseUrn: string;
  caseStatus: string;
  flight: { number: string; origin: string; destination: string; scheduledDeparture: string };
  group: { id: string; pnr: string | null; subCaseUrn: string };
  passengers: { id: string; firstName: string | null; lastName: string; tier: string | null }[];
  tier: string | null;
  language: string | null;
}

export interface Offer {
  caseUrn: string;
  subCaseUrn: string;
  groupId: string;
  status: string;
  answer: { kind: "ACCEPTED" | "DECLINED"; at: string; reason: string | null } | null;
  answerBy: string | null;
  drill?: boolean;
  offer: {
    reservationUrn: string;
    reservationStatus: string;
    hotel: { name: string; address: string; coordinates: { lat: number; lon: number } | null };
    checkIn: string;
    checkOut: string;
    nights: number;
    rooms: number;
    voucher: {
      voucherUrn: string;
      validity: "VALID" | "VOID";
      verificationCode: string;
      qrCode: string;
      printableUrl: string;
    };
    walletCardUrl: string | null;
  } | null;
}

export interface TransportLeg {
  segmentUrn: string;
  direction: "AIRPORT_TO_HOTEL" | "HOTEL_TO_AIRPORT";
  status: string;
  vehicleType: string;
  pickupLocation: string;
  pickupTime: string;
  etaAt: string | null;
}

export interface Transport {
  status: "NONE" | "PENDING" | "BOOKED" | "DECLINED";
  legs: TransportLeg[];
  onDemand: { allowed: boolean; reason: string };
}

export interface Wallet {
  card: {
    cardUrn: string;
    status: string;
    currency: string;
    balance: number;
    available: number;
  } | null;
}

export interface PassengerNotification {
  notificationUrn: string;
  template: string;
  status: string;
  channel: "sms" | "messaging" | "email" | null;
  createdAt: string;
}

export interface NotificationPage {
  items: PassengerNotification[];
}
