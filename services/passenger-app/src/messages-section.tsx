import { useState } from "preact/hooks";
import { dateTime } from "./format.js";
import { format } from "./i18n/index.js";
import type { ScreenContext } from "./offer-screen.js";
import { ProblemView } from "./problem-view.js";
import type { Loaded, NotificationPage } from "./types.js";
import { useAction } from "./use-action.js";

/** `POST /v1/me/problem` takes at most this many characters (the passenger OpenAPI document). */
export const PROBLEM_TEXT_MAX_LENGTH = 2000;

export function MessagesSection({
  t,
  language,
  notifications,
}: ScreenContext & { notifications: Loaded<NotificationPage> }) {
  const items = notifications.value?.items ?? [];
  return (
    <section class="card" aria-labelledby="messages-title">
      <h2 id="messages-title">{t.notificationsTitle}</h2>
      <ProblemView problem={notifications.problem} />
      {notifications.value && items.length === 0 ? <p>{t.notificationsNone}</p> : null}
      {items.length > 0 ? (
        <ul class="plain">
          {items.map((item) => (
            <li key={item.notificationUrn}>
              <strong>{item.channel ? t[`channel_${item.channel}`] : item.status}</strong>
              {" · "}
              {dateTime(language, item.createdAt)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Report a problem: it reaches the operators' manual-review queue (spec 4.4). */
export function ProblemReportSection({ api, t }: ScreenContext) {
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);
  const report = useAction(async () => {
    await api.reportProblem(text.trim());
    setText("");
    setSent(true);
  });
  return (
    <section class="card" aria-labelledby="report-title">
      <h2 id="report-title">{t.problemTitle}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void report.run();
        }}
      >
        <label for="problem-text">{t.problemLabel}</label>
        <textarea
          id="problem-text"
          required
          rows={4}
          maxLength={PROBLEM_TEXT_MAX_LENGTH}
          aria-describedby="problem-help"
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setSent(false);
          }}
        />
        <p id="problem-help" class="hint">
          {format(t.problemHelp, {
            max: PROBLEM_TEXT_MAX_LENGTH,
            left: PROBLEM_TEXT_MAX_LENGTH - text.length,
          })}
        </p>
        <ProblemView problem={report.problem} />
        {sent ? <p role="status">{t.problemSent}</p> : null}
        <button type="submit" disabled={report.busy || text.trim() === ""}>
          {t.problemSend}
        </button>
      </form>
    </section>
  );
}
