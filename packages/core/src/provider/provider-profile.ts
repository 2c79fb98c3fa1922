import type { ImageProvider } from '../estimate/image-tokens';

/**
 * What the engine needs to know about the provider a request goes to: how it counts images, and
 * whether it can carry media inside a tool result at all.
 */
export interface ProviderProfile {
  /** The provider name as the adapter gave it (`model.provider` in the AI SDK), lower-cased. */
  readonly name: string | undefined;
  /** Whose image-token formula applies. */
  readonly imageFormula: ImageProvider;
  /**
   * `native`: images and files inside a tool result are sent as media (Anthropic, Google, the
   * OpenAI Responses API). `text`: the provider's request builder serializes them into the tool
   * message as JSON text, base64 and all (OpenAI chat completions and the OpenAI-compatible chat
   * APIs), so the model cannot see them and they cost about one token per 1.3 base64 characters.
   */
  readonly toolResultMedia: 'native' | 'text';
}

/**
 * The profile of a provider, from the name the framework gives it: the AI SDK's `model.provider`
 * (`openai.chat`, `openai.responses`, `anthropic.messages`, `google.generative-ai`,
 * `google.vertex.chat`, `amazon-bedrock`, `azure.chat`, `mistral.chat`, `groq.chat`,
 * `openai-compatible.chat`, …) or a LangChain chat model's provider (`anthropic`, `openai`,
 * `google-genai`, …). Unknown or missing names get Anthropic's image formula (the highest count of
 * the three for typical screenshots, so the estimate errs on the safe side) with native tool-result
 * media.
 *
 * Sources: `@ai-sdk/openai` (chat: `JSON.stringify` of tool-result content; responses:
 * `input_image` items), `@ai-sdk/anthropic` (`tool_result` with image blocks), `@ai-sdk/google`
 * (`functionResponse` + `inlineData`), each checked against its request builder.
 */
export function providerProfile(provider: string | undefined): ProviderProfile {
  if (provider === undefined || provider.trim() === '') {
    return { name: undefined, imageFormula: 'anthropic', toolResultMedia: 'native' };
  }
  const name = provider.trim().toLowerCase();
  if (/anthropic|claude|bedrock/.test(name)) {
    return { name, imageFormula: 'anthropic', toolResultMedia: 'native' };
  }
  if (/google|gemini|vertex/.test(name)) {
    return { name, imageFormula: 'google', toolResultMedia: 'native' };
  }
  // Chat-completions style APIs (OpenAI chat, Azure chat, and the OpenAI-compatible servers)
  // accept only text in a tool message.
  if (/(?:^|[.\-_/])(?:chat|completion|completions)$/.test(name) || /compatible/.test(name)) {
    return { name, imageFormula: 'openai', toolResultMedia: 'text' };
  }
  if (/openai|azure/.test(name)) return { name, imageFormula: 'openai', toolResultMedia: 'native' };
  return { name, imageFormula: 'anthropic', toolResultMedia: 'native' };
}
