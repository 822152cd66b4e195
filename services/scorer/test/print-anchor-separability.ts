// Prints how alike the offline sim finds the five anchors of each reference set (mean
// pairwise cosine; the scorer warns from 0.65) as a markdown table, for reports and reviews.
// Run: node services/scorer/test/print-anchor-separability.ts
import { createSimEmbedder } from "@adrank/models";
import { ANCHOR_SETS, anchorSets, meanPairwiseCosine } from "@adrank/ssr";

type Goal = keyof typeof ANCHOR_SETS;
const embedder = createSimEmbedder();
const goals = Object.keys(ANCHOR_SETS) as Goal[];

const rows: Array<[Goal, number[]]> = [];
for (const goal of goals) {
  const sets = anchorSets(goal);
  rows.push([goal, await Promise.all(sets.map(async (set) => meanPairwiseCosine(await embedder.embed(set))))]);
}

const setCount = Math.max(...rows.map(([, values]) => values.length));
const all = rows.flatMap(([, values]) => values);
const lines = [
  `| goal | ${Array.from({ length: setCount }, (_, i) => `set ${i + 1}`).join(" | ")} |`,
  `|---|${"---:|".repeat(setCount)}`,
  ...rows.map(([goal, values]) => `| ${goal} | ${Array.from({ length: setCount }, (_, i) => values[i]?.toFixed(3) ?? "").join(" | ")} |`),
  "",
  `min ${Math.min(...all).toFixed(3)}, max ${Math.max(...all).toFixed(3)} over ${all.length} sets`,
];
console.log(lines.join("\n"));
