import type { AnswerWarning, AudienceSensitivity, WarningCode } from "@adrank/contracts";

const CODE: WarningCode = "persona_made_no_difference";

/**
 * `persona_made_no_difference`: one warning per pair of audiences that scored every asset
 * they share alike within noise, so setting them side by side says nothing about them.
 */
export function personaWarnings(sensitivity: readonly AudienceSensitivity[]): AnswerWarning[] {
  return sensitivity
    .filter((pair) => pair.persona_made_no_difference)
    .map((pair) => ({
      code: CODE,
      message: `"${pair.audience_a}" and "${pair.audience_b}" scored ${sharedAssets(pair.assets_compared)} alike within the repetitions' noise: the personas changed what the models said, not what they decided, so this pair's comparison tells you nothing about how these audiences differ.`,
    }));
}

const sharedAssets = (count: number) => (count === 1 ? "the one asset they share" : `all ${count} assets they share`);
