import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { validationFailure } from './input-guard.ts';

/*
 * JSON.parse takes time that grows faster than the body when one object holds very many
 * keys (about 250 ms for one object of 100,000 keys in a 1 MiB body; a MiB of objects of
 * 100 keys parses in 5 ms, of 1,000 keys in 50 ms: past about 128 keys V8 keeps an object
 * as a dictionary), and it recurses into nested lists. So every JSON body is read
 * through a scanner, as it arrives and before it is parsed, that refuses:
 *
 *   - an object of more than MAX_OBJECT_KEYS keys,
 *   - lists and objects nested more than MAX_SCANNED_DEPTH deep (the input guard,
 *     ./input-guard.ts, answers the exact limit of 32 after the parse; this only keeps the
 *     parse itself shallow).
 *
 * A refusal is a failed validation of the body: 400 invalid_body (or the route's own 400
 * form) naming the limit. The scan looks at bytes only (JSON's structure is ASCII; bytes
 * of a multi-byte UTF-8 character are all 0x80 and above), about 2 ms a MiB.
 */

/** Keys of one JSON object in any request body. */
export const MAX_OBJECT_KEYS = 200;
/** Nesting the scanner lets JSON.parse see (the input guard refuses past 32). */
export const MAX_SCANNED_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
/** Marks a list on the stack (objects hold their key count, from 0). */
const LIST = -1;

/** A scanner of one JSON text, fed in chunks; `problem` is set once the text goes over a limit. */
export class JsonShapeScanner {
  problem: string | undefined;
  private inString = false;
  private escaped = false;
  private readonly stack: number[] = [];

  /** Reads `chunk`; false once a limit is passed (the rest need not be read). */
  feed(chunk: Uint8Array): boolean {
    if (this.problem) return false;
    const stack = this.stack;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
        continue;
      }
      switch (byte) {
        case QUOTE:
          this.inString = true;
          break;
        case OPEN_OBJECT:
        case OPEN_LIST:
          stack.push(byte === OPEN_OBJECT ? 0 : LIST);
          if (stack.length > MAX_SCANNED_DEPTH) {
            this.problem = `The body nests lists and objects at most ${MAX_SCANNED_DEPTH} deep`;
            return false;
          }
          break;
        case CLOSE_OBJECT:
        case CLOSE_LIST:
          stack.pop();
          break;
        case COLON: {
          const top = stack.length - 1;
          if (top >= 0 && stack[top]! >= 0 && ++stack[top]! > MAX_OBJECT_KEYS) {
            this.problem = `An object in the body holds at most ${MAX_OBJECT_KEYS.toLocaleString('en-US')} keys`;
            return false;
          }
          break;
        }
        default:
          break;
      }
    }
    return true;
  }
}

/** The first limit `text` goes over, or undefined. */
export function jsonShapeProblem(text: string | Uint8Array): string | undefined {
  const scanner = new JsonShapeScanner();
  scanner.feed(typeof text === 'string' ? Buffer.from(text) : text);
  return scanner.problem;
}

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^\s*application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);

/** Registers the scanner on the root app (a preParsing hook), before any route plugin. */
export function guardJsonShape(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!isJson(request.headers['content-type'])) return payload;
    const scanner = new JsonShapeScanner();
    const scanned = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        if (scanner.feed(chunk)) return callback(null, chunk);
        const issue = {
          keyword: 'shape',
          instancePath: '',
          schemaPath: '#/shape',
          params: { problem: 'depth' as const },
          message: scanner.problem!,
        };
        return callback(validationFailure('body', [issue]));
      },
    });
    payload.on('error', (error) => scanned.destroy(error));
    // A body refused before it is read (413 by its Content-Length) is never listened to.
    scanned.on('error', () => undefined);
    return payload.pipe(scanned);
  });
}
