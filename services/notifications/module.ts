import { CaseChanges } from "../../src/app/cases/case-changes.js";
import { ContactPreferences } from "../../src/app/notifications/contact-preferences.js";
import { NotificationDelivery } from "../../src/app/notifications/notification-delivery.js";
import { NotificationLog } from "../../src/app/notifications/notification-log.js";
import { DeliveryCallbacks } from "../../src/app/notifications/delivery-callbacks.js";
import { NotifyPassengers } from "../../src/app/notifications/notify-passengers.js";
import { PartnerNotifications } from "../../src/app/notifications/partner-notifications.js";
import { ResendNotifications } from "../../src/app/notifications/resend-notifications.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { notificationRoutes } from "./notification-routes.js";

/**
 * Passenger notifications (spec 1 step 9, 4.1, 6.3): the notifier the compensation saga and the
 * operators' resends call (TOKENS.passengerNotifier), the send log, and the providers' delivery
 * callbacks. The channels themselves are chosen by the composition root (TOKENS.notificationChannels).
 */
export const notificationsModule: ServiceModule = {
  name: "notifications",
  register: (container) => {
    registerSingletons(container, [
      NotificationLog,
      ContactPreferences,
      NotificationDelivery,
      NotifyPassengers,
    ]);
    container.register(TOKENS.passengerNotifier, { useFactory: (c) => c.resolve(NotifyPassengers) });
  },
  routes: ({ container }) =>
    notificationRoutes({
      cases: container.resolve(CaseChanges),
      log: container.resolve(NotificationLog),
      resend: container.resolve(ResendNotifications),
      callbacks: container.resolve(DeliveryCallbacks),
      partner: container.resolve(PartnerNotifications),
    }),
  start: async ({ container }) => {
    await container.resolve(NotificationLog).ensureIndexes();
  },
};
