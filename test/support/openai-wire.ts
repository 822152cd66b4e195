/** A chat completion as the OpenAI wire format carries it, for fake providers in tests. */
export function chatCompletion(text: string, model = "fake-model") {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 },
  };
}
