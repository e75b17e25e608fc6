import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { PassengerApi } from "./api.js";
import { format, type Language, type Messages } from "./i18n/index.js";
import {
  coalesce,
  type EventStream,
  type LiveOffer,
  liveOffer,
  type Scheduler,
  type ScreenRead,
} from "./live.js";
import { HotelSection } from "./hotel-section.js";
import { MessagesSection, ProblemReportSection } from "./messages-section.js";
import { ProblemView } from "./problem-view.js";
import { StaySections } from "./stay-sections.js";
import type { Loaded, MeProfile, NotificationPage, Offer, Transport, Wallet } from "./types.js";
import { asProblem } from "./use-action.js";

export interface ScreenContext {
  api: PassengerApi;
  t: Messages;
  language: Language;
}

interface OfferScreenProps extends ScreenContext {
  me: MeProfile;
  scheduler: Scheduler;
  openStream: (path: string) => EventStream;
}

/** The offer screen (spec 4.4): everything about the group's stay, kept current live. */
export function OfferScreen({ api, t, language, me, scheduler, openStream }: OfferScreenProps) {
  const [offer, setOffer] = useState<Loaded<Offer>>({});
  const [transport, setTransport] = useState<Loaded<Transport>>({});
  const [wallet, setWallet] = useState<Loaded<Wallet>>({});
  const [notifications, setNotifications] = useState<Loaded<NotificationPage>>({});
  const live = useRef<LiveOffer | undefined>(undefined);

  const loaders = useMemo(() => {
    const loader = <T,>(read: (fresh: boolean) => Promise<T>, set: (loaded: Loaded<T>) => void) => {
      let fresh = false;
      const load = coalesce(async () => {
        try {
          set({ value: await read(fresh) });
        } catch (error) {
          set({ problem: asProblem(error) });
        }
      });
      // The first read may come from the browser's private cache; later ones are reloads.
      return () => load().finally(() => (fresh = true));
    };
    return {
      offer: loader(api.offer, setOffer),
      transport: loader(api.transport, setTransport),
      notifications: loader(api.notifications, setNotifications),
      wallet: loader(api.wallet, setWallet),
    } satisfies Record<ScreenRead | "wallet", () => Promise<void>>;
  }, [api]);

  useEffect(() => {
    for (const load of Object.values(loaders)) void load();
    const stream = liveOffer({
      openStream,
      scheduler,
      reload: (reads) => {
        for (const read of reads) void loaders[read]();
      },
    });
    live.current = stream;
    return () => stream.close();
  }, [loaders]);

  const status = offer.value?.status;
  useEffect(() => {
    if (status) live.current?.offerIs(status);
  }, [status]);

  const cardUrl = offer.value?.offer?.walletCardUrl;
  useEffect(() => {
    if (cardUrl) void loaders.wallet();
  }, [cardUrl]);

  const context = { api, t, language };
  return (
    <main id="main">
      <h1>{t.appTitle}</h1>
      <p class="flight">
        {format(t.flight, {
          number: me.flight.number,
          origin: me.flight.origin,
          destination: me.flight.destination,
        })}
      </p>
      <ProblemView problem={offer.problem} />
      {offer.value ? (
        <HotelSection {...context} offer={offer.value} onOffer={(value) => setOffer({ value })} />
      ) : offer.problem ? null : (
        <p aria-busy="true">{t.loading}</p>
      )}
      {offer.value?.offer ? (
        <StaySections
          {...context}
          offer={offer.value}
          transport={transport}
          wallet={wallet}
          onCheckedIn={() => loaders.offer()}
          onTransport={(value) => setTransport({ value })}
        />
      ) : null}
      <MessagesSection {...context} notifications={notifications} />
      <ProblemReportSection {...context} />
    </main>
  );
}
