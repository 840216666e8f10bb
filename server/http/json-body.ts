import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * Fastify's own JSON body parser (which refuses `__proto__`, and `constructor.prototype`, against
 * prototype poisoning), with one difference: such a body, valid JSON otherwise, is a 400 naming the key
 * ("Invalid body: __proto__ is not an accepted field", as any unknown key is, docs/decisions.md) rather
 * than "Malformed JSON in request body", which sends its author looking for a syntax error. And an
 * empty body sent as JSON is no body: many clients send the header on every call, a toggle or a
 * resolve included; a route that needs a body then says so, naming it.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body); // parseAs 'string': it is one
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parse(request, text, (err, value) => {
      // Only a refused body is looked at again; an accepted one costs nothing more.
      const key = err && (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? forbiddenKeyIn(text) : null;
      if (key === null) {
        done(err, value);
        return;
      }
      done(new HttpError(400, `Invalid body: ${key} is not an accepted field`, [{ field: key, message: `${key} is not an accepted field` }]), undefined);
    });
  });
}

/** The path of the first `__proto__` or `constructor.prototype` key in valid JSON text, else null. */
export function forbiddenKeyIn(text: string): string | null {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return null; // truly malformed
  }
  const queue: Array<{ node: unknown; path: string }> = [{ node: root, path: '' }];
  for (let i = 0; i < queue.length; i++) {
    const { node, path } = queue[i]!;
    if (typeof node !== 'object' || node === null) continue;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (Object.hasOwn(node, '__proto__')) return at('__proto__');
    const constructor = (node as Record<string, unknown>).constructor;
    if (Object.hasOwn(node, 'constructor') && typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype')) {
      return at('constructor');
    }
    for (const [key, child] of Object.entries(node)) queue.push({ node: child, path: at(key) });
  }
  return null;
}
