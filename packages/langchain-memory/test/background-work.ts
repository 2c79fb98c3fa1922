import type { Summarizer } from '@spillway/core';
import { createModelSummarizer } from '../src/summarize/model-summarizer';
import { createSummaryModel } from './agent-session';

/**
 * A summarizer that writes with the package's fake summary model, but only once `open()` is
 * called: `called` resolves when the first summary is asked for, so a test can hold a background
 * summary in flight and see what waits for it.
 */
export function gatedSummarizer() {
  const summaryModel = createSummaryModel();
  const summarize = createModelSummarizer(summaryModel);
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let started: () => void = () => {};
  const called = new Promise<void>((resolve) => {
    started = resolve;
  });
  const summarizer: Summarizer = async (input) => {
    started();
    await gate;
    return summarize(input);
  };
  return { summarizer, summaryModel, called, open };
}

/**
 * Which comes first: `work` settling (no summary was needed), or the summarizer being called
 * (a summary is in flight). Deterministic: no timer decides it.
 */
export function summaryStartedBy(work: Promise<unknown> | undefined, called: Promise<void>) {
  return Promise.race([(work ?? Promise.resolve()).then(() => false), called.then(() => true)]);
}

/** Whether `promise` is still pending after `ms` milliseconds. */
export function stillPendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms)),
  ]);
}
