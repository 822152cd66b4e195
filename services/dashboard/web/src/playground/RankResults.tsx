import { useId } from "react";
import type { PickedImage, RankAnswer } from "./answers.ts";
import { ModelsNote } from "./ModelsNote.tsx";
import { COPY_LIFT_HELP, creditsLine } from "./outcome-words.ts";
import { RankedCard } from "./RankedCard.tsx";

/** A rank answer: the simulated badge and models, the bill, one card per image, and images that failed. */
export function RankResults({ answer, images, withCopy }: { answer: RankAnswer; images: PickedImage[]; withCopy: boolean }) {
  const copyLiftHelpId = useId();
  const thumbOf = (id: string | null) => images.find((i) => i.name === id)?.dataUri;
  return (
    <section className="results" aria-label="Ranking">
      <ModelsNote models={answer.summary.models} answers="scores" />
      <p className="muted">{creditsLine(answer.summary.credits_used, answer.summary.credits_remaining)} Scores compare these images with each other; they are not forecasts.</p>
      {withCopy && <p className="help" id={copyLiftHelpId} data-testid="copy-lift-help">{COPY_LIFT_HELP}</p>}
      <div className="cards">
        {answer.ranked.map((r) => (
          <RankedCard key={r.rank} result={r} thumbnail={thumbOf(r.asset_id)} withCopy={withCopy} copyLiftHelpId={copyLiftHelpId} refined={answer.summary.close_pair_refinement?.results} />
        ))}
      </div>
      {answer.errors.map((e, i) => <p key={i} className="error">{e.asset_id ?? "An image"}: {e.error}</p>)}
    </section>
  );
}
