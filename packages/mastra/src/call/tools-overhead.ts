import { RECALL_TOOL_NAME } from '@spillway/core';

/**
 * The parts of a step's tools the model sees (name, description, input schema), as JSON text for
 * counting: the tool definitions travel with every request. Mastra tools carry their schema as a
 * zod or Standard Schema object; its JSON Schema is read when it offers one, else its JSON form.
 */
export function toolsText(tools: unknown, activeTools?: readonly string[]): string {
  if (typeof tools !== 'object' || tools === null) return '';
  const active = activeTools === undefined ? undefined : new Set(activeTools);
  const described: unknown[] = [];
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    if (active !== undefined && !active.has(name)) continue;
    const { description, inputSchema, parameters } = (tool ?? {}) as Record<string, unknown>;
    described.push({ name, description, schema: schemaJson(inputSchema ?? parameters) });
  }
  return described.length === 0 ? '' : safeJson(described);
}

/** Whether the step's tools include the read-back tool, so the request may say it exists. */
export function hasRecallTool(tools: unknown, activeTools?: readonly string[]): boolean {
  if (typeof tools !== 'object' || tools === null) return false;
  if (activeTools !== undefined && !activeTools.includes(RECALL_TOOL_NAME)) return false;
  return RECALL_TOOL_NAME in tools;
}

/** A schema (zod, Standard Schema, JSON Schema) as the JSON text the model is sent. */
export function schemaText(schema: unknown): string {
  return safeJson(schemaJson(schema));
}

function schemaJson(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  try {
    const standard = (schema as { '~standard'?: { jsonSchema?: { input?: unknown } } })['~standard'];
    const input = standard?.jsonSchema?.input;
    if (typeof input === 'function') return input.call(standard?.jsonSchema, { target: 'draft-07' });
    const toJSONSchema = (schema as { toJSONSchema?: unknown }).toJSONSchema;
    if (typeof toJSONSchema === 'function') return toJSONSchema.call(schema);
  } catch {
    // Counted by its JSON form below.
  }
  return schema;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
