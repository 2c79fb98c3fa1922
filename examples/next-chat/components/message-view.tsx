import type { ChatMessage } from '../lib/chat-message';
import { CompactionNotice } from './compaction-notice';

type Part = ChatMessage['parts'][number];

const characters = (text: string) => `${text.length.toLocaleString('en-US')} characters`;

function ToolPart({ part }: { part: Extract<Part, { type: `tool-${string}` }> }) {
  const name = part.type.slice('tool-'.length);
  if (part.state === 'output-error') {
    return <div className="tool tool-error">{`${name} failed: ${part.errorText}`}</div>;
  }
  if (part.state !== 'output-available') {
    return <div className="tool tool-running">{`${name}…`}</div>;
  }
  switch (part.type) {
    case 'tool-read_file':
      return (
        <div className="tool">{`read_file ${part.output.path} — ${characters(part.output.content)}`}</div>
      );
    case 'tool-fetch_page':
      return <div className="tool">{`fetch_page ${part.output.url} — ${characters(part.output.html)}`}</div>;
    case 'tool-screenshot':
      return (
        <div className="tool">
          {`screenshot ${part.output.url} — ${part.output.width}×${part.output.height}`}
          {/* biome-ignore lint/performance/noImgElement: a data URL, nothing for next/image to optimize */}
          <img
            className="screenshot"
            src={`data:image/png;base64,${part.output.png}`}
            alt={`Screenshot of ${part.output.url}`}
            width={320}
            height={200}
          />
        </div>
      );
    default:
      return null;
  }
}

/** One message: text, tool calls with their outputs, and Spillway's notices. */
export function MessageView({ message }: { message: ChatMessage }) {
  return (
    <div className={`message message-${message.role}`} data-testid={`message-${message.role}`}>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'text') return <p key={key}>{part.text}</p>;
        if (part.type === 'data-spillway') return <CompactionNotice key={key} status={part.data} />;
        if (part.type.startsWith('tool-')) {
          return <ToolPart key={key} part={part as Extract<Part, { type: `tool-${string}` }>} />;
        }
        return null;
      })}
    </div>
  );
}
