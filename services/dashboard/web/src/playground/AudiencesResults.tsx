import type { AudienceRankingAnswer, AudiencesAnswer, PickedImage } from "./answers.ts";
import { AnswerWarnings } from "./AnswerWarnings.tsx";
import { noDifferenceText, reversalSentence, sensitivityText, warningsBesideCallouts } from "./audience-words.ts";
import { ModelsNote } from "./ModelsNote.tsx";
import { creditsLine } from "./outcome-words.ts";
import { RankResults } from "./RankResults.tsx";
import { ScoreMatrix } from "./ScoreMatrix.tsx";
import { scoreMatrix } from "./score-matrix.ts";
import "./audiences.css";

/** "Skeptics: summer-launch.png first", the closed summary of one audience's full ranking. */
const rankingSummary = (b: AudienceRankingAnswer): string => {
  const first = b.ranked[0];
  return first ? `${b.audience}: ${first.asset_id ?? "image 1"} first` : `${b.audience}: nothing ranked`;
};

/** One audience's ranking with the request's balance: the page states one balance, the one after the whole request. */
const withBalance = (b: AudienceRankingAnswer, remaining: number | null): AudienceRankingAnswer => ({ ...b, summary: { ...b.summary, credits_remaining: remaining } });

/**
 * A ranking across audiences: the simulated note and models, the bill, the warnings and a
 * callout for every pair of audiences that scored alike, the score matrix, the pairs of images
 * whose order flips between audiences, how alike each pair of audiences ranks, and each
 * audience's full ranking (collapsed). Audience and image names are the user's text, rendered
 * as text.
 */
export function AudiencesResults({ answer, images, withCopy }: { answer: AudiencesAnswer; images: PickedImage[]; withCopy: boolean }) {
  const matrix = scoreMatrix(answer, images);
  const noDifference = answer.audience_sensitivity.filter((s) => s.persona_made_no_difference);
  return (
    <section className="results audiences-results" aria-label="Ranking by audience" data-testid="audiences-results">
      <ModelsNote models={answer.summary.models} answers="scores" />
      <p className="muted" data-testid="audiences-credits">
        {creditsLine(answer.summary.credits_used, answer.summary.credits_remaining)} Every image was scored once for each of the {answer.by_audience.length} audiences. Scores compare these
        images with each other; they are not forecasts.
      </p>
      <AnswerWarnings warnings={warningsBesideCallouts(answer.summary.warnings, answer.audience_sensitivity)} simulatedShown={answer.summary.models?.simulated === true} />
      {noDifference.map((s) => (
        <p key={`${s.audience_a}\n${s.audience_b}`} className="callout no-difference" role="note" data-testid="no-difference">
          <strong>The personas made no difference.</strong> {noDifferenceText(s)}
        </p>
      ))}

      <h2>Scores by audience</h2>
      <ScoreMatrix matrix={matrix} />
      <p className="muted small">Each cell: the image's score out of 5 and its place in that audience's ranking. Shaded: the audience that scores the image highest.</p>

      <h2>Where the audiences disagree</h2>
      {answer.reversals.length > 0 ? (
        <ul className="reversals" data-testid="reversals">
          {answer.reversals.map((r) => (
            <li key={`${r.asset_a.asset_index}-${r.asset_b.asset_index}-${r.prefers_a.audience}\n${r.prefers_b.audience}`} data-testid="reversal">{reversalSentence(r)}</li>
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="no-reversals">No two images swap places between audiences by more than the repetitions' noise.</p>
      )}

      <h2>How alike the audiences rank</h2>
      <ul className="audience-pairs">
        {answer.audience_sensitivity.map((s) => (
          <li key={`${s.audience_a}\n${s.audience_b}`} data-testid="audience-pair">
            <strong>{s.audience_a} and {s.audience_b}</strong>
            {s.persona_made_no_difference && <> <span className="badge no-difference">no difference</span></>}: {sensitivityText(s)}
          </li>
        ))}
      </ul>
      <p className="muted small">A rank correlation of +1 means the same order for both audiences, 0 no relation, −1 the reverse order.</p>

      <h2>Each audience's full ranking</h2>
      {answer.by_audience.map((b) => (
        <details key={b.audience} className="audience-ranking" data-testid="audience-ranking">
          <summary>{rankingSummary(b)}</summary>
          <RankResults answer={withBalance(b, answer.summary.credits_remaining)} images={images} withCopy={withCopy} showModels={false} />
        </details>
      ))}
    </section>
  );
}
