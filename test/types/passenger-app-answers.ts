/**
 * The passenger app's answer types (services/passenger-app/src/types.ts) checked against the
 * passenger API's response schemas, the ones its OpenAPI document publishes. The app may not import
 * server modules, so it names the members it reads itself; `npm run typecheck` compiles this file
 * and fails when an answer no longer fits what the app reads: a member renamed, removed, retyped
 * or made nullable, an enum widened, or a member the app names that the answer does not have.
 */
import type { passengerProfileSchema } from "../../services/passenger-api/me-routes.js";
import type {
  passengerOfferSchema,
  passengerTransportSchema,
  passengerWalletSchema,
} from "../../services/passenger-api/passenger-schemas.js";
import type { passengerNotificationSchema } from "../../services/notifications/notification-schemas.js";
import type {
  MeProfile,
  NotificationPage,
  Offer,
  Transport,
  Wallet,
} from "../../services/passenger-app/src/types.js";
import type { Infer } from "../../src/http/json-schema.js";
import type { pageSchema } from "../../src/http/schemas/common.js";

/** The members `App` names, at any depth, that `Server` does not have (never when there are none). */
type Unanswered<App, Server> =
  NonNullable<App> extends readonly (infer A)[]
    ? Unanswered<A, NonNullable<Server> extends readonly (infer S)[] ? S : never>
    : NonNullable<App> extends object
      ? {
          [K in keyof NonNullable<App>]-?: K extends keyof NonNullable<Server>
            ? Unanswered<NonNullable<App>[K], NonNullable<Server>[K]>
            : K;
        }[keyof NonNullable<App>]
      : never;

/** `true` when every answer `Schema` allows is a value of `App` and App names nothing else. */
type Reads<App, Schema> = [Infer<Schema>] extends [App]
  ? [Unanswered<App, Infer<Schema>>] extends [never]
    ? true
    : { unanswered: Unanswered<App, Infer<Schema>> }
  : { doesNotFit: Infer<Schema> };

export const answersTheAppReads: [
  Reads<MeProfile, typeof passengerProfileSchema>,
  Reads<Offer, typeof passengerOfferSchema>,
  Reads<Transport, typeof passengerTransportSchema>,
  Reads<Wallet, typeof passengerWalletSchema>,
  Reads<NotificationPage, ReturnType<typeof pageSchema<typeof passengerNotificationSchema>>>,
] = [true, true, true, true, true];
