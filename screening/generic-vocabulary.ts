// Words that say nothing about which scenario a text came from: English function words, the
// vocabulary every task instruction shares, and the keywords of the scripts solutions are written
// in. A fingerprint made only of these would also be found in honest policies (their system-prompt
// hints talk about files, tests and commands too), so fingerprints must carry other words.

const englishWords = `a about above after again against all also an and any are as at be because been before being
below between both but by can cannot could did do does doing done down during each either else even every few for from
further had has have having he her here hers how however i if in into is it its itself just least less like many may
me might more most much must my neither no nor not now of off often on once one only onto or other others otherwise our
out over own per rather same several shall she should since so some such than that the their them then there these
they this those though through thus to too two three four five under until up upon us very via was we were what when
where whether which while who whom whose why will with within without would yet you your yours its e g eg ie etc`;

const taskWords = `add added adds after again already answer appear appears argument arguments ask asked based below build
built call called calls case change changed changes character characters check checked checks clean code command commands
compare compared contain contains content contents correct correctly count counted create created current data default
described description different directory do does each empty ensure error errors every exact exactly example examples
exist exists exit expected fail fails false field fields file files find first fix fixed follow following format found
full given has header however ignore ignored include included includes input inside instead invalid itself keep kept
last leave line lines list listed look make makes may mean means message missing mode modify must name named names need
needed needs new next none note number numbers once one only order other output outputs part pass passed path paths print
printed produce produced program programs python python3 read reads result results return returned returns right rule rules
run runs same script scripts section see separate set shell should show shown simple single so solution some sort sorted
standard library start status string strings such sure task test tests text than that then time times true two type types
unchanged use used uses using valid value values version way what when which whole within without work works write
writes written wrong yes yyyy mm dd hh ss mon json csv txt md py sh bash tool tools file directory directories stdout stderr stdin utf 8 0 1 2
3 4 5 6 7 8 9 10 app tmp usr bin local`;

const codeWords = `def return import from for in if else elif while with as open print true false none null self not and
or is lambda try except finally pass raise class global nonlocal yield async await assert del break continue set euo
pipefail fi then do done echo cat eof py cd mkdir chmod rm rf mv cp exit export env len str int float dict list range
sorted key keys value values items append extend join split strip rstrip lstrip replace get read write text encoding path
os sys json re csv subprocess run check args argv main data result out file fh f line lines i j k x y n s p r w a b c d e
m t v const let var function new this typeof undefined`;

// What routing policies talk about in their prompts, logs and comments.
const policyWords = `model models call calls request requests response responses prompt prompts message messages token
tokens budget cost costs price prices cheap cheaper cheapest strong stronger strongest agent conversation context window
fallback retry retries retryable timeout timeouts rate limit limits limited error errors tool tools answer answers turn
turns ensemble vote votes majority judge pick route router routing policy upstream latency parallel serial cascade chain
usage spend spent cap completion completions system user assistant temperature long short large small max min maximum
minimum attempt attempts fail failed failure failures busy sql git config configuration debugging general category
wrangling database query queries schema traceback exception stack crash bug fix tests unit pytest recent last most
request reply step steps plan hint hints careful carefully verify check before after again retrying`;

export const genericWords: ReadonlySet<string> = new Set(
  `${englishWords} ${taskWords} ${codeWords} ${policyWords}`.split(/\s+/).filter(Boolean),
);

/** How many different words of `words` are not generic. */
export function distinctiveWordCount(words: readonly string[]): number {
  return new Set(words.filter((word) => !genericWords.has(word))).size;
}

/** Numbers that recur in any program (round numbers, powers of two, common limits), never fingerprints. */
export function isCommonNumber(digits: string): boolean {
  if (/^\d+0{2,}$/.test(digits)) return true;
  const value = Number(digits);
  if (Number.isInteger(Math.log2(value))) return true;
  return [65535, 86400, 31536000, 99999, 11111, 12345, 123456, 1234567, 3600000].includes(value);
}
