import type { Generator } from "@adrank/models";
import { callUsage, type VoteJob, type VoteResult } from "@adrank/bus-contracts";
import { modelIndexForSeat } from "@adrank/panel-domain";
import { buildPersona, buildVotePrompt, parseVoteAnswer, promptTemplateSpecimen } from "@adrank/ssr";
import { shortSha256 } from "@adrank/runtime";

/** The fingerprint of this build's prompt templates, for the vote's receipt; computed once, at start. */
const PROMPT_HASH = shortSha256(promptTemplateSpecimen());

export interface CastVoteDeps {
  /** The panel's models; `voterForSeat` says which one sits in a seat. */
  voters: readonly Generator[];
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
  const prompt = buildVotePrompt({ persona, goal: job.persona.goal, assetTypes: job.assetTypes, copyA: job.copy[0], copyB: job.copy[1] });
  const voter = voterForSeat(deps.voters, job.seat);
  // The images may have taken a while: a run cancelled meanwhile (or past its deadline) makes no model call.
  signal.throwIfAborted();
  const answer = await voter.generate({
    system: prompt.system,
    user: prompt.user,
    images: [
      { bytes: first, mime: job.images[0].mime },
      { bytes: second, mime: job.images[1].mime },
    ],
    signal,
    // A rate limit that resets after the job's deadline is not waited for.
    deadlineAt: job.deadline,
    simHints: {
      task: "vote",
      goal: job.persona.goal,
      // The sim reads each image's own type; "" when the request stated none.
      assetType: job.assetTypes[0] ?? "",
      assetTypePerImage: [job.assetTypes[0] ?? "", job.assetTypes[1] ?? ""],
      platform: job.persona.platform,
      copy: null,
      copyPerImage: [job.copy[0], job.copy[1]],
      demographics: job.persona.audience.demographics,
      repetition: job.seat,
      generatorIndex: 0,
    },
  });
  const parsed = parseVoteAnswer(answer.text);
  const model = `${voter.provider}:${voter.model}`;
  const usage = callUsage(model, answer.usage);
  const receipt = { model, versions: answer.modelVersion ? [answer.modelVersion] : [], temperature: voter.temperature, thinking: voter.thinking, promptHash: PROMPT_HASH };
  if ("invalid" in parsed) return { ok: true, model, response: answer.text, choice: null, invalidReason: parsed.invalid, simulated: answer.simulated, usage, receipt };
  return { ok: true, model, response: answer.text, choice: parsed.winner === 1 ? "first" : "second", simulated: answer.simulated, usage, receipt };
}

/** The model in a seat: panel-domain's seating, which shows each model both presentation orders. */
export function voterForSeat(voters: readonly Generator[], seat: number): Generator {
  return voters[modelIndexForSeat(seat, voters.length)]!;
}
