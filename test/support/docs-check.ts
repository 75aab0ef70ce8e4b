// Checks a tree of Markdown documents: every relative link reaches a file (and, with an anchor, a
// heading of that file), and every `trl …` command line in a code span or block names a real
// command and only options that command's parser accepts (cli/command-table.ts, the table
// `trl help` prints). Each problem names the file, the line and the fix.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A command's name (`serve keys` is one) mapped to the options its parser accepts. */
export type CommandTable = Record<string, Record<string, unknown>>;

export interface DocProblem {
  file: string;
  line: number;
  message: string;
}

/** README.md and every .md file under docs/, relative to root, sorted. */
export function documentFiles(root: string): string[] {
  const files = existsSync(path.join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) files.push(relative);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return files.sort();
}

interface DocumentLine {
  number: number;
  text: string;
  /** Inside a fenced code block. */
  fenced: boolean;
}

function documentLines(text: string): DocumentLine[] {
  let fence: string | undefined;
  return text.split('\n').map((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      const opening = fence === undefined;
      fence = opening ? marker : undefined;
      return { number: index + 1, text: line, fenced: true };
    }
    return { number: index + 1, text: line, fenced: fence !== undefined };
  });
}

/** The inline code spans of a line outside code blocks. */
function codeSpans(line: string): string[] {
  const spans: string[] = [];
  const pattern = /(`+)(.+?)\1/g;
  for (let match = pattern.exec(line); match; match = pattern.exec(line)) spans.push(match[2]!.trim());
  return spans;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of documentLines(markdown)) {
    if (line.fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative link targets of a line outside code: [text](target), ![alt](target), [label]: target. */
function linkTargets(line: string): string[] {
  const withoutCode = line.replace(/(`+).+?\1/g, '');
  const targets: string[] = [];
  const inline = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (let match = inline.exec(withoutCode); match; match = inline.exec(withoutCode)) targets.push(match[1]!);
  const definition = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(\s|$)/.exec(withoutCode);
  if (definition) targets.push(definition[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function checkLink(root: string, file: string, target: string): string | undefined {
  const [linkPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = linkPath === '' ? path.join(root, file) : path.join(root, path.dirname(file), decodeURI(linkPath));
  const shown = path.relative(root, resolved);
  if (!resolved.startsWith(root + path.sep) && resolved !== root)
    return `link "${target}" leaves the repository; link inside it or use a full https:// address`;
  if (!existsSync(resolved))
    return `link "${target}" points at ${shown}, which does not exist; fix the path or create the page`;
  if (anchor === undefined || anchor === '' || !resolved.endsWith('.md') || statSync(resolved).isDirectory())
    return undefined;
  const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
  if (anchors.has(anchor)) return undefined;
  return `link "${target}": ${shown} has no heading with anchor #${anchor}; use one of ${[...anchors].map((a) => `#${a}`).join(', ') || '(no headings)'}`;
}

/**
 * The `trl` command lines in a piece of code: a `trl` or `./trl` word where a shell command starts (the
 * start, after a `$ ` prompt, `;`, `&&`, `|`, `(` and any VAR=value settings), to the end, a shell
 * comment, a pipe, a redirection or `;` / `&&`. Output that merely mentions trl is not a command.
 */
export function commandLines(code: string): string[][] {
  const lines: string[][] = [];
  const pattern = /(?:^\s*|\$\s+|[;&|(]\s*)(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:\.\/)?trl(?=\s)/g;
  for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
    const rest = code.slice(match.index + match[0].length);
    const end = rest.search(/\s#|\s\|\s|\s\d?>|;|&&|\|\||`/);
    const words = (end === -1 ? rest : rest.slice(0, end))
      .split(/\s+/)
      .map((word) => word.replace(/^[[(]+|[\]),]+$/g, ''))
      .filter((word) => word !== '');
    lines.push(words);
  }
  return lines;
}

/** What is wrong with one command line (its words after `trl`), or nothing. */
export function checkCommandLine(words: string[], commands: CommandTable, helpNames: readonly string[]): string[] {
  const [name, next] = words;
  if (name === undefined || name === '…' || name === '...' || /^<.*>$/.test(name)) return [];
  if (helpNames.includes(name)) return [];
  const command = name === 'serve' && next === 'keys' ? 'serve keys' : name;
  const options = commands[command];
  if (options === undefined)
    return [
      `"trl ${words.join(' ')}": there is no command "${name}" (commands: ${Object.keys(commands).join(', ')}); fix the doc, or add the command to cli/command-table.ts`,
    ];
  const problems: string[] = [];
  for (const word of words) {
    for (const alternative of word.split('|')) {
      if (!alternative.startsWith('--')) continue;
      const flag = alternative.slice(2).split('=')[0]!;
      if (flag === '' || flag === '…') continue;
      if (!(flag in options))
        problems.push(
          `"trl ${words.join(' ')}": trl ${command} has no option --${flag} (it accepts ${
            Object.keys(options)
              .map((option) => `--${option}`)
              .join(', ') || 'none'
          }); fix the doc, or add the option to cli/command-table.ts`,
        );
    }
  }
  return problems;
}

/** Every problem of the documents under root: broken links and unknown commands or options. */
export function checkDocuments(root: string, commands: CommandTable, helpNames: readonly string[]): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const file of documentFiles(root)) {
    for (const line of documentLines(readFileSync(path.join(root, file), 'utf8'))) {
      const report = (message: string) => problems.push({ file, line: line.number, message });
      if (!line.fenced) {
        for (const target of linkTargets(line.text)) {
          const problem = checkLink(root, file, target);
          if (problem) report(problem);
        }
      }
      const code = line.fenced ? [line.text] : codeSpans(line.text);
      for (const piece of code)
        for (const words of commandLines(piece)) checkCommandLine(words, commands, helpNames).forEach(report);
    }
  }
  return problems;
}

export function formatProblems(problems: DocProblem[]): string {
  return problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`).join('\n');
}
