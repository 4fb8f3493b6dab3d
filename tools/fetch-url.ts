import type { Intent } from '@/lib/agent/demo-intents';
import type { AddressPolicy } from '@/lib/net/address-policy';
import { bodyText, mayBeText, mediaTypeOf } from '@/lib/net/body-text';
import { FetchError, type GuardedResponse, guardedFetch } from '@/lib/net/guarded-fetch';
import { htmlToText } from '@/lib/net/html-to-text';
import { defineTool, err, note, ok, type ToolResult } from '@/lib/tools';
import { shorten } from './save-note';

/** At most this much of a body is read (after decompression); the rest is left unread. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;

const HEADERS = {
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1',
  'user-agent': 'Quanta fetch_url',
};

export type FetchUrlOptions = {
  /** Whether a connection to this IP address may be made. Default: `allowedByDefault`. */
  allowAddress?: AddressPolicy;
  /** The whole fetch (every redirect and the body) must finish within this. */
  timeoutMs?: number;
};

export function createFetchUrl(options: FetchUrlOptions = {}) {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  return defineTool({
    name: 'fetch_url',
    description:
      'Reads a web page or file over HTTP(S) and returns its text: the title and main text of ' +
      'an HTML page (scripts, styles and navigation dropped), plain text and JSON as they are. ' +
      'Use it to read a URL the user gives you or one you need to look at. Only public ' +
      `addresses; at most ${MAX_BODY_BYTES / 1024 / 1024} MB of a body is read.`,
    parameters: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          format: 'uri',
          maxLength: 2048,
          description: 'An http:// or https:// URL, e.g. https://example.com/page',
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    // runTool's own limit, a little later than ours so that our message is the one seen.
    timeoutMs: timeoutMs + 5_000,
    async execute(_agentId, _toolCallId, { url }, ctx) {
      let response: GuardedResponse | undefined;
      try {
        response = await guardedFetch(url, {
          allowAddress: options.allowAddress,
          signal: ctx.signal,
          timeoutMs,
          maxBytes: MAX_BODY_BYTES,
          headers: HEADERS,
        });
        return await readResponse(response);
      } catch (error) {
        if (error instanceof FetchError) return err(error.message);
        throw error;
      } finally {
        response?.close();
      }
    },
  });
}

export const fetchUrl = createFetchUrl();

/** The demo model's way to `fetch_url`: "fetch <url>", "read <url>". */
export const fetchUrlIntent: Intent = {
  tool: fetchUrl.name,
  example: 'fetch https://example.com',
  lead: 'Let me read that page.',
  // The result is a header (URL, maybe Title), a blank line, then the text.
  answer: ({ text }) => {
    const [header = '', ...body] = text.split('\n\n');
    const url = /^URL: (.*)$/m.exec(header)?.[1] ?? 'the page';
    const title = /^Title: (.*)$/m.exec(header)?.[1];
    const read = title ? `“${title}” (${url})` : url;
    return `I read ${read}. It begins: “${shorten(body.join(' '), 200)}”`;
  },
  match(clause) {
    const found =
      /\b(?:fetch|read|open|load|visit|summari[sz]e)\b.*?<?(https?:\/\/[^\s<>"'`]+)/i.exec(clause);
    // "Read https://example.com." ends a sentence: the full stop is not part of the URL.
    const url = found?.[1]?.replace(/[.,;:!?)\]]+$/, '');
    return url && URL.canParse(url) ? { url } : undefined;
  },
};

async function readResponse(response: GuardedResponse): Promise<ToolResult> {
  const { url, status } = response;
  if (status < 200 || status > 299) {
    const reason = response.statusText ? ` ${response.statusText}` : '';
    return err(`HTTP ${status}${reason} from ${url}`);
  }
  const contentType = response.headers['content-type'] ?? '';
  const mediaType = mediaTypeOf(contentType);
  if (!mayBeText(mediaType)) {
    const length = Number(response.headers['content-length']);
    const size = Number.isFinite(length) && length >= 0 ? `, ${kilobytes(length)} KB` : '';
    return err(`${url} is ${mediaType}${size}, not text: its content was not read`);
  }

  const body = await response.body();
  const decoded = bodyText(body, contentType);
  if (!decoded) {
    const size = `${kilobytes(body.bytes.length)} KB`;
    return err(
      mediaType === ''
        ? `${url} sent ${size} of binary data, not text`
        : `${url} is ${mediaType} but sent ${size} of binary data, not text`,
    );
  }

  const header = [`URL: ${url}`];
  let text = decoded.text;
  if (decoded.kind === 'html') {
    const page = htmlToText(text);
    if (page.title) header.push(`Title: ${page.title}`);
    text = page.text || '(no readable text: the page may need JavaScript to show its content)';
  }
  const limit = `${MAX_BODY_BYTES / 1024 / 1024} MB`;
  if (body.capped) header.push(`[Only the first ${limit} were read; the rest is missing.]`);
  const fetched = `Fetched ${kilobytes(body.bytes.length)} KB from ${url.host}`;
  return ok(
    wellFormed(`${header.join('\n')}\n\n${text}`),
    note(body.capped ? `${fetched} (cut at ${limit})` : fetched),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const NOT_TEXT = /[\u0000\p{Cs}]/gu;

/**
 * `text` with each NUL and lone surrogate replaced by U+FFFD: the agent turns a result holding
 * either into "[binary output]", and the page is text with a few bad characters.
 */
function wellFormed(text: string): string {
  return text.replace(NOT_TEXT, '\uFFFD');
}

/** "0.1" for 27 bytes (never "0.0" for a body that has any), "2048" for 2 MB. */
function kilobytes(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 10 ? (Math.ceil(kb * 10) / 10).toFixed(1) : String(Math.round(kb));
}
