import { inflateSync } from "node:zlib";

/**
 * The text of a text-based PDF: the strings its page content streams show (`Tj`, `TJ`, `'`, `"`),
 * one line per text line. Streams are read uncompressed or Flate-compressed (what nearly every PDF
 * writer produces); other filters (images, JPX, DCT) are skipped here. Strings are read as Latin-1, which
 * is right for the standard and WinAnsi encodings word processors use for Western text; a PDF that
 * draws its text with embedded glyph-indexed fonts, or a scan, yields little or nothing, and the
 * caller must say so rather than guess.
 */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString("latin1");
  const lines: string[] = [];
  for (const content of contentStreams(raw)) lines.push(...textLines(content));
  return lines
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString("latin1").includes("%PDF-");
}

/**
 * The pages of a scanned PDF: the JPEG images it carries as they are (a stream whose only filter
 * is DCTDecode holds a JPEG file byte for byte), for OCR.
 */
export function pdfJpegImages(bytes: Uint8Array): Uint8Array[] {
  const images: Uint8Array[] = [];
  for (const { dictionary, data } of streams(Buffer.from(bytes).toString("latin1"))) {
    if (/\/Subtype\s*\/Image/.test(dictionary) && filtersOf(dictionary).join() === "DCTDecode") {
      images.push(Buffer.from(data, "latin1"));
    }
  }
  return images;
}

const STREAM = /stream\r?\n/g;

/** Every stream of the file with the dictionary before it, as Latin-1 text (one char per byte). */
function* streams(raw: string): Generator<{ dictionary: string; data: string }> {
  STREAM.lastIndex = 0;
  for (let match = STREAM.exec(raw); match; match = STREAM.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) return;
    const dictionary = raw.slice(Math.max(0, raw.lastIndexOf("obj", match.index)), match.index);
    STREAM.lastIndex = end + "endstream".length;
    yield { dictionary, data: raw.slice(start, end).replace(/\r?\n$/, "") };
  }
}

function filtersOf(dictionary: string): string[] {
  return [...dictionary.matchAll(/\/(\w+Decode)\b/g)].map((m) => m[1] as string);
}

function* contentStreams(raw: string): Generator<string> {
  for (const { dictionary, data } of streams(raw)) {
    if (/\/Subtype\s*\/Image/.test(dictionary)) continue;
    const filters = filtersOf(dictionary);
    if (filters.length === 0) yield data;
    else if (filters.length === 1 && filters[0] === "FlateDecode") {
      const inflated = inflate(data);
      if (inflated !== undefined) yield inflated;
    }
  }
}

function inflate(data: string): string | undefined {
  try {
    return inflateSync(Buffer.from(data, "latin1")).toString("latin1");
  } catch {
    return undefined;
  }
}

/** Shown strings of one content stream, broken into lines where the text moves to a new line. */
function textLines(content: string): string[] {
  const lines: string[] = [];
  let line = "";
  const newLine = () => {
    if (line.trim()) lines.push(line);
    line = "";
  };
  const operands: Operand[] = [];
  for (const token of tokens(content)) {
    if (token.kind !== "operator") {
      operands.push(token);
      continue;
    }
    switch (token.value) {
      case "Tj":
      case "TJ":
        line += shown(operands.at(-1));
        break;
      case "'":
      case '"':
        newLine();
        line += shown(operands.at(-1));
        break;
      case "T*":
      case "ET":
        newLine();
        break;
      case "Td":
      case "TD": {
        const dy = operands.at(-1);
        if (dy?.kind === "number" && dy.value !== 0) newLine();
        else if (line && !line.endsWith(" ")) line += " ";
        break;
      }
      case "Tm":
        newLine();
        break;
    }
    operands.length = 0;
  }
  newLine();
  return lines;
}

type Operand =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "array"; items: Operand[] }
  | { kind: "name"; value: string };
type Token = Operand | { kind: "operator"; value: string };

/** A `TJ` array moves left by more than this (thousandths of a text unit) between words. */
const WORD_GAP = 200;

