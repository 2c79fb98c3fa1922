import { Chat } from '../components/chat';
import { CONTEXT_WINDOW, MODEL_NAME } from '../lib/compaction';

// Rendered per request: the model and window come from the server's environment.
export const dynamic = 'force-dynamic';

export default function Page() {
  return <Chat modelName={MODEL_NAME} contextWindow={CONTEXT_WINDOW} />;
}
