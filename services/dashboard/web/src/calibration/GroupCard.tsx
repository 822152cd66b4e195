import type { CalibrationGroup, Estimate } from "./calibration-api.ts";
import { agreementVerdict, correlationText, countsText, groupLabel, intervalText, notEnoughDataText, percentText } from "./calibration-words.ts";

function Figure({ name, estimate, format, testId }: { name: string; estimate: Estimate; format: (v: number) => string; testId: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd data-testid={testId}>
        <span className="figure">{format(estimate.value)}</span> <span className="muted interval">95 % CI {intervalText(estimate, format)}</span>
      </dd>
    </>
  );
}

/** One goal's (or the pooled) figures with their intervals, or why there are none yet. */
export function GroupCard({ group, minOutcomes }: { group: CalibrationGroup; minOutcomes: number }) {
  const missing = notEnoughDataText(group, minOutcomes);
  const label = groupLabel(group.goal);
  return (
    <article className="card calibration-group" data-testid="calibration-group" data-goal={group.goal ?? "all"} aria-label={label}>
      <h3>{label}</h3>
      <p className="muted small" data-testid="group-counts">{countsText(group)}</p>
      {missing && <p className="not-enough" data-testid="not-enough-data">{missing}</p>}
      {!missing && group.spearman_rho && group.kendall_tau_b && group.pairwise_agreement && (
        <>
          <dl className="figures">
            <Figure name="Spearman rho" estimate={group.spearman_rho} format={correlationText} testId="spearman-rho" />
            <Figure name="Kendall tau-b" estimate={group.kendall_tau_b} format={correlationText} testId="kendall-tau-b" />
            <Figure name="Pairwise agreement, final" estimate={group.pairwise_agreement} format={percentText} testId="pairwise-agreement" />
            {group.pairwise_agreement_raw && <Figure name="Pairwise agreement, raw" estimate={group.pairwise_agreement_raw} format={percentText} testId="pairwise-agreement-raw" />}
          </dl>
          <p className="small verdict">{agreementVerdict(group.pairwise_agreement)}</p>
        </>
      )}
    </article>
  );
}
