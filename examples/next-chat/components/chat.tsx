'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../lib/chat-message';
import { demoMessage } from '../lib/demo-script';
import { ContextMeter } from './context-meter';
import { MessageView } from './message-view';

/**
 * The chat page: `useChat` against `/api/chat`, the context meter fed by the route's
 * `data-context-usage` parts (and by a finished summary), and a switch that makes the summarizer
 * fail, to see Spillway's fallback.
 */
export function Chat({ modelName, contextWindow }: { modelName: string; contextWindow: number }) {
  const [usage, setUsage] = useState({ sent: 0, history: 0 });
  const [outage, setOutage] = useState(false);
  const [input, setInput] = useState('');
  const [sent, setSent] = useState(0);
  const { messages, sendMessage, status, error } = useChat<ChatMessage>({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    onData: (part) => {
      if (part.type === 'data-context-usage') {
        setUsage({ sent: part.data.tokensAfter, history: part.data.tokensBefore });
      } else if (part.type === 'data-spillway') {
        // While a summary is made the meter shows what it replaces; once made, what is left.
        const { status, tokensBefore, tokensAfter } = part.data;
        if (status === 'compacting' && tokensBefore !== undefined) {
          setUsage((current) => ({ sent: tokensBefore, history: Math.max(current.history, tokensBefore) }));
        } else if (status === 'compacted' && tokensAfter !== undefined) {
          setUsage((current) => ({ ...current, sent: tokensAfter }));
        }
      }
    },
  });
  const busy = status === 'submitted' || status === 'streaming';
  // The newest indicator, also shown next to the meter while a summary is being made.
  const working = messages.at(-1)?.parts.findLast((part) => part.type === 'data-spillway');
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the messages change
  useEffect(() => {
    // Not returned: newer browsers return a promise here, and React would take it for a cleanup.
    void end.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const send = (text: string) => {
    if (text.trim() === '' || busy) return;
    void sendMessage({ text }, { body: { simulateOutage: outage } });
    setSent((count) => count + 1);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(input);
    setInput('');
  };

  return (
    <main className="chat" data-status={status}>
      <header className="chat-header">
        <h1>Spillway chat</h1>
        <span className="model">
          {modelName} · window {contextWindow.toLocaleString('en-US')} tokens
        </span>
        <ContextMeter tokensSent={usage.sent} tokensHistory={usage.history} contextWindow={contextWindow} />
        {working?.type === 'data-spillway' && working.data.status === 'compacting' && (
          <div className="header-status" data-testid="header-indicator">
            {working.data.message}
          </div>
        )}
      </header>
      <section className="messages" data-testid="messages">
        {messages.length === 0 && (
          <p className="hint">
            Ask the agent to read files, fetch pages or take screenshots — or press “Next demo message”. The
            window is small on purpose: within a few turns Spillway summarizes the older part of the
            conversation while you watch.
          </p>
        )}
        {messages.map((message) => (
          <MessageView key={message.id} message={message} />
        ))}
        {error && (
          <div className="notice notice-error" data-testid="chat-error">
            {error.message}
          </div>
        )}
        <div ref={end} className="end" />
      </section>
      <form className="composer" onSubmit={submit}>
        <input
          data-testid="chat-input"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Read src/app.ts"
          aria-label="Message"
        />
        <button type="submit" disabled={busy || input.trim() === ''} data-testid="send">
          Send
        </button>
        <button type="button" disabled={busy} onClick={() => send(demoMessage(sent))} data-testid="demo-next">
          Next demo message
        </button>
        <label className="outage">
          <input
            type="checkbox"
            checked={outage}
            onChange={(event) => setOutage(event.target.checked)}
            data-testid="outage-toggle"
          />
          Summarizer outage
        </label>
      </form>
    </main>
  );
}
