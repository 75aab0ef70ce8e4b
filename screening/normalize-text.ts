// The text the static scan reads: NFKC (full-width and mathematical letters become plain ones),
// invisible characters removed (zero-width spaces and joiners, soft hyphens, bidi and other format
// controls, stray combining marks) and the common Cyrillic and Greek look-alikes of Latin letters
// folded. A word split by a zero-width space or spelled with a Cyrillic "а" then matches again.
// Line breaks are never touched, so a line number in the result is a line number in the file.

const lookAlikes: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  А: 'A',
  В: 'B',
  Е: 'E',
  Ё: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ї: 'I',
  Ј: 'J',
  Ԁ: 'D',
  Ԛ: 'Q',
  Ԝ: 'W',
  Һ: 'H',
  Ӏ: 'I',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ϲ: 'c',
  ϳ: 'j',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  Ϲ: 'C',
  // Latin look-alikes outside ASCII that NFKC keeps
  ı: 'i',
  ȷ: 'j',
  ɑ: 'a',
  ɡ: 'g',
  ɩ: 'i',
  ʏ: 'y',
  ᴀ: 'A',
};
const lookAlikePattern = new RegExp(`[${Object.keys(lookAlikes).join('')}]`, 'gu');
// Format controls (Cf: zero-width space, joiners, word joiner, BOM, soft hyphen, bidi marks),
// variation selectors and nonspacing marks left over after NFKC composed what it could.
const invisible = /[\p{Cf}\p{Mn}\u034f\ufe00-\ufe0f]/gu;
const suspicious = /[^\x00-\x7f]/;

/** `text` as the scan reads it; ASCII text is returned as it is, at no cost. */
export function normalizeForScan(text: string): string {
  if (!suspicious.test(text)) return text;
  return text
    .normalize('NFKC')
    .replace(invisible, '')
    .replace(lookAlikePattern, (char) => lookAlikes[char] ?? char);
}
