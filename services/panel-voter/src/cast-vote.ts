import type { Generator } from "@adrank/models";
import type { VoteJob, VoteResult } from "@adrank/bus-contracts";
import { buildPersona, buildVotePrompt, parseVoteAnswer } from "@adrank/ssr";

export interface CastVoteDeps {
  voter: Generator;
  /** The normalized image bytes, or null when they have expired from the store. */
  loadImage(ref: string): Promise<Uint8Array | null>;
}

/** A failure the requester should read as the vote's reason. */
export class VoteError extends Error {
  override name = "VoteError";
}

type CastOutcome = Extract<VoteResult["outcome"], { ok: true }>;

/**
 * One blinded vote: the persona, the goal and two images named only by position. The
 * answer is read back without guessing: no clear verdict makes an invalid vote that keeps
 * the raw response.
 */
export async function castVote(job: VoteJob, deps: CastVoteDeps, signal: AbortSignal): Promise<CastOutcome> {
  const [first, second] = await Promise.all(job.images.map((image) => deps.loadImage(image.ref)));
  if (!first || !second) throw new VoteError("A prepared image expired before the vote; please retry the request.");
  const persona = buildPersona(job.persona);
  const prompt = buildVotePrompt({ persona, goal: job.persona.goal, copyA: job.copy[0], copyB: job.copy[1] });
  const answer = await deps.voter.generate({
    system: prompt.system,
    user: prompt.user,
    images: [
      { bytes: first, mime: job.images[0].mime },
      { bytes: second, mime: job.images[1].mime },
    ],
    signal,
    simHints: {
      task: "vote",
      goal: job.persona.goal,
      assetType: job.persona.assetType,
      platform: job.persona.platform,
      copy: null,
      copyPerImage: [job.copy[0], job.copy[1]],
      demographics: job.persona.audience.demographics,
      repetition: job.seat,
      generatorIndex: 0,
    },
  });
  const parsed = parseVoteAnswer(answer.text);
  const model = `${deps.voter.provider}:${deps.voter.model}`;
  if ("invalid" in parsed) return { ok: true, model, response: answer.text, choice: null, invalidReason: parsed.invalid, simulated: answer.simulated };
  return { ok: true, model, response: answer.text, choice: parsed.winner === 1 ? "first" : "second", simulated: answer.simulated };
}
