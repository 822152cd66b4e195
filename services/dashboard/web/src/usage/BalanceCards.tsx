import type { Usage } from "../api.ts";

/** The account's credits: what is left, what was used of what was granted, what requests hold now. */
export function BalanceCards({ balance }: { balance: Usage["balance"] }) {
  return (
    <div className="stats">
      <div className="card"><span className="big" data-testid="available">{balance.available}</span> credits available</div>
      <div className="card"><span className="big" data-testid="used">{balance.used}</span> used of {balance.granted} granted</div>
      <div className="card"><span className="big">{balance.reserved}</span> reserved by requests in flight</div>
    </div>
  );
}
