import { LIMITS } from "@adrank/sdk";

// Apart from the command, so that `adrank --help` and the other commands start without
// loading what only `adrank eval` needs (the statistics, the CSV reader, the report).

export const EVAL_HELP = `adrank eval <dataset.csv|.jsonl> [--metric <name>] [--goal <goal>]
            [--audience-name <name> [--audience-description <text>] | --audience-id <id>]
            [--asset-type <type>] [--platform <p>] [--no-refine] [--out <result.json>]
            [--html <report.html>] [--fresh] [--record-outcomes] [--json]

Measures whether the scores predict your own results. The dataset (CSV with a header row, or
JSON Lines) has one row per creative: image (a file path, relative to the dataset, or an
https:// URL), outcome (a number, higher is better, e.g. a click-through rate), and optionally
id, headline, body, caption, description, page_name, and the group columns campaign, audience
(a name) or audience_id, and goal. Or one row per labelled pair: image_a, image_b, winner (a or
b), and the same optional group columns.

Each group (campaign, audience, goal) is ranked through the API; a group of more than ${LIMITS.assetsMax}
creatives is dealt, in file order, into as few rankings of at most ${LIMITS.assetsMax} as hold it (row i to
ranking i mod k), so its scores then come from several rankings. Groups that differ only by
audience, over the same creatives (the same images with the same copy, whatever their ids), are
ranked side by side in one request of up to ${LIMITS.audiencesMax} audiences (POST /api/v1/rank/audiences),
split the same way for every audience: each audience gets the ranking it would get alone,
billed per creative and audience as before. With --record-outcomes each audience is ranked
alone, since outcomes are recorded against single-audience rankings. Labelled pairs go to the panel
${LIMITS.pairsMax} to a request. It prints, per group and pooled: n, Spearman rho with its 95 % bootstrap
interval, Kendall tau-b, and pairwise agreement (raw scores → after close-pair refinement); for
labelled pairs, how often the panel's winner is the labelled one. Then the models that answered
(SIMULATED when the offline sim model did) and the credits used.

  --metric <name>               what the outcome column measures, e.g. ctr (default outcome)
  --goal <goal>                 for rows without a goal column (default purchase-intent)
  --audience-name <name>        for rows without an audience or audience_id
  --audience-description <text> with --audience-name
  --audience-id <id>            a saved audience, for rows without an audience or audience_id
  --asset-type <type>           as for rank (default "Social Media Post")
  --platform <platform>         as for rank
  --no-refine                   raw scores only: no close-pair refinement
  --out <file>                  the JSON result (default <dataset name>.eval.json here)
  --html <file>                 also write an HTML report: plots of score against outcome and
                                agreement by group, with thumbnails of the image files
  --record-outcomes             also record each ranked creative's outcome under --metric
                                (POST /api/v1/outcomes), so GET /api/v1/calibration and
                                adrank calibration include them
  --fresh                       start over, ignoring the resume file of an earlier run
  --json                        print the JSON result instead of the table

Requests go one at a time; progress and rate-limit waits show on stderr. After every request
the run is saved to <out>.state.json: run the same command again after an interruption and it
resumes, paying only for the requests it has not got (an interrupted request is sent with the
same Idempotency-Key, so the API answers it from its store instead of billing it twice). The
file is deleted when the run completes. The figures measure the model set-up that answered:
run the same dataset against two configurations to compare them.`;
