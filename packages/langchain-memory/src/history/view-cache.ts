import type { BaseMessage } from '@langchain/core/messages';
import type { CompactedView } from './compacted-view';

/** The last compacted view, and what it was made for. */
interface CachedView {
  key: string;
  messages: Promise<BaseMessage[]>;
  /** Raw estimate of the view (no overhead), for calibration. */
  viewTokens: number;
}

/**
 * The last view a history handed out, kept while the stored conversation keeps its length and the
 * overhead next to it stays the same: `RunnableWithMessageHistory` reads the history twice per run
 * and slices by length, so both reads must see the same list, even when a background summary
 * completes in between. A view whose making failed is forgotten.
 */
export class ViewCache {
  #view: CachedView | undefined;

  /** The view for `key` (`stored length|overhead`), made by `make` when the cached one is for another key. */
  async get(key: string, make: () => Promise<CompactedView>): Promise<BaseMessage[]> {
    let view = this.#view;
    if (view === undefined || view.key !== key) {
      const made: CachedView = {
        key,
        viewTokens: 0,
        messages: make().then(
          ({ messages, viewTokens }) => {
            made.viewTokens = viewTokens;
            return messages;
          },
          (error: unknown) => {
            if (this.#view === made) this.#view = undefined;
            throw error;
          },
        ),
      };
      this.#view = view = made;
    }
    return [...(await view.messages)];
  }

  /** Forgets the view and returns its estimate (undefined when there was none): what the model was sent. */
  take(): { viewTokens: number } | undefined {
    const view = this.#view;
    this.#view = undefined;
    return view;
  }

  /** Forgets the view. */
  clear(): void {
    this.#view = undefined;
  }
}
