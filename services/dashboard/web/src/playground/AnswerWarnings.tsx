import type { AnswerWarning } from "./answers.ts";
import "./trust.css";

/**
 * The answer's validity warnings: each message as the sentence it is, its code in small text.
 * The message is shown whatever the code, so codes this page does not know still say what they
 * mean. Renders nothing for an answer without warnings or from a server older than them.
 */
export function AnswerWarnings({ warnings, simulatedShown = false }: { warnings: AnswerWarning[] | undefined; simulatedShown?: boolean }) {
  // The SIMULATED note beside the models already says it in its own words: once is enough.
  const shown = (warnings ?? []).filter((w) => !(simulatedShown && w.code === "simulated"));
  if (shown.length === 0) return null;
  return (
    <section className="answer-warnings" aria-label="Warnings" data-testid="answer-warnings">
      {/* h4: the warnings belong to the answer's card, whose title is its h3. */}
      <h4>{shown.length === 1 ? "Warning" : "Warnings"}</h4>
      <ul>
        {shown.map((w, i) => (
          <li key={`${w.code}-${i}`} data-testid="answer-warning">
            {w.message}
            <small className="warning-code">{w.code}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
