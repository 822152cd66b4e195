import type { Vote } from "./answers.ts";
import { voteOrder } from "./outcome-words.ts";

/** Every vote of a panel: which image the voter saw first, what it picked, its model and raw answer. */
export function VoteList({ votes, aId, bId }: { votes: Vote[]; aId: string; bId: string }) {
  return (
    <ol className="votes">
      {votes.map((v) => (
        <li key={v.voterId}>
          <span className="voter">{v.voterId}</span> <span className="order" data-testid="vote-order">{voteOrder(v, aId, bId)}</span>
          {": "}
          {v.valid === false ? <span className="error">no valid vote ({v.invalidReason})</span> : <>picked <strong>{v.winnerId}</strong></>}
          {v.model && <small className="vote-model" data-testid="vote-model"> {v.model}</small>}
          <details><summary>answer</summary><pre>{v.response || "(no answer)"}</pre></details>
        </li>
      ))}
    </ol>
  );
}
