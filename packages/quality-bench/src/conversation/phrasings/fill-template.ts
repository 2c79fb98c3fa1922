/**
 * Fills `{name}` slots in a phrasing template. Every slot must be given (a typo in a data file
 * fails loudly instead of writing `{subjet}` into a conversation).
 */
export function fillTemplate(template: string, slots: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`phrasing template "${template}" has no value for {${name}}`);
    return value;
  });
}
