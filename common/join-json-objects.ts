// Joining JSON texts of objects without parsing them again: the gateway serializes a request's large
// billed part once and adds its few generation knobs beside it, for the call log and the upstream.

/**
 * The JSON text of one object with the members of both, `{"a":1}` and `{"b":2}` → `{"a":1,"b":2}`.
 * Both must be JSON.stringify's text of an object, and their keys must not overlap (a repeated key
 * would be read as the last one by JSON.parse, and is ambiguous elsewhere).
 */
export function joinJsonObjects(first: string, second: string): string {
  if (first === '{}') return second;
  if (second === '{}') return first;
  return `${first.slice(0, -1)},${second.slice(1)}`;
}
