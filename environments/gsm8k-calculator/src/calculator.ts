/**
 * A safe arithmetic evaluator: a tokenizer and a recursive-descent parser over numbers and the
 * operators + - * / // % ** (or ^) with parentheses and signs. It never runs code (no `eval`, no
 * `Function`, no property lookups): anything that is not arithmetic is a `CalculationError`, as are
 * division by zero, results too large for a double, over-long input and too deep nesting.
 *
 * Grammar, loosest binding first (`**` binds tighter than a sign and to the right, as in Python:
 * -2**2 = -4, 2**3**2 = 512):
 *   expression = term (("+" | "-") term)*
 *   term       = unary (("*" | "/" | "//" | "%") unary)*
 *   unary      = ("+" | "-") unary | power
 *   power      = primary ("**" unary)?
 *   primary    = number | "(" expression ")"
 */
import { ToolError } from "@vf-rl/core";

/** Longest expression accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 1000;
/** Deepest nesting of parentheses, signs and powers accepted. */
export const MAX_DEPTH = 100;

/** Why an expression could not be calculated; the message says what to write instead. */
export class CalculationError extends ToolError {}

type Operator = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "(" | ")";

type Token =
  | { type: "number"; value: number; text: string; at: number }
  | { type: "operator"; op: Operator; at: number };

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORD = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
// × ÷ − as people and models write them, read as * / -.
const SYMBOLS: Record<string, Operator> = {
  "+": "+",
  "-": "-",
  "−": "-",
  "*": "*",
  "×": "*",
  "/": "/",
  "÷": "/",
  "%": "%",
  "^": "**",
  "(": "(",
  ")": ")",
};
const ALLOWED = "only numbers, + - * / // % ** ^ and parentheses are allowed";

/**
 * The value of an arithmetic expression, as a string with at most 15 significant digits (so float
 * noise such as 0.1 + 0.2 = 0.30000000000000004 reads 0.3). As in Python, `//` divides rounding
 * down and `%` is the remainder with the sign of the divisor.
 *
 * @example
 * calculate("(80000 + 50000) * 1.5") // "195000"
 * calculate("2 ^ 10 / 4") // "256"
 * calculate("process.exit()") // throws CalculationError: unexpected "process" at character 1: ...
 */
export function calculate(expression: string): string {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new CalculationError(
      `the expression is ${expression.length} characters long, over the limit of ${MAX_EXPRESSION_LENGTH}: split it into smaller steps`,
    );
  }
  const tokens = tokenize(expression);
  if (tokens.length === 0)
    throw new CalculationError("the expression is empty: write one such as 3 * (4 + 5)");
  const value = new Parser(tokens).parse();
  return formatNumber(value);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) {
        throw new CalculationError(`the number ${number[0]} is too large: write a number below 1e308`);
      }
      tokens.push({ type: "number", value, text: number[0], at });
      at += number[0].length;
      if (text[at] === "," && /\d{3}/.test(text.slice(at + 1, at + 4))) {
        throw new CalculationError(
          `"," at character ${at + 1}: write numbers without thousands separators (1000, not 1,000)`,
        );
      }
      continue;
    }
    const pair = text.slice(at, at + 2);
    if (pair === "**" || pair === "//") {
      tokens.push({ type: "operator", op: pair, at });
      at += 2;
      continue;
    }
    const op = SYMBOLS[char];
    if (op) {
      tokens.push({ type: "operator", op, at });
      at++;
      continue;
    }
    WORD.lastIndex = at;
    const word = WORD.exec(text)?.[0] ?? String.fromCodePoint(text.codePointAt(at)!);
    throw new CalculationError(`unexpected ${JSON.stringify(word)} at character ${at + 1}: ${ALLOWED}`);
  }
  return tokens;
}

class Parser {
  private next = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    const value = this.expression();
    const extra = this.tokens[this.next];
    if (extra) {
      const shown = extra.type === "number" ? extra.text : extra.op;
      throw new CalculationError(
        `unexpected "${shown}" at character ${extra.at + 1}: an operator (+ - * / // % **) or the end was expected`,
      );
    }
    return value;
  }

  private expression(): number {
    let value = this.term();
    for (let op = this.operator("+", "-"); op; op = this.operator("+", "-")) {
      const right = this.term();
      value = checked(op === "+" ? value + right : value - right, op);
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.operator("*", "/", "//", "%"); op; op = this.operator("*", "/", "//", "%")) {
      value = arithmetic(value, op, this.unary());
    }
    return value;
  }

  private unary(): number {
    if (++this.depth > MAX_DEPTH) {
      throw new CalculationError(
        `the expression nests more than ${MAX_DEPTH} levels deep (parentheses, signs or powers): simplify it`,
      );
    }
    const sign = this.operator("+", "-");
    const value = sign ? (sign === "-" ? -this.unary() : this.unary()) : this.power();
    this.depth--;
    return value;
  }

  private power(): number {
    const base = this.primary();
    if (!this.operator("**")) return base;
    const exponent = this.unary();
    if (base === 0 && exponent < 0) throw new CalculationError("0 to a negative power divides by zero");
    const value = base ** exponent;
    if (Number.isNaN(value)) {
      throw new CalculationError(`${formatNumber(base)} ** ${formatNumber(exponent)} is not a real number`);
    }
    return checked(value, "**");
  }

  private primary(): number {
    const token = this.tokens[this.next];
    if (token?.type === "number") {
      this.next++;
      return token.value;
    }
    if (token?.type === "operator" && token.op === "(") {
      this.next++;
      const value = this.expression();
      if (!this.operator(")")) {
        throw new CalculationError(`missing ")" for the "(" at character ${token.at + 1}`);
      }
      return value;
    }
    const previous = this.tokens[this.next - 1];
    const hint =
      previous?.type === "operator" && previous.op === "%"
        ? `: "%" is the remainder operator; for a percentage write 20/100, not 20%`
        : "";
    const where = token ? `at character ${token.at + 1}, found "${token.op}"` : "at the end";
    throw new CalculationError(`a number or "(" was expected ${where}${hint}`);
  }

  /** Consumes the next token when it is one of `ops`, returning it. */
  private operator<T extends Operator>(...ops: T[]): T | undefined {
    const token = this.tokens[this.next];
    if (token?.type !== "operator" || !ops.includes(token.op as T)) return undefined;
    this.next++;
    return token.op as T;
  }
}

function arithmetic(left: number, op: "*" | "/" | "//" | "%", right: number): number {
  if (op === "*") return checked(left * right, op);
  if (right === 0) {
    throw new CalculationError(op === "%" ? "remainder of a division by zero" : "division by zero");
  }
  if (op === "/") return checked(left / right, op);
  if (op === "//") return checked(Math.floor(left / right), op);
  const remainder = left % right;
  return remainder !== 0 && Math.sign(remainder) !== Math.sign(right) ? remainder + right : remainder;
}

/** The value, unless an operation overflowed a double. */
function checked(value: number, op: string): number {
  if (!Number.isFinite(value)) {
    throw new CalculationError(`the result of "${op}" is too large (over 1.8e308): use smaller numbers`);
  }
  return value;
}

/** At most 15 significant digits, no negative zero. */
function formatNumber(value: number): string {
  const rounded = Number(value.toPrecision(15));
  return String(rounded === 0 ? 0 : rounded);
}
