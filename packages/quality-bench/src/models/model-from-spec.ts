import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { InvalidConfigError } from '@spillway/core';

/** Options of {@link modelFromSpec}. */
export interface ModelFromSpecOptions {
  /**
   * The model: `openai-compatible:<baseURL>#<model>` (any OpenAI-compatible server: Ollama,
   * llama.cpp, vLLM; key from `OPENAI_COMPATIBLE_API_KEY` when the server wants one),
   * `openai:<model>` (key from `OPENAI_API_KEY`) or `anthropic:<model>` (key from
   * `ANTHROPIC_API_KEY`).
   */
  spec: string;
  /**
   * The command-line option the spec came from (named in errors).
   * @default '--model'
   */
  option?: string;
  /**
   * Where API keys are read from.
   * @default process.env
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An AI SDK language model from a spec string (see {@link ModelFromSpecOptions.spec}).
 *
 * @throws {InvalidConfigError} naming `option` when the spec has no known provider, no model, a
 *   bad base URL, or its provider's API key is not set.
 */
export function modelFromSpec({
  spec,
  option = '--model',
  env = process.env,
}: ModelFromSpecOptions): LanguageModelV4 {
  const fail = (message: string) => new InvalidConfigError({ option, value: spec, message });
  const colon = spec.indexOf(':');
  if (colon <= 0)
    throw fail('expected <provider>:<model>, e.g. openai-compatible:http://127.0.0.1:11434/v1#llama3.2');
  const provider = spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  const key = (name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw fail(`${provider} needs ${name} in the environment`);
    return value;
  };
  switch (provider) {
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      const baseURL = hash === -1 ? '' : rest.slice(0, hash);
      const model = hash === -1 ? '' : rest.slice(hash + 1);
      if (model === '') throw fail('expected openai-compatible:<baseURL>#<model>');
      try {
        new URL(baseURL);
      } catch {
        throw fail(`"${baseURL}" is not a URL`);
      }
      const apiKey = env.OPENAI_COMPATIBLE_API_KEY;
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(apiKey ? { apiKey } : {}),
      }).chatModel(model);
    }
    case 'openai':
      if (rest === '') throw fail('expected openai:<model>');
      return createOpenAI({ apiKey: key('OPENAI_API_KEY') })(rest);
    case 'anthropic':
      if (rest === '') throw fail('expected anthropic:<model>');
      return createAnthropic({ apiKey: key('ANTHROPIC_API_KEY') })(rest);
    default:
      throw fail(`unknown provider "${provider}" (openai-compatible, openai, anthropic)`);
  }
}
