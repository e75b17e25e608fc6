import { useState } from "preact/hooks";
import { dateTime, localDate } from "./format.js";
import { format } from "./i18n/index.js";
import { openStreetMapUrl } from "./map-link.js";
import type { ScreenContext } from "./offer-screen.js";
import { ProblemView } from "./problem-view.js";
import type { Offer } from "./types.js";
import { useAction } from "./use-action.js";

/** The decline reason's limit in the passenger OpenAPI document (the service's reason schema). */
const REASON_MAX_LENGTH = 2000;

interface HotelProps extends ScreenContext {
  offer: Offer;
  onOffer: (offer: Offer) => void;
}

/** Where the offer stands, the hotel, its voucher, and the answer to give. */
export function HotelSection({ api, t, language, offer, onOffer }: HotelProps) {
  const stay = offer.offer;
  if (!stay) {
    return (
      <section class="card" aria-labelledby="waiting-title">
        <h2 id="waiting-title">{t.offerWaitingTitle}</h2>
        <p>{statusLine(offer, t, language) ?? t.offerWaitingText}</p>
      </section>
    );
  }
  const { hotel, voucher } = stay;
  return (
    <>
      <section class="card" aria-labelledby="hotel-title">
        <h2 id="hotel-title">{t.hotelTitle}</h2>
        <p class={`status status-${offer.status.toLowerCase()}`} role="status">
          {statusLine(offer, t, language)}
        </p>
        {offer.drill ? <p class="note">{t.drill}</p> : null}
        <p class="hotel-name">{hotel.name}</p>
        <p>
          <span class="label">{t.address}: </span>
          {hotel.address}
        </p>
        {hotel.coordinates ? (
          <p>
            <a href={openStreetMapUrl(hotel.coordinates)} target="_blank" rel="noopener noreferrer">
              {t.openMap}
            </a>
          </p>
        ) : null}
        <p>
          {format(t.stayDates, {
            checkIn: localDate(language, stay.checkIn),
            checkOut: localDate(language, stay.checkOut),
          })}
        </p>
        <p>
          {format(t.stayNights, { nights: stay.nights })} · {format(t.stayRooms, { rooms: stay.rooms })}
        </p>
        {offer.status === "OFFER_READY" ? (
          <Answer api={api} t={t} language={language} onOffer={onOffer} />
        ) : null}
      </section>
      <section class="card voucher" aria-labelledby="voucher-title">
        <h2 id="voucher-title">{t.voucherTitle}</h2>
        {voucher.validity === "VALID" ? (
          <>
            <p>{t.voucherHelp}</p>
            <img class="qr" src={voucher.qrCode} alt={t.voucherQrAlt} width={240} height={240} />
            <p>
              <span class="label">{t.verificationCode}: </span>
              <strong class="code">{voucher.verificationCode}</strong>
            </p>
          </>
        ) : (
          <p class="problem">{t.voucherVoid}</p>
        )}
        <p>
          <a href={voucher.printableUrl} target="_blank" rel="noopener">
            {t.printVoucher}
          </a>
        </p>
      </section>
    </>
  );
}

function statusLine(offer: Offer, t: HotelProps["t"], language: string): string | undefined {
  // The passenger's own answer first: after a decline the saga may still end FAILED or
  // COMPENSATION_FAILED (the room could not be cancelled), which is the operators' to handle.
  if (offer.answer?.kind === "DECLINED") return t.statusDeclined;
  if (offer.answer?.kind === "ACCEPTED") return t.statusAccepted;
  switch (offer.status) {
    case "OFFER_READY":
      return offer.answerBy
        ? format(t.statusOfferReadyBy, { deadline: dateTime(language, offer.answerBy) })
        : t.statusOfferReady;
    case "RESOLVED":
      return t.statusAccepted;
    case "DECLINED":
      return t.statusDeclined;
    case "FAILED":
    case "COMPENSATION_FAILED":
      return t.statusFailed;
    default:
      return undefined;
  }
}

/** Accept, or decline with a reason (spec 4.4). */
function Answer({ api, t, onOffer }: ScreenContext & { onOffer: (offer: Offer) => void }) {
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("");
  const accept = useAction(async () => onOffer(await api.accept()));
  const decline = useAction(async () => onOffer(await api.decline(reason.trim())));
  if (declining) {
    return (
      <form
        class="answer"
        onSubmit={(event) => {
          event.preventDefault();
          void decline.run();
        }}
      >
        <label for="decline-reason">{t.declineReason}</label>
        <textarea
          id="decline-reason"
          required
          maxLength={REASON_MAX_LENGTH}
          rows={3}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
        <ProblemView problem={decline.problem} />
        <div class="buttons">
          <button type="submit" class="danger" disabled={decline.busy || reason.trim() === ""}>
            {t.sendDecline}
          </button>
          <button type="button" onClick={() => setDeclining(false)}>
            {t.cancel}
          </button>
        </div>
      </form>
    );
  }
  return (
    <div class="answer">
      <ProblemView problem={accept.problem} />
      <div class="buttons">
        <button type="button" class="primary" disabled={accept.busy} onClick={() => void accept.run()}>
          {t.accept}
        </button>
        <button type="button" onClick={() => setDeclining(true)}>
          {t.decline}
        </button>
      </div>
    </div>
  );
}
