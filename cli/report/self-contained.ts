// What would make a report page reach the network when opened: any src, href, srcset, url(),
// @import or <script>/<link>/<iframe>/<object>/<embed> that is not a same-page anchor or a data: URI.
// The report tests assert this is empty (text that merely mentions a URL is escaped and harmless,
// but the check is strict about it too).

export function externalReferences(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/\b(?:src|href|srcset|action|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)) {
    const target = match[1]!;
    if (!target.startsWith('#') && !target.startsWith('data:')) found.push(match[0]);
  }
  for (const match of html.matchAll(/url\(\s*["']?([^"')]+)/gi))
    if (!match[1]!.startsWith('data:') && !match[1]!.startsWith('#')) found.push(match[0]);
  for (const match of html.matchAll(/@import|<(?:script|link|iframe|object|embed|base)\b/gi)) found.push(match[0]);
  return found;
}
