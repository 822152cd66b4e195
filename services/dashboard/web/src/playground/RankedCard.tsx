import type { RankedAsset, RefinedPair } from "./answers.ts";
import { FLIPPED_HELP, panelSentence, signed } from "./outcome-words.ts";
import { aboveNextText, TOO_CLOSE_HELP } from "./trust-words.ts";
import { VoteList } from "./VoteList.tsx";

/** The refined pair behind a card's panel outcome, in either order. */
const refinedPair = (pairs: RefinedPair[] | undefined, a: string, b: string) => pairs?.find((p) => (p.aId === a && p.bId === b) || (p.aId === b && p.bId === a));

/** The voter models that cast the pair's votes (a panel's seats may hold different models). */
const voterModels = (pair: RefinedPair | undefined): string => {
  const named = pair ? pair.votes.flatMap((v) => (v.model ? [v.model] : [])) : [];
  return [...new Set(named.length > 0 ? named : pair?.model ? [pair.model] : [])].join(", ");
};

interface Props {
  result: RankedAsset;
  thumbnail: string | undefined;
  /** Copy was sent with some image, so the copy lift of those sent with it means something. */
  withCopy: boolean;
  copyLiftHelpId: string;
  refined: RefinedPair[] | undefined;
}

/**
 * One ranked image: rank, score out of 5, confidence, copy lift, the chance it outranks the next
 * (with a "Too close to call" badge when that is a coin toss), the panel that settled a close
 * call, and why.
 */
export function RankedCard({ result: r, thumbnail, withCopy, copyLiftHelpId, refined }: Props) {
  const outcome = r.panel_outcome;
  const pair = outcome ? refinedPair(refined, outcome.winnerAssetId, outcome.loserAssetId) : undefined;
  const voters = voterModels(pair);
  const aboveNext = aboveNextText(r.p_above_next, r.rank);
  return (
    <article className="ranked card" data-testid="ranked-card">
      <span className="rank">#{r.rank}</span>
      {thumbnail && <img src={thumbnail} alt={r.asset_id ?? ""} />}
      <h3>{r.asset_id}</h3>
      <div className="bar" aria-hidden="true"><span style={{ width: `${((r.score - 1) / 4) * 100}%` }} /></div>
      <p>
        <strong>{r.score.toFixed(2)}</strong> / 5 · {r.confidence} confidence
        {r.copy_lift != null && withCopy && r.copy_context_included !== false && (
          <> · <span className="copy-lift" data-testid="copy-lift" aria-describedby={copyLiftHelpId} title="How much the ad copy raised or lowered the score compared with the image alone">copy lift {signed(r.copy_lift)}</span></>
        )}
      </p>
      {aboveNext && (
        <p className="above-next" data-testid="above-next">
          {aboveNext}
          {r.too_close_to_call === true && <> <span className="badge too-close" title={TOO_CLOSE_HELP} data-testid="too-close">Too close to call</span></>}
        </p>
      )}
      {outcome && (
        <div className="panel" data-testid="panel-outcome">
          <p>
            {panelSentence(outcome)}
            {outcome.flipped && <> <span className="flipped" title={FLIPPED_HELP}>(the panel swapped them)</span></>}
          </p>
          {voters && <small className="vote-model panel-models">voters {voters}</small>}
          {pair && (
            <details>
              <summary>Votes</summary>
              <VoteList votes={pair.votes} aId={pair.aId} bId={pair.bId} />
            </details>
          )}
        </div>
      )}
      <p className="muted">{r.rationale}</p>
    </article>
  );
}
