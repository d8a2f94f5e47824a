/**
 * Final answers of math problems: finding them in a completion and deciding whether two of them
 * mean the same number. Numbers are compared exactly, as fractions of big integers (no floating
 * point, no `eval`); anything that is not a plain number (expressions, intervals, words) is compared
 * as text after LaTeX spacing and wrappers are normalised. It is not a computer-algebra system:
 * `x + 1` and `1 + x` differ.
 */
import { extractBoxedAnswer } from "../parsers/boxed-answer.ts";
import { extractHashAnswer } from "../parsers/hash-answer.ts";

/** A number found in text, written as digits: sign, thousands separators, decimals, a fraction. */
const NUMBER_IN_TEXT =
  /(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\/\d+(?:\.\d+)?)?|(?<![\w.])-?\.\d+/g;

/**
 * The final answer of a completion: the last `\boxed{...}`, else the text after `####`, else the
 * last number in the text; null when there is none of them.
 *
 * @example
 * extractFinalAnswer("so the total is $1,250.") // "1,250"
 */
export function extractFinalAnswer(text: string): string | null {
  const boxed = extractBoxedAnswer(text, { strict: true })?.trim();
  if (boxed) return boxed;
  const hashed = extractHashAnswer(text);
  if (hashed !== null) return hashed;
  const numbers = text.match(NUMBER_IN_TEXT);
  return numbers ? numbers[numbers.length - 1]! : null;
}

/**
 * A canonical form of an answer: numbers become their exact value (`"3.50"`, `"$3.5"`,
 * `"\\frac{7}{2}"` and `"3.5 dollars"` all give `"3.5"`; `"1/3"` stays `"1/3"`); other answers lose
 * their whitespace, math delimiters, `\text{}` wrappers and LaTeX spacing.
 */
export function normalizeAnswer(answer: string): string {
  const cleaned = clean(answer);
  const value = parseNumber(cleaned);
  return value ? formatRational(value) : symbolic(cleaned);
}

/**
 * Whether two answers are the same: equal numbers (integers, decimals, fractions, with currency,
 * percent signs, thousands separators and units ignored), or equal text after normalisation.
 * An empty answer equals nothing.
 *
 * @example
 * answersEquivalent("\\dfrac{1}{2}", "0.5") // true
 * answersEquivalent("$1,000", "1000") // true
 */
export function answersEquivalent(a: string, b: string): boolean {
  const left = normalizeAnswer(a);
  return left !== "" && left === normalizeAnswer(b);
}

// ---- cleaning shared by numbers and symbols ----

const TEXT_WRAPPER = /\\(?:text|textbf|textit|textrm|mathrm|mathbf|mbox|operatorname)\s*\{([^{}]*)\}/g;
const LATEX_SPACING = /\\(?:[,;:! ]|quad\b|qquad\b)|~/g;
const DEGREES = /\^\s*\{?\s*\\circ\s*\}?|\\circ\b|\\degree\b|°/g;

function clean(answer: string): string {
  let s = answer.trim();
  if (s.includes("\\boxed") || s.includes("\\fbox")) s = extractBoxedAnswer(s, { strict: true }) ?? s;
  s = s.replace(/\u2212/g, "-");
  for (let previous = ""; previous !== s; ) {
    previous = s;
    s = unwrapDelimiters(s.trim());
    s = s.replace(TEXT_WRAPPER, "$1");
  }
  s = s
    .replace(/\\(?:left|right)\b|\\displaystyle\b/g, "")
    .replace(LATEX_SPACING, " ")
    .replace(/\\[dt]frac\b/g, "\\frac")
    .replace(/\{,\}/g, ",")
    .replace(DEGREES, "")
    .replace(/\s+/g, " ")
    .trim();
  // A sentence's full stop is not part of the answer ("18 dollars.").
  return s.replace(/\.+$/, "").trim();
}

/** `$x$`, `$$x$$`, `\(x\)`, `\[x\]` → `x`, when the delimiters wrap the whole answer. */
function unwrapDelimiters(s: string): string {
  for (const [open, close] of [
    ["$$", "$$"],
    ["\\(", "\\)"],
    ["\\[", "\\]"],
    ["$", "$"],
  ] as const) {
    if (s.length > open.length + close.length && s.startsWith(open) && s.endsWith(close)) {
      return s.slice(open.length, s.length - close.length).trim();
    }
  }
  return s;
}

