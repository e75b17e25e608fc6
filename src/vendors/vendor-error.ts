/**
 * Vendor failures classified exactly as spec part 7's vendor table:
 *
 * | vendor error                         | class                |
 * |--------------------------------------|----------------------|
 * | NON_REFUNDABLE (on cancel)           | permanent            |
 * | BOOKING_PAST_CANCELLATION_DEADLINE   | permanent            |
 * | RATE_NOT_AVAILABLE (on book)         | permanent-for-offer  |
 * | INVALID_PAYMENT_INFO                 | permanent            |
 * | 5xx, timeouts, network errors        | transient            |
 * | 429                                  | rate-limited (transient, longer backoff) |
 *
 * Anything else the vendor refuses with a 4xx (its credentials after the forced token refresh, an
 * unknown reservation, a request it rejects) is permanent: retrying cannot change the answer.
 *
 * A VendorError is a DomainError, so the HTTP layer answers it without knowing vendors: permanent
 * ones carry the vendor's own code as `vendorErrorCode`, which becomes `X-Vendor-Error-Code`.
 */
import { DomainError, type DomainErrorKind } from "../domain/domain-error.js";

export type VendorErrorClass = "permanent" | "permanent-for-offer" | "transient" | "rate-limited";

/** Codes the client uses when the vendor gave none (no answer, or no code in its envelope). */
export const TIMEOUT = "TIMEOUT";
export const NETWORK_ERROR = "NETWORK_ERROR";
export const MALFORMED_RESPONSE = "MALFORMED_RESPONSE";

const CLASS_OF_CODE: Readonly<Record<string, VendorErrorClass>> = {
  NON_REFUNDABLE: "permanent",
  BOOKING_PAST_CANCELLATION_DEADLINE: "permanent",
  INVALID_PAYMENT_INFO: "permanent",
  RATE_NOT_AVAILABLE: "permanent-for-offer",
  [TIMEOUT]: "transient",
  [NETWORK_ERROR]: "transient",
  [MALFORMED_RESPONSE]: "transient",
};

const KIND_OF_CLASS: Record<VendorErrorClass, DomainErrorKind> = {
  permanent: "unprocessable",
  // The offer is stale: the caller picks another one (spec 7), like any lost race for a resource.
  "permanent-for-offer": "conflict",
  transient: "unavailable",
  "rate-limited": "unavailable",
};

export interface VendorFailure {
  vendor: string;
  /** The vendor's own code from its error envelope, or one of TIMEOUT, NETWORK_ERROR, MALFORMED_RESPONSE. */
  code?: string;
  httpStatus?: number;
  /** From the vendor's Retry-After header. */
  retryAfterMs?: number;
  message?: string;
}

export class VendorError extends DomainError {
  readonly vendor: string;
  /** The vendor's own code, e.g. RATE_NOT_AVAILABLE, or HTTP_503 when it sent none. */
  readonly vendorCode: string;
  readonly classification: VendorErrorClass;
  readonly httpStatus: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(failure: VendorFailure) {
    const vendorCode = failure.code ?? `HTTP_${failure.httpStatus ?? 0}`;
    const classification = classify(vendorCode, failure.httpStatus);
    const permanent = classification === "permanent" || classification === "permanent-for-offer";
    super(
      KIND_OF_CLASS[classification],
      permanent
        ? `vendor-${slug(vendorCode)}`
        : classification === "rate-limited"
          ? "vendor-rate-limited"
          : "vendor-unavailable",
      failure.message ?? `${failure.vendor} failed with ${vendorCode}`,
      {
        vendor: failure.vendor,
        classification,
        ...(permanent ? { vendorErrorCode: vendorCode } : {}),
      },
    );
    this.name = "VendorError";
    this.vendor = failure.vendor;
    this.vendorCode = vendorCode;
    this.classification = classification;
    this.httpStatus = failure.httpStatus;
    this.retryAfterMs = failure.retryAfterMs;
  }

  /** Transient failures (429 included) are worth another attempt; permanent ones never. */
  get retryable(): boolean {
    return this.classification === "transient" || this.classification === "rate-limited";
  }
}

/** The class of a failure: the vendor's code decides when it is one of the table's, else the status. */
export function classify(code: string | undefined, httpStatus: number | undefined): VendorErrorClass {
  const byCode = code === undefined ? undefined : CLASS_OF_CODE[code];
  if (byCode) return byCode;
  if (httpStatus === 429) return "rate-limited";
  if (httpStatus === undefined || httpStatus >= 500) return "transient";
  return "permanent";
}

function slug(code: string): string {
  return code
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
