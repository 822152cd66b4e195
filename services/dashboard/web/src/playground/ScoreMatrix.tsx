import type { MatrixCell, ScoreMatrix as Matrix } from "./score-matrix.ts";
import "./audiences.css";

function Cell({ cell }: { cell: MatrixCell }) {
  if (cell.score === null) {
    return (
      <td className="failed" data-testid="matrix-cell" title={cell.error ?? undefined}>
        <span className="muted">failed</span>
      </td>
    );
  }
  return (
    <td className={cell.best ? "best" : undefined} data-testid="matrix-cell" data-best={cell.best ? "true" : undefined}>
      <strong className="cell-score">{cell.score.toFixed(2)}</strong>
      {cell.rank !== null && <span className={cell.rank === 1 ? "cell-rank first" : "cell-rank"}>#{cell.rank} of {cell.rankedCount}</span>}
      {cell.best && <span className="visually-hidden"> (this image's best audience)</span>}
    </td>
  );
}

/**
 * Images down, audiences across: each cell the image's score out of 5 and its rank for that
 * audience, the audience that likes the image most shaded, and how far the audiences spread.
 */
export function ScoreMatrix({ matrix }: { matrix: Matrix }) {
  return (
    <div className="matrix-scroll">
      <table className="score-matrix" data-testid="score-matrix">
        <caption className="visually-hidden">Scores out of 5 and ranks, per image and audience</caption>
        <thead>
          <tr>
            <th scope="col">Image</th>
            {matrix.audiences.map((a) => <th scope="col" key={a}>{a}</th>)}
            <th scope="col" className="num" title="Highest minus lowest score across the audiences">Spread</th>
          </tr>
        </thead>
        <tbody>
          {matrix.rows.map((row) => (
            <tr key={row.assetIndex} data-testid="matrix-row">
              <th scope="row">
                <span className="matrix-image">
                  {row.thumbnail && <img src={row.thumbnail} alt="" />}
                  <span>{row.name}</span>
                </span>
              </th>
              {row.cells.map((cell) => <Cell key={cell.audience} cell={cell} />)}
              <td className="num spread">{row.spread === null ? "—" : row.spread.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