function symbolic(cleaned: string): string {
  return cleaned
    .replace(/\\sqrt\s*(\w)/g, "\\sqrt{$1}")
    .replace(/^\(([A-Za-z])\)$/, "$1")
    .replace(/\s+/g, "");
}

// ---- numbers ----

interface Rational {
  /** Sign and magnitude. */
  num: bigint;
  /** Always positive; the fraction is in lowest terms. */
  den: bigint;
}

const CURRENCY = /\\?\$|€|£|¥|\\euro\b|\\pounds\b/g;
const PERCENT = /\\?%/g;
const UNSIGNED = String.raw`(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?: \d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)`;
const SIGNED = String.raw`[+-]?\s*${UNSIGNED}`;
const NUMBER_FORMS = [
  new RegExp(String.raw`^\\frac\s*\{\s*(${SIGNED})\s*\}\s*\{\s*(${SIGNED})\s*\}`),
  /^\\frac\s*(\d)\s*(\d)/,
  new RegExp(String.raw`^(${UNSIGNED})\s*/\s*(${SIGNED})`),
  new RegExp(`^(${UNSIGNED})()`),
];
/** Words after a number that name its unit: "dollars", "km/h", "m^2", "miles per hour". */
const UNIT_WORD = String.raw`[A-Za-z]+\.?(?:\^\s*\{?-?\d\}?|[²³])?`;
const UNIT_TAIL = new RegExp(String.raw`^${UNIT_WORD}(?:(?:\s+|\s*/\s*|-)${UNIT_WORD})*$`);
/** Units that may follow a number without a space ("5cm"); other letters make it an expression ("2x"). */
const ATTACHED_UNITS = new Set(
  "mm cm m km in ft yd mi mg g kg lb lbs oz ml mL l L s sec min h hr hrs mph kph kmh".split(" "),
);

/** The exact value of an answer that is a plain number, or null. */
function parseNumber(cleaned: string): Rational | null {
  let s = cleaned
    .replace(CURRENCY, "")
    .replace(PERCENT, "")
    // "x = 5": the value is what is assigned.
    .replace(/^[A-Za-z]\s*=\s*/, "")
    .trim();
  let negative = false;
  while (/^[+-]/.test(s)) {
    if (s[0] === "-") negative = !negative;
    s = s.slice(1).trim();
  }
  for (const form of NUMBER_FORMS) {
    const match = form.exec(s);
    if (!match) continue;
    const tail = s.slice(match[0].length);
    if (!isUnitTail(tail)) return null;
    const numerator = parseDecimal(match[1]!);
    const denominator = match[2] ? parseDecimal(match[2]) : { num: 1n, den: 1n };
    if (!numerator || !denominator || denominator.num === 0n) return null;
    const value = reduce(numerator.num * denominator.den, numerator.den * denominator.num);
    return negative ? { num: -value.num, den: value.den } : value;
  }
  return null;
}

function isUnitTail(tail: string): boolean {
  if (tail.trim() === "") return true;
  if (!UNIT_TAIL.test(tail.trim())) return false;
  if (/^\s/.test(tail)) return true;
  return ATTACHED_UNITS.has(tail.split(/[\s/^.-]/, 1)[0]!);
}

function parseDecimal(text: string): Rational | null {
  const match = /^([+-]?)\s*([\d, ]*)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const whole = match[2]!.replace(/[, ]/g, "");
  const fraction = match[3] ?? "";
  if (whole === "" && fraction === "") return null;
  const magnitude = BigInt(`${whole || "0"}${fraction}`);
  return reduce(match[1] === "-" ? -magnitude : magnitude, 10n ** BigInt(fraction.length));
}

function reduce(num: bigint, den: bigint): Rational {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const divisor = gcd(num < 0n ? -num : num, den);
  return { num: num / divisor, den: den / divisor };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** Decimal notation when the value has a finite one ("3.5", "-0.125"), else "p/q" ("1/3"). */
function formatRational({ num, den }: Rational): string {
  let rest = den;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest !== 1n) return `${num}/${den}`;
  const digits = Math.max(twos, fives);
  const scaled = (num * 10n ** BigInt(digits)) / den;
  const magnitude = (scaled < 0n ? -scaled : scaled).toString().padStart(digits + 1, "0");
  const sign = scaled < 0n ? "-" : "";
  if (digits === 0) return `${sign}${magnitude}`;
  return `${sign}${magnitude.slice(0, -digits)}.${magnitude.slice(-digits)}`;
}
