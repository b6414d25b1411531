import type { Response } from 'express';

/** Arrays longer than this are written item by item (see {@link jsonText}). */
const ITEMS_PER_PART = 16;

/**
 * `JSON.stringify(value)`, the same text, written in parts when the value is (or directly holds) a long array: each
 * item is stringified on its own and the parts joined. On Node.js 24 `JSON.stringify` slows down about 17 times per
 * byte once its result passes 131,072 characters; a page of entities with their files passes that, its items never.
 */
export function jsonText(value: unknown): string {
  if (Array.isArray(value)) return value.length > ITEMS_PER_PART ? arrayText(value) : JSON.stringify(value);
  if (typeof value !== 'object' || value === null || !holdsLongArray(value)) return JSON.stringify(value);
  let text = '{';
  for (const key of Object.keys(value)) {
    let member = (value as Record<string, unknown>)[key];
    if (hasToJson(member)) member = member.toJSON(key);
    const part = Array.isArray(member) ? arrayText(member) : JSON.stringify(member);
    if (part === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${part}`;
  }
  return `${text}}`;
}

/** The value as the body of a JSON answer: Content-Type set as `res.json()` sets it, unless the handler set one. */
export function asJsonAnswer(response: Response, text: string): string {
  if (!response.getHeader('Content-Type')) response.setHeader('Content-Type', 'application/json');
  return text;
}

function arrayText(items: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    // As JSON.stringify writes what has no JSON form (undefined, a function) inside an array.
    text += `${i > 0 ? ',' : ''}${JSON.stringify(items[i]) ?? 'null'}`;
  }
  return `${text}]`;
}

/** A plain wrapper (no toJSON of its own) with an array of more than {@link ITEMS_PER_PART} items. */
function holdsLongArray(value: object): boolean {
  if (hasToJson(value)) return false;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (Array.isArray(member) && member.length > ITEMS_PER_PART) return true;
  }
  return false;
}

function hasToJson(value: unknown): value is { toJSON(key: string): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
