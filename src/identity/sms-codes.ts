import { createHash, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Clock } from "../runtime/clock.js";
import type { NotificationChannel } from "../app/notifications/notification-channel.js";
import type { MemberUser } from "./operator-login.js";

/** A one-time code sent by SMS, as a pending sign-in keeps it: its hash, never the code. */
export interface SentSmsCode {
  hash: string;
  sentAt: number;
  expiresAt: number;
  sends: number;
}

const CODE_MS = 5 * 60 * 1000;
/** Between two sends to the same sign-in, and how many in all (each SMS costs, and can be abused). */
const RESEND_AFTER_MS = 30 * 1000;
const MAX_SENDS = 3;

export class SmsCodeError extends Error {}

/**
 * One-time codes by SMS, the last-resort second factor (spec 5.1), sent through the notification
 * port's SMS channel (the provider simulator in the embedded default).
 */
export class SmsCodes {
  constructor(
    private readonly channel: () => NotificationChannel | undefined,
    private readonly clock: Clock,
  ) {}

  get available(): boolean {
    return this.channel() !== undefined;
  }

  async send(user: MemberUser, previous: SentSmsCode | undefined): Promise<SentSmsCode> {
    const channel = this.channel();
    if (!channel || !user.smsNumber) throw new SmsCodeError("codes by SMS cannot be sent here");
    const now = this.clock.now();
    const sends = (previous?.sends ?? 0) + 1;
    if (sends > MAX_SENDS) throw new SmsCodeError("no more codes by SMS for this sign-in: start again");
    if (previous && now - previous.sentAt < RESEND_AFTER_MS)
      throw new SmsCodeError("a code was sent less than 30 seconds ago: wait for it");
    const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
    await channel.send({
      notificationUrn: `urn:notification:${randomUUID()}`,
      tenant: user.membership.airlineUrn,
      to: user.smsNumber,
      subject: "Sign-in code",
      text: `${code} is your operator sign-in code. It expires in 5 minutes. Nobody from the airline will ask you for it.`,
    });
    return { hash: digest(code), sentAt: now, expiresAt: now + CODE_MS, sends };
  }

  matches(sent: SentSmsCode | undefined, code: string): boolean {
    if (!sent || sent.expiresAt < this.clock.now() || !/^\d{6}$/.test(code.trim())) return false;
    return timingSafeEqual(Buffer.from(sent.hash, "hex"), Buffer.from(digest(code.trim()), "hex"));
  }
}

function digest(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}

/** The number as the screen shows it: only its last digits. */
export function maskedNumber(number: string): string {
  return `•••${number.slice(-4)}`;
}
