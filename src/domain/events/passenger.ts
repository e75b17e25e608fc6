/** `passenger.login-locked`: a PNR reached its login attempt limit (spec 8.1); the partner contact is told. */
export interface LoginLockedData {
  /** First and last character only: enough for the contact to recognise, useless to an attacker. */
  pnr: string;
  /** The address whose attempt reached the limit. */
  ip: string;
  attempts: number;
  /** ISO 8601 UTC; attempts for the PNR are refused until then. */
  lockedUntil: string;
}

export interface PassengerEventDataByType {
  "passenger.login-locked": LoginLockedData;
}
