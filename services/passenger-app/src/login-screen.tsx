import { useState } from "preact/hooks";
import type { PassengerApi } from "./api.js";
import { Captcha } from "./captcha.js";
import type { Language, Messages } from "./i18n/index.js";
import { ProblemView } from "./problem-view.js";
import { useAction } from "./use-action.js";

interface LoginProps {
  api: PassengerApi;
  language: Language;
  t: Messages;
  onLoggedIn: () => void;
}

/** Path B of spec 5.2: booking reference, last name and a solved captcha. */
export function LoginScreen({ api, language, t, onLoggedIn }: LoginProps) {
  const [pnr, setPnr] = useState("");
  const [lastName, setLastName] = useState("");
  const [captcha, setCaptcha] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [needsCaptcha, setNeedsCaptcha] = useState(false);
  const login = useAction(async () => {
    try {
      await api.pnrLogin(pnr.trim(), lastName.trim(), captcha!);
    } finally {
      // A challenge is accepted once, right or wrong: the next attempt gets a fresh one.
      setAttempt((n) => n + 1);
    }
    onLoggedIn();
  });

  const submit = (event: Event) => {
    event.preventDefault();
    if (!captcha) {
      setNeedsCaptcha(true);
      return;
    }
    setNeedsCaptcha(false);
    void login.run();
  };

  return (
    <main id="main">
      <h1>{t.loginTitle}</h1>
      <p>{t.loginIntro}</p>
      <form class="card" onSubmit={submit}>
        <TextField
          id="pnr"
          label={t.bookingReference}
          value={pnr}
          onValue={setPnr}
          maxLength={16}
          autoComplete="off"
        />
        <TextField
          id="last-name"
          label={t.lastName}
          value={lastName}
          onValue={setLastName}
          maxLength={100}
          autoComplete="family-name"
        />
        <Captcha language={language} attempt={attempt} onPayload={setCaptcha} />
        {needsCaptcha && !captcha ? (
          <p class="problem" role="alert">
            {t.captchaFirst}
          </p>
        ) : null}
        <ProblemView problem={login.problem} />
        <button type="submit" class="primary" disabled={login.busy}>
          {login.busy ? t.loggingIn : t.logIn}
        </button>
      </form>
    </main>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** The login body's limits (spec 4.4: `pnr` and `lastName`). */
  maxLength: number;
  autoComplete: string;
}

/** A required one-line field with its visible label (its accessible name). */
function TextField({ id, label, value, onValue, maxLength, autoComplete }: TextFieldProps) {
  return (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        required
        maxLength={maxLength}
        autoComplete={autoComplete}
        spellcheck={false}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </>
  );
}