function shown(operand: Operand | undefined): string {
  if (operand?.kind === "string") return operand.value;
  if (operand?.kind !== "array") return "";
  return operand.items
    .map((item) =>
      item.kind === "string" ? item.value : item.kind === "number" && item.value < -WORD_GAP ? " " : "",
    )
    .join("");
}

const DELIMITERS = "()<>[]{}/%";
const WHITESPACE = " \t\r\n\f\0";

function* tokens(content: string): Generator<Token> {
  const arrays: Operand[][] = [];
  const emit = function* (token: Token): Generator<Token> {
    const open = arrays.at(-1);
    if (open && token.kind !== "operator") open.push(token);
    else yield token;
  };
  let at = 0;
  while (at < content.length) {
    const char = content[at]!;
    if (WHITESPACE.includes(char)) at++;
    else if (char === "%") at = endOfLine(content, at);
    else if (char === "(") {
      const [value, next] = literalString(content, at + 1);
      yield* emit({ kind: "string", value });
      at = next;
    } else if (char === "<" && content[at + 1] === "<") at += 2;
    else if (char === ">" && content[at + 1] === ">") at += 2;
    else if (char === "<") {
      const end = content.indexOf(">", at);
      const stop = end < 0 ? content.length : end;
      yield* emit({ kind: "string", value: hexString(content.slice(at + 1, stop)) });
      at = stop + 1;
    } else if (char === "[") {
      arrays.push([]);
      at++;
    } else if (char === "]") {
      const items = arrays.pop() ?? [];
      yield* emit({ kind: "array", items });
      at++;
    } else if (char === "/") {
      const [word, next] = bareWord(content, at + 1);
      yield* emit({ kind: "name", value: word });
      at = next;
    } else if (char === "{" || char === "}" || char === ")" || char === ">") at++;
    else {
      const [word, next] = bareWord(content, at);
      const number = Number(word);
      if (word !== "" && Number.isFinite(number)) yield* emit({ kind: "number", value: number });
      else yield { kind: "operator", value: word };
      at = Math.max(next, at + 1);
    }
  }
}

function bareWord(content: string, from: number): [string, number] {
  let at = from;
  while (at < content.length && !WHITESPACE.includes(content[at]!) && !DELIMITERS.includes(content[at]!))
    at++;
  return [content.slice(from, at), at];
}

function endOfLine(content: string, from: number): number {
  const next = content.slice(from).search(/[\r\n]/);
  return next < 0 ? content.length : from + next;
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  r: "\r",
  t: "\t",
  b: "\b",
  f: "\f",
  "(": "(",
  ")": ")",
  "\\": "\\",
};

/** A `( ... )` string from just after its opening parenthesis; nested parentheses balance. */
function literalString(content: string, from: number): [string, number] {
  let depth = 1;
  let value = "";
  let at = from;
  while (at < content.length) {
    const char = content[at]!;
    if (char === "\\") {
      const next = content[at + 1] ?? "";
      const octal = /^[0-7]{1,3}/.exec(content.slice(at + 1, at + 4));
      if (octal) {
        value += String.fromCharCode(Number.parseInt(octal[0], 8));
        at += 1 + octal[0].length;
      } else if (next === "\r" || next === "\n") {
        // A backslash before a line break continues the string on the next line.
        at += content[at + 2] === "\n" && next === "\r" ? 3 : 2;
      } else {
        value += ESCAPES[next] ?? next;
        at += 2;
      }
      continue;
    }
    if (char === "(") depth++;
    if (char === ")" && --depth === 0) return [value, at + 1];
    value += char;
    at++;
  }
  return [value, at];
}

/** A `< ... >` string; kept only when it decodes to printable text (not glyph indices). */
function hexString(hex: string): string {
  const digits = hex.replace(/[^0-9a-fA-F]/g, "");
  const padded = digits.length % 2 === 0 ? digits : `${digits}0`;
  const text = Buffer.from(padded, "hex").toString("latin1");
  return /^[\x20-\x7e\xa0-\xff\t\r\n]*$/.test(text) ? text : "";
}
