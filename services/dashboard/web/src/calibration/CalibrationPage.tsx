import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, ApiError } from "../api.ts";
import { useToast } from "../ui/toasts.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { AgreementChart } from "./AgreementChart.tsx";
import type { CalibrationPageData } from "./calibration-api.ts";
import { agreementRows, pointsByGoal, shownGroups } from "./calibration-series.ts";
import { GroupCard } from "./GroupCard.tsx";
import { OutcomeScatter } from "./OutcomeScatter.tsx";
import { RecordOutcomesHelp } from "./RecordOutcomesHelp.tsx";
import { SimulatedNote } from "./SimulatedNote.tsx";
import "./calibration.css";

/** The query of the console API for what the address selects; the address keeps the choice, so it can be linked and reloaded. */
const queryOf = (params: URLSearchParams) => {
  const query = new URLSearchParams();
  for (const key of ["metric", "goal"]) {
    const value = params.get(key);
    if (value) query.set(key, value);
  }
  const text = query.toString();
  return text ? `/calibration?${text}` : "/calibration";
};

/** How well this account's scores predicted the outcomes it recorded: per goal and pooled, then as two charts. */
export function CalibrationPage() {
  usePageTitle("Calibration");
  const notify = useToast();
  const [params, setParams] = useSearchParams();
  const [data, setData] = useState<CalibrationPageData | null>(null);
  const [problem, setProblem] = useState("");
  const path = queryOf(params);

  useEffect(() => {
    let live = true;
    api<CalibrationPageData>("GET", path)
      .then((answer) => {
        if (!live) return;
        setData(answer);
        setProblem("");
      })
      .catch((err: unknown) => {
        if (!live) return;
        // A hand-edited address (?metric=CTR) is refused with the field's sentence: say it where the page would be.
        if (err instanceof ApiError && err.status === 422) setProblem(err.message);
        else notify(err instanceof ApiError ? err.message : "The calibration could not be loaded.", "error");
      });
    return () => {
      live = false;
    };
  }, [path, notify]);

  const choose = (key: "metric" | "goal", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    // Another metric has other goals: its goal starts from "every goal".
    if (key === "metric") next.delete("goal");
    setParams(next);
  };

  const lead = (
    <p className="muted lead">
      How well the scores of this account's rankings predicted the outcomes you recorded for their creatives: rank correlation and pairwise agreement per goal, each
      with its 95 % bootstrap interval. {data ? `A group needs at least ${data.report.min_outcomes} outcomes before it gets figures.` : ""}
    </p>
  );
  if (problem) {
    return (
      <section>
        <h1>Calibration</h1>
        {lead}
        <p className="error" role="alert" data-testid="calibration-problem">{problem} <Link to="/calibration">Show every metric and goal</Link></p>
      </section>
    );
  }
  if (!data) return <section><h1>Calibration</h1>{lead}<p className="loading">Loading…</p></section>;
  if (data.metrics.length === 0) {
    return <section><h1>Calibration</h1>{lead}<RecordOutcomesHelp minOutcomes={data.report.min_outcomes} /></section>;
  }

  const metric = data.report.metrics[0] ?? null;
  const groups = metric ? shownGroups(metric) : [];
  const agreement = agreementRows(groups);
  const series = pointsByGoal(data.points, data.goals);
  return (
    <section>
      <h1>Calibration</h1>
      {lead}
      <div className="row filters">
        <label>
          Metric
          <select name="metric" value={data.metric ?? ""} onChange={(e) => choose("metric", e.target.value)}>
            {data.metrics.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        <label>
          Goal
          <select name="goal" value={data.goal ?? ""} onChange={(e) => choose("goal", e.target.value)}>
            <option value="">All goals</option>
            {data.goals.map((g) => <option key={g} value={g}>{g}</option>)}
          </select>
        </label>
      </div>
      {metric && <SimulatedNote simulated={metric.pooled.n_simulated} total={metric.pooled.n_outcomes} />}
      {!metric && <p className="card muted" data-testid="calibration-none">No outcomes of {data.metric} {data.goal ? `for ${data.goal}` : ""} are recorded.</p>}
      <div className="calibration-groups">
        {groups.map((g) => <GroupCard key={g.goal ?? "all"} group={g} minOutcomes={data.report.min_outcomes} />)}
      </div>
      <p className="muted small method" data-testid="calibration-method">
        Rho and tau-b rank every outcome of a goal against its score. Pairwise agreement is the share of pairs (two assets of the same ranking whose outcomes differ) that the
        score put in the order of their outcomes, a score tie counting half: 50 % is chance. Final scores are after close-pair refinement, raw ones before it. Intervals
        come from {data.report.resamples.toLocaleString("en-US")} bootstrap resamples, outcomes drawn again within each ranking. The same figures come from{" "}
        <code>GET /api/v1/calibration</code> and <code>adrank calibration</code>.
      </p>

      <div className="section-head"><h2>Pairwise agreement by goal</h2></div>
      {agreement.length > 0 ? (
        <AgreementChart rows={agreement} />
      ) : (
        <p className="card muted small" data-testid="agreement-chart-empty">The chart appears once a goal has {data.report.min_outcomes} outcomes and pairs to compare.</p>
      )}

      <div className="section-head"><h2>Score vs {data.metric}</h2></div>
      {series.length > 0 && <OutcomeScatter series={series} metric={data.metric ?? ""} />}
      {data.points_truncated && (
        <p className="muted small" data-testid="points-truncated">
          The plot shows the {data.points.length.toLocaleString("en-US")} most recently recorded of {data.points_total.toLocaleString("en-US")} outcomes; the figures use them all.
        </p>
      )}
    </section>
  );
}
