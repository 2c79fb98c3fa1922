import { createAiSdkSession } from './ai-sdk-session';
import type { Strategy } from './strategy';
import { transcriptReadBack } from './transcript-read-back';

/** Options of {@link sendNothingStrategy}. */
export interface SendNothingStrategyOptions {
  /**
   * The row label.
   * @default 'send nothing (control)'
   */
  name?: string;
  /**
   * Give the model a plain search over the whole transcript (`transcriptReadBack`), driven by the
   * same query policy as every strategy's read-back: what search alone finds.
   * @default false
   */
  readBack?: boolean;
}

/**
 * A control: every request holds only the system prompt and the current turn (the latest user
 * message and what followed it). Nothing older is kept, so every older needle it "keeps" would be a
 * bug in the scorer, and what it finds with a read-back is what search alone finds.
 */
export function sendNothingStrategy({
  name = 'send nothing (control)',
  readBack = false,
}: SendNothingStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: readBack,
    async start(context) {
      const session = createAiSdkSession({
        context,
        prepareMessages: (messages) => {
          let latestUser = messages.length - 1;
          while (latestUser > 0 && messages[latestUser]!.role !== 'user') latestUser--;
          return messages.slice(Math.max(0, latestUser));
        },
      });
      return {
        step: session.step,
        ...(readBack ? { readBack: transcriptReadBack() } : {}),
        summarizerCalls: () => 0,
        summarizerTokens: () => 0,
      };
    },
  };
}
