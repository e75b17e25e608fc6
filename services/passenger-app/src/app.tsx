import { useEffect, useMemo, useState } from "preact/hooks";
import { PassengerApi } from "./api.js";
import { CATALOGUES, chooseLanguage } from "./i18n/index.js";
import { browserScheduler, type EventStream, type Scheduler } from "./live.js";
import { LoginScreen } from "./login-screen.js";
import { OfferScreen } from "./offer-screen.js";
import { type Problem, ProblemError } from "./problem.js";
import { ProblemView } from "./problem-view.js";
import type { MeProfile } from "./types.js";
import { asProblem } from "./use-action.js";

interface AppProps {
  /** The magic link's token, already taken out of the address (magic-link.ts). */
  linkToken: string | undefined;
  scheduler?: Scheduler;
  openStream?: (path: string) => EventStream;
}

type Phase =
  | { kind: "starting" }
  | { kind: "login"; problem?: Problem }
  | { kind: "signed-in"; me: MeProfile };

/**
 * The passenger app: a session from the magic link or from PNR login (both leave it in the
 * HttpOnly cookie), then the offer screen, in the passenger's language.
 */
export function App({ linkToken, scheduler = browserScheduler, openStream = openEventSource }: AppProps) {
  const api = useMemo(() => new PassengerApi(), []);
  const [phase, setPhase] = useState<Phase>({ kind: "starting" });
  const online = useOnline();

  const language = chooseLanguage([
    phase.kind === "signed-in" ? phase.me.language : undefined,
    ...navigator.languages,
  ]);
  const t = CATALOGUES[language];
  api.messages = t;
  useEffect(() => {
    // WCAG 3.1.1: the page's language is the one it is written in.
    document.documentElement.lang = language;
    document.title = t.appTitle;
  }, [language]);

  const signIn = async (linkProblem?: Problem) => {
    try {
      setPhase({ kind: "signed-in", me: await api.me(true) });
    } catch (error) {
      // No session (or an expired one) is the login screen, not a problem to show.
      const noSession = error instanceof ProblemError && error.problem.status === 401;
      const problem = linkProblem ?? (noSession ? undefined : asProblem(error));
      setPhase(problem ? { kind: "login", problem } : { kind: "login" });
    }
  };

  useEffect(() => {
    const start = async () => {
      let linkProblem: Problem | undefined;
      if (linkToken) {
        try {
          await api.exchangeLink(linkToken);
        } catch (error) {
          linkProblem = asProblem(error);
        }
      }
      await signIn(linkProblem);
    };
    void start();
  }, []);

  return (
    <>
      {online ? null : (
        <p class="offline" role="status">
          {t.offline}
        </p>
      )}
      {phase.kind === "starting" ? (
        <main id="main">
          <h1>{t.appTitle}</h1>
          <p aria-busy="true">{linkToken ? t.linkOpening : t.loading}</p>
        </main>
      ) : phase.kind === "login" ? (
        <>
          <ProblemView problem={phase.problem} />
          <LoginScreen api={api} language={language} t={t} onLoggedIn={() => void signIn()} />
        </>
      ) : (
        <OfferScreen
          api={api}
          t={t}
          language={language}
          me={phase.me}
          scheduler={scheduler}
          openStream={openStream}
        />
      )}
    </>
  );
}

/** The group's event stream; EventSource reconnects with Last-Event-ID by itself. */
function openEventSource(path: string): EventStream {
  return new EventSource(path, { withCredentials: true });
}

function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}
