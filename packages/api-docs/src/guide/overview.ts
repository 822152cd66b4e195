// The opening of the docs page (info.description): what the API does and how to read a score.

export const OVERVIEW = `adrank scores ad creatives (images, optionally with their ad copy) against a simulated audience persona and returns them ranked. Every creative gets a score from 1 to 5, a written rationale and confidence signals. A second operation compares explicit pairs of creatives with a panel of five blinded model voters and returns every vote and raw voter response.

## Scores are relative

A score is relative to the other creatives of the same request. It is **not** a conversion probability and not a forecast of cost, return or causal lift. Compare scores only while the goal and the audience stay the same: scores for different goals, or for different audiences, are not comparable.

How a score is made: one scoring evaluation is 3 independent repetitions, each answered by a pair of generator models, so 6 generator samples. The answers are rated by semantic similarity over a five-bucket response distribution and the repetition scores are averaged. \`confidence\` and \`confidence_details\` tell you how decided the answers were. A creative sent with \`copy_context\` is scored as a full ad package and also on its image alone; the difference is its \`copy_lift\`.`;
