/** Where a JSON text first breaks the grammar: 1-based line and column, 0-based offset. */
export interface JsonSyntaxError {
  message: string;
  offset: number;
  line: number;
  column: number;
}

export type JsonCheck = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/**
 * Parses JSON text, and on failure says where it breaks. Browsers word JSON.parse errors
 * differently and recent V8 often gives no position at all, so the position comes from a small
 * scanner of the JSON grammar (RFC 8259) instead of the native message.
 */
export function checkJson(text: string): JsonCheck {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const located = locateSyntaxError(text);
    if (located) return { ok: false, error: located };
    // The scanner and the engine disagree (should not happen): keep the engine's word.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { message, ...positionAt(text, 0) } };
  }
}

/** JSON text pretty-printed (two spaces); text that is not JSON is returned as is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** "line 2, column 7: expected ':' after a property name". */
export function formatSyntaxError(error: JsonSyntaxError): string {
  return `Line ${error.line}, column ${error.column}: ${error.message}`;
}

class SyntaxFault extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The first grammar error of the text, or undefined when it is valid JSON. */
export function locateSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    if (scanner.atEnd()) throw new SyntaxFault('the text is empty: expected a JSON value', 0);
    scanner.value();
    scanner.skipSpace();
    if (!scanner.atEnd()) {
      throw new SyntaxFault(`unexpected ${scanner.describeHere()} after the value`, scanner.pos);
    }
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxFault)) throw error;
    return { message: error.message, ...positionAt(text, error.offset) };
  }
}

function positionAt(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { offset, line, column };
}

const LITERALS = ['true', 'false', 'null'] as const;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (!this.atEnd() && ' \t\n\r'.includes(this.text[this.pos] ?? '')) this.pos++;
  }

  describeHere(): string {
    if (this.atEnd()) return 'end of text';
    return `'${this.text[this.pos] ?? ''}'`;
  }

  private fail(expected: string): never {
    throw new SyntaxFault(`expected ${expected}, found ${this.describeHere()}`, this.pos);
  }

  value(): void {
    this.skipSpace();
    const char = this.text[this.pos];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    for (const literal of LITERALS) {
      if (this.text.startsWith(literal, this.pos)) {
        this.pos += literal.length;
        return;
      }
    }
    this.fail('a value');
  }

  private object(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('a property name in double quotes');
      this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail("':' after the property name");
      this.pos++;
      this.value();
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === '}') {
        this.pos++;
        return;
      }
      if (next !== ',') this.fail("',' or '}'");
      this.pos++;
    }
  }

  private array(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ']') {
        this.pos++;
        return;
      }
      if (next !== ',') this.fail("',' or ']'");
      this.pos++;
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.atEnd()) throw new SyntaxFault('unterminated string', start);
      const char = this.text[this.pos] ?? '';
      if (char === '"') {
        this.pos++;
        return;
      }
      if (char < ' ') throw new SyntaxFault('control character in a string', this.pos);
      if (char === '\\') {
        const escape = this.text[this.pos + 1] ?? '';
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
            throw new SyntaxFault('\\u must be followed by four hex digits', this.pos);
          }
          this.pos += 6;
          continue;
        }
        if (!ESCAPES.has(escape)) throw new SyntaxFault('invalid escape in a string', this.pos);
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match || match[0] === '-') this.fail('a number');
    this.pos += match[0].length;
  }
}
