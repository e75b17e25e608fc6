import { useState } from "preact/hooks";
import { dateTime, money } from "./format.js";
import { format } from "./i18n/index.js";
import type { ScreenContext } from "./offer-screen.js";
import { ProblemView } from "./problem-view.js";
import type { Loaded, Offer, Transport, Wallet } from "./types.js";
import { useAction } from "./use-action.js";

interface StayProps extends ScreenContext {
  offer: Offer;
  transport: Loaded<Transport>;
  wallet: Loaded<Wallet>;
  onCheckedIn: () => void;
  onTransport: (transport: Transport) => void;
}

/** Check-in, transport and the meal card: what the group holds once it has an offer. */
export function StaySections(props: StayProps) {
  return (
    <>
      <CheckInSection {...props} />
      <TransportSection {...props} />
      <WalletSection {...props} />
    </>
  );
}

function CheckInSection({ api, t, offer, onCheckedIn }: StayProps) {
  const checkIn = useAction(async () => {
    await api.checkIn();
    onCheckedIn();
  });
  const reservation = offer.offer?.reservationStatus;
  if (offer.status !== "RESOLVED") return null;
  return (
    <section class="card" aria-labelledby="check-in-title">
      <h2 id="check-in-title">{t.checkInTitle}</h2>
      {reservation === "CHECKED_IN" ? (
        <p role="status">{t.checkedIn}</p>
      ) : (
        <>
          <ProblemView problem={checkIn.problem} />
          <button type="button" class="primary" disabled={checkIn.busy} onClick={() => void checkIn.run()}>
            {t.checkIn}
          </button>
        </>
      )}
    </section>
  );
}

function TransportSection({ api, t, language, transport, onTransport }: StayProps) {
  const [requested, setRequested] = useState(false);
  const request = useAction(async () => {
    onTransport(await api.requestTransport());
    setRequested(true);
  });
  const value = transport.value;
  return (
    <section class="card" aria-labelledby="transport-title">
      <h2 id="transport-title">{t.transportTitle}</h2>
      <ProblemView problem={transport.problem} />
      {value ? (
        <>
          <p>{t[`transport${value.status}`]}</p>
          {value.legs.length > 0 ? (
            <ul class="plain">
              {value.legs.map((leg) => (
                <li key={leg.segmentUrn}>
                  <strong>
                    {leg.direction === "AIRPORT_TO_HOTEL" ? t.legAirportToHotel : t.legHotelToAirport}
                  </strong>
                  {" · "}
                  {leg.pickupLocation}
                  <br />
                  {format(t.pickupAt, { time: dateTime(language, leg.pickupTime) })}
                  {leg.etaAt ? ` · ${format(t.etaAt, { time: dateTime(language, leg.etaAt) })}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
          {value.onDemand.allowed ? (
            <button type="button" disabled={request.busy} onClick={() => void request.run()}>
              {t.requestTransport}
            </button>
          ) : (
            // The service's reason is written for operators, in English; the passenger reads this.
            <p class="note">{t.transportNotAllowed}</p>
          )}
          {requested ? <p role="status">{t.transportRequested}</p> : null}
          <ProblemView problem={request.problem} />
        </>
      ) : null}
    </section>
  );
}

function WalletSection({ api, t, language, wallet }: StayProps) {
  const [revealUrl, setRevealUrl] = useState<string>();
  const reveal = useAction(async () => setRevealUrl((await api.reveal()).url));
  const card = wallet.value?.card;
  return (
    <section class="card" aria-labelledby="wallet-title">
      <h2 id="wallet-title">{t.walletTitle}</h2>
      <ProblemView problem={wallet.problem} />
      {card ? (
        <>
          <p class="balance">
            {format(t.walletBalance, { amount: money(language, card.balance, card.currency) })}
          </p>
          <p>{format(t.walletAvailable, { amount: money(language, card.available, card.currency) })}</p>
          {card.status === "CANCELLED" ? (
            <p class="note">{t.walletCancelled}</p>
          ) : revealUrl ? (
            // The issuer's hosted page shows the number: it never passes through this service.
            <a class="button" href={revealUrl} target="_blank" rel="noopener noreferrer">
              {t.openCardPage}
            </a>
          ) : (
            <button type="button" disabled={reveal.busy} onClick={() => void reveal.run()}>
              {t.revealCard}
            </button>
          )}
          <ProblemView problem={reveal.problem} />
        </>
      ) : wallet.value ? (
        <p>{t.walletNone}</p>
      ) : null}
    </section>
  );
}
