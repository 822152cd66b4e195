import { useId } from "react";
import type { PickedImage, RankAnswer } from "./answers.ts";
import { AnswerWarnings } from "./AnswerWarnings.tsx";
import { MethodReceipt } from "./MethodReceipt.tsx";
import { ModelsNote } from "./ModelsNote.tsx";
import { COPY_LIFT_HELP, creditsLine } from "./outcome-words.ts";
import { RankedCard } from "./RankedCard.tsx";
import { tooCloseSummary } from "./trust-words.ts";

/**
 * A rank answer: the simulated badge and models (unless the page shows them once above it), the bill, the answer's warnings and how many
 * neighbouring pairs are too close to call, one card per image, images that failed, and how the
 * answer was produced (collapsed).
 */
export function RankResults({ answer, images, withCopy, showModels = true }: { answer: RankAnswer; images: PickedImage[]; withCopy: boolean; showModels?: boolean }) {
  const copyLiftHelpId = useId();
  const thumbOf = (id: string | null) => images.find((i) => i.name === id)?.dataUri;
  const tooClose = tooCloseSummary(answer.summary.uncertainty);
  return (
    <section className="results" aria-label="Ranking">
      {showModels && <ModelsNote models={answer.summary.models} answers="scores" />}
      <p className="muted">{creditsLine(answer.summary.credits_used, answer.summary.credits_remaining)} Scores compare these images with each other; they are not forecasts.</p>
      <AnswerWarnings warnings={answer.summary.warnings} simulatedShown={!showModels || answer.summary.models?.simulated === true} />
      {tooClose && <p className="muted" data-testid="too-close-summary">{tooClose}</p>}
      {withCopy && <p className="help" id={copyLiftHelpId} data-testid="copy-lift-help">{COPY_LIFT_HELP}</p>}
      <div className="cards">
        {answer.ranked.map((r) => (
          <RankedCard key={r.rank} result={r} thumbnail={thumbOf(r.asset_id)} withCopy={withCopy} copyLiftHelpId={copyLiftHelpId} refined={answer.summary.close_pair_refinement?.results} />
        ))}
      </div>
      {answer.errors.map((e, i) => <p key={i} className="error">{e.asset_id ?? "An image"}: {e.error}</p>)}
      <MethodReceipt method={answer.summary.method} />
    </section>
  );
}
