import { ApiError } from "./errors";

// Text a client sends must be well-formed Unicode. A JSON string may carry a lone surrogate
// (`"\ud800"` parses), but no UTF-8 store or answer can hold one: D1 gave back replacement
// characters (`x\ud800` came back `x` and three U+FFFD), so names differing only there were stored
// as distinct tags that display alike, and a comment came back changed.
// Such input is refused with a 400 instead; nothing replaces it silently.

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A surrogate code point percent-encoded as if it were a character (`%ED%A0%80`): what a client
 * that encodes UTF-16 code units one by one puts in a URL for a lone surrogate. Those bytes are
 * not UTF-8, so URL decoding leaves them as they came.
 */
const ESCAPED_SURROGATE = /%ED%[AB][0-9A-F]%[89AB][0-9A-F]/i;

export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Where a parsed JSON value holds a lone surrogate, in a string or a key (`metadata.color`,
 * `fingerprints[2]`, `(body)` for the value itself), or null when it holds none.
 */
export function loneSurrogateAt(value: unknown, at = ""): string | null {
  if (typeof value === "string") return isWellFormedText(value) ? null : at || "(body)";
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = loneSurrogateAt(item, `${at}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const path = at === "" ? key : `${at}.${key}`;
      if (!isWellFormedText(key)) return `${at === "" ? "" : `${at}.`}(a key)`;
      const found = loneSurrogateAt(item, path);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The 400 for a JSON body holding a lone surrogate, or nothing when it holds none. */
export function requireWellFormedJson(value: unknown): void {
  const at = loneSurrogateAt(value);
  if (at !== null) {
    throw new ApiError(
      "bad_request",
      `${at}: holds a lone surrogate (\\ud800-\\udfff unpaired); text must be well-formed Unicode`,
    );
  }
}

/**
 * A path parameter as the router decoded it, refused with a 400 when it holds a lone surrogate,
 * or the percent-escape of one that decoding left in place.
 */
export function pathText(name: string, value: string): string {
  if (!isWellFormedText(value) || ESCAPED_SURROGATE.test(value)) {
    throw new ApiError(
      "bad_request",
      `${name}: holds a lone surrogate (\\ud800-\\udfff unpaired); text must be well-formed Unicode`,
    );
  }
  return value;
}

// Control characters (C0, DEL, C1) are refused in the text people read back: tag names and
// comments. A NUL or an escape sequence stored there would end up in every terminal, log and page
// that shows it; no name needs one, and a comment needs only tab and line breaks.

/** Unicode's control characters (general category Cc): U+0000-U+001F, U+007F-U+009F. */
const CONTROL_CHARACTER = /\p{Cc}/gu;

/** What a comment may hold of the control characters: tab and line breaks (LF, CR). */
export const COMMENT_CONTROL_CHARACTERS = "\t\n\r";

/**
 * The first control character (U+0000-U+001F, U+007F-U+009F) in `text` that is not in `allowed`,
 * written `U+0000`, or null when there is none.
 */
export function controlCharacterIn(text: string, allowed = ""): string | null {
  for (const [found] of text.matchAll(CONTROL_CHARACTER)) {
    if (!allowed.includes(found)) {
      return `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
  return null;
}

/**
 * Refuses a query string whose percent-escapes do not decode to UTF-8 (`%FF`, or `%ED%A0%80` for
 * a lone surrogate): left alone they would be read as their raw text, or as U+FFFD. In `q` that
 * is an unparseable query (the spec's invalid-query answer); elsewhere a bad request.
 */
export function requireUtf8Query(url: string): void {
  const search = new URL(url).search.slice(1);
  if (search === "") return;
  for (const pair of search.split("&")) {
    const [key = "", value = ""] = pair.split("=", 2);
    try {
      decodeURIComponent(key.replaceAll("+", " "));
      decodeURIComponent(value.replaceAll("+", " "));
    } catch {
      if (key === "q") {
        throw new ApiError("invalid_query", undefined, {
          detail: "the query's percent-escapes do not decode to UTF-8 text",
        });
      }
      throw new ApiError("bad_request", `query parameter ${JSON.stringify(key)} is not valid UTF-8`);
    }
  }
}

/**
 * The form names are compared in: NFC (a composed and a decomposed accent are one letter), then
 * lowercased (names are unique ignoring case), then NFC again (lowercasing `İ` gives `i` and a
 * combining dot, which must compare as any other spelling of it).
 */
export function nameKey(name: string): string {
  return name.normalize("NFC").toLowerCase().normalize("NFC");
}
