// One shape for comparing texts: every run of whitespace one space, no space at either end.
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
