/** How full the context window is: what the last model call was sent, and the whole history. */
export function ContextMeter({
  tokensSent,
  tokensHistory,
  contextWindow,
}: {
  tokensSent: number;
  tokensHistory: number;
  contextWindow: number;
}) {
  const percent = Math.round((tokensSent / contextWindow) * 100);
  const level = percent >= 85 ? 'high' : percent >= 70 ? 'medium' : 'low';
  return (
    <div className="meter" data-testid="context-meter" data-tokens={tokensSent} data-percent={percent}>
      <div className="meter-label">
        <span>
          Context: <strong>{tokensSent.toLocaleString('en-US')}</strong> of{' '}
          {contextWindow.toLocaleString('en-US')} tokens ({percent}%)
        </span>
        <span className="meter-history">history: {tokensHistory.toLocaleString('en-US')} tokens</span>
      </div>
      <div className="meter-track">
        <div className={`meter-fill meter-${level}`} style={{ width: `${Math.min(100, percent)}%` }} />
        <div className="meter-mark" style={{ left: '85%' }} title="compaction threshold (85%)" />
      </div>
    </div>
  );
}
