/**
 * The three token audiences. They are deliberately distinct (spec 5): a token replayed on another
 * surface fails audience validation.
 */
export interface Audiences {
  operator: string;
  partner: string;
  passenger: string;
}

/** Audiences named after the API each token is for. */
export function defaultAudiences(baseUrl: string, passengerBaseUrl: string): Audiences {
  return {
    operator: `${baseUrl}/v1`,
    partner: `${baseUrl}/partner/v1`,
    passenger: `${passengerBaseUrl}/v1`,
  };
}
