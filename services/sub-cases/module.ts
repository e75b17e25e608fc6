import { instanceCachingFactory } from "tsyringe";
import { CaseResolutionActor } from "../../actors/CaseResolutionActor.js";
import { SubCaseActor } from "../../actors/SubCaseActor.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import { ReservationIndex } from "../../src/app/booking/reservation-index.js";
import type { PassengerNotifier } from "../../src/app/notifications/passenger-notifier.js";
import { CaseProgressReads } from "../../src/app/sub-cases/case-progress.js";
import { CompensationSteps } from "../../src/app/sub-cases/compensation-steps.js";
import { SubCaseSagas } from "../../src/app/sub-cases/sub-case-sagas.js";
import { registerSubCaseSaga } from "../../src/workflows/sub-case-saga/registration.js";
import { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { SubCaseLocks } from "../../src/app/sub-cases/sub-case-locks.js";
import { SubmitCompensation } from "../../src/app/sub-cases/submit-compensation.js";
import { TransportLeg } from "../../src/app/sub-cases/transport-leg.js";
import { WalletLeg } from "../../src/app/sub-cases/wallet-leg.js";
import { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import { IssueWalletCard } from "../../src/app/wallet/issue-wallet-card.js";
import { SyncSubCases } from "../../src/app/sub-cases/sync-sub-cases.js";
import { CONSOLE_CLIENT_ID } from "../../src/identity/identity-provider.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { channelRoute } from "../realtime/channel-route.js";
import { realtimeSubscriptions } from "../realtime/fan-out-subscriptions.js";
import { logoutRoute } from "../realtime/logout-route.js";
import { OperatorLogout } from "../realtime/operator-logout.js";
import { RealtimeHub } from "../realtime/realtime-hub.js";
import { RefreshTokenRevocation } from "../realtime/refresh-token-revocation.js";
import { progressRoutes } from "./progress-routes.js";
import { subCaseRoutes } from "./sub-case-routes.js";
import { subCaseSubscriptions } from "./sub-case-subscriptions.js";

/**
 * Sub-cases and their operator locks, with the operator real-time channel that releases a lock
 * when its holder's connection drops, and the logout that closes those connections first. The
 * channel's WebSocket server itself is attached to the operator host by the composition root
 * (`attachRealtime` in services/realtime/realtime-channel.ts), with this module's hub.
 */
export const subCasesModule: ServiceModule = {
  name: "sub-cases",
  actorTypes: [SubCaseActor, CaseResolutionActor],
  registerWorkflows: (registry, context) =>
    registerSubCaseSaga(registry, () => context().container.resolve(CompensationSteps)),
  register: (container) => {
    registerSingletons(container, [
      SubCaseIndex,
      SubCaseLocks,
      SubCaseSagas,
      SubmitCompensation,
      SyncSubCases,
      AnswerOffer,
      CaseProgressReads,
    ]);
    container.register(CompensationSteps, {
      useFactory: instanceCachingFactory(
        (c) =>
          new CompensationSteps({
            actors: c.resolve(TOKENS.actors),
            bus: c.resolve(TOKENS.bus),
            clock: c.resolve(TOKENS.clock),
            index: c.resolve(SubCaseIndex),
            reservations: c.resolve(ReservationIndex),
            vendors: c.resolve(TOKENS.vendors),
            contracts: c.resolve(DirectContracts),
            // Notifications bind the notifier in their own module; without one the offer goes out unannounced.
            notifier: c.isRegistered(TOKENS.passengerNotifier, true)
              ? c.resolve<PassengerNotifier>(TOKENS.passengerNotifier)
              : undefined,
            // The wallet and transport modules register their use cases; without them the legs are skipped.
            walletLeg: c.isRegistered(IssueWalletCard, true) ? c.resolve(WalletLeg) : undefined,
            transportLeg: c.isRegistered(CaseTransfers, true) ? c.resolve(TransportLeg) : undefined,
            logger: c.resolve(TOKENS.logger),
          }),
      ),
    });
    container.register(RealtimeHub, {
      useFactory: instanceCachingFactory(
        (c) => new RealtimeHub(c.resolve(TOKENS.runtime), c.resolve(SubCaseLocks)),
      ),
    });
  },
  // The fan-out reaches the operator connections, which the operator API's process holds.
  subscriptions: (context, tenants) => ({
    workers: subCaseSubscriptions(context, tenants),
    "operator-api": realtimeSubscriptions(context, tenants),
  }),
  routes: ({ config, runtime, container }) => {
    const authUrl = config.oidcIssuer ?? `${config.publicBaseUrl}/auth`;
    const revocation = new RefreshTokenRevocation(authUrl, CONSOLE_CLIENT_ID);
    return [
      ...subCaseRoutes(
        runtime.actors,
        container.resolve(SubCaseLocks),
        container.resolve(SubmitCompensation),
      ),
      ...progressRoutes(container.resolve(CaseProgressReads)),
      logoutRoute(new OperatorLogout(runtime, container.resolve(RealtimeHub), revocation)),
      channelRoute(),
    ];
  },
  start: async ({ container }) => {
    await container.resolve(SubCaseIndex).ensureIndexes();
    await container.resolve(RealtimeHub).updates.ensureIndexes();
  },
};
