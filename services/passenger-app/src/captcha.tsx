/**
 * The ALTCHA widget (web component of the `altcha` package, v3) that solves the proof-of-work
 * challenge of `GET /v1/auth/captcha` (altcha-lib 2 on the service) for PNR login.
 *
 * `altcha/external` is the build without its workers inlined as blob: URLs: the PBKDF2 and SHA
 * workers are files of this build instead (Vite's `?worker`), so the page's policy allows workers
 * from 'self' only and no WebAssembly (both run on WebCrypto).
 */
import "altcha/external";
import "altcha/altcha.css";
import "altcha/i18n/de";
import "altcha/i18n/es-es";
import "altcha/i18n/fr-fr";
import "altcha/i18n/pt-pt";
import Pbkdf2Worker from "altcha/workers/pbkdf2?worker";
import ShaWorker from "altcha/workers/sha?worker";
import { useEffect, useRef } from "preact/hooks";
import type { Language } from "./i18n/index.js";

export const CAPTCHA_CHALLENGE_PATH = "/v1/auth/captcha";

for (const algorithm of ["PBKDF2/SHA-256", "PBKDF2/SHA-384", "PBKDF2/SHA-512"]) {
  globalThis.$altcha.algorithms.set(algorithm, () => new Pbkdf2Worker());
}
for (const algorithm of ["SHA-256", "SHA-384", "SHA-512"]) {
  globalThis.$altcha.algorithms.set(algorithm, () => new ShaWorker());
}

/** The widget's own catalogue for each of the app's languages. */
const WIDGET_LANGUAGE: Record<Language, string> = {
  en: "en",
  es: "es-es",
  fr: "fr-fr",
  de: "de",
  pt: "pt-pt",
};

interface CaptchaProps {
  language: Language;
  /** The payload once solved (PNR login's `captcha`), undefined while not. */
  onPayload: (payload: string | undefined) => void;
  /** A new value gives a fresh widget (and challenge): every login attempt needs its own. */
  attempt: number;
}

export function Captcha({ language, onPayload, attempt }: CaptchaProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const widget = document.createElement("altcha-widget");
    widget.setAttribute("challenge", CAPTCHA_CHALLENGE_PATH);
    widget.setAttribute("language", WIDGET_LANGUAGE[language]);
    // Starts solving when the passenger begins filling the form: done by the time they submit.
    widget.setAttribute("auto", "onfocus");
    widget.setAttribute("name", "captcha");
    widget.addEventListener("statechange", (event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onPayload(state === "verified" && payload ? payload : undefined);
    });
    host.current?.append(widget);
    onPayload(undefined);
    return () => widget.remove();
  }, [language, attempt]);
  return <div class="captcha" ref={host} />;
}
