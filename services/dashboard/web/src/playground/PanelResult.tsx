import type { PairAnswer, PairResult } from "./answers.ts";
import { AnswerWarnings } from "./AnswerWarnings.tsx";
import { MethodReceipt } from "./MethodReceipt.tsx";
import { ModelsNote } from "./ModelsNote.tsx";
import { creditsLine, panelSentence } from "./outcome-words.ts";
import { winProbabilityText } from "./trust-words.ts";
import { VoteList } from "./VoteList.tsx";

const loserOf = (p: PairResult) => (p.winnerId === p.aId ? p.bId : p.aId);

/**
 * A pairwise panel: who won and by how many votes, how consistent the voters were, how sure the
 * panel is, the answer's warnings, every vote, and how the answer was produced (collapsed).
 */
export function PanelResult({ pair: p, answer }: { pair: PairResult; answer: PairAnswer }) {
  const sure = winProbabilityText(p.win_probability);
  return (
    <div className="card" data-testid="panel">
      <h3>{p.winnerId ? panelSentence({ winnerAssetId: p.winnerId, loserAssetId: loserOf(p), votesFor: p.votesFor ?? 0, votesTotal: p.votesTotal ?? 0 }) : `No winner: ${p.error ?? "the panel did not finish"}`}</h3>
      {p.winRate !== undefined && (
        <p className="muted">
          Win rate {p.winRate.toFixed(2)} · consistency {p.consistency?.toFixed(2)}{" "}
          <span className="small">(1.00 means voters picked the same image whichever one they saw first)</span>
        </p>
      )}
      {sure && <p className="win-probability" data-testid="win-probability">{sure}</p>}
      <ModelsNote models={answer.summary?.models} answers="votes" />
      <AnswerWarnings warnings={answer.summary?.warnings} simulatedShown={answer.summary?.models?.simulated === true} />
      {answer.summary?.credits_used !== undefined && <p className="muted">{creditsLine(answer.summary.credits_used, answer.summary.credits_remaining)}</p>}
      <VoteList votes={p.votes} aId={p.aId} bId={p.bId} />
      <MethodReceipt method={answer.summary?.method} />
    </div>
  );
}
