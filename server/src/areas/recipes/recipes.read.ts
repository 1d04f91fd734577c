import { decodeHTML } from 'entities';
import { DomUtils, parseDocument } from 'htmlparser2';
import { jsonrepair } from 'jsonrepair';
import { jsonLdMessages, recipeFromDocument, type ImportResult, type UnitDict } from '@site/contracts';

/**
 * Reading JSON-LD as real pages write it. JSON.parse first; when that fails, jsonrepair (a
 * well-kept tolerant parser: raw newlines and tabs inside strings, trailing commas, comments,
 * single quotes, missing brackets at the end) after the wrappers a <script> block carries are
 * taken off (`//<![CDATA[`, `<!--`, a trailing semicolon). json5 was the other candidate: it
 * takes trailing commas and comments but refuses the raw line breaks inside strings that WordPress
 * plugins write, the commonest failure.
 */
export function parseJsonLd(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (strict) {
    const unwrapped = text
      .replace(/^\uFEFF/, '')
      .trim()
      .replace(/^(?:\/\*\s*<!\[CDATA\[\s*\*\/|\/\/\s*<!\[CDATA\[|<!\[CDATA\[|<!--)\s*/, '')
      .replace(/\s*(?:\/\*\s*\]\]>\s*\*\/|\/\/\s*\]\]>|\]\]>|\/\/\s*-->|-->)$/, '')
      .replace(/^(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*(?:\n|$)|\s)+/, '')
      .trim()
      .replace(/;+$/, '');
    // Repairing is for JSON gone slightly wrong, not for text that never was JSON (jsonrepair would make it a string).
    if (!/^[[{]/.test(unwrapped)) return { ok: false, message: jsonLdMessages.notJson((strict as Error).message) };
    try {
      return { ok: true, value: JSON.parse(jsonrepair(unwrapped)) };
    } catch {
      return { ok: false, message: jsonLdMessages.notJson((strict as Error).message) };
    }
  }
}

/** The JSON-LD blocks of an HTML page (each <script type="application/ld+json">); blocks that cannot be read are skipped. */
export function jsonLdOfHtml(html: string): unknown[] {
  const document = parseDocument(html);
  const scripts = DomUtils.findAll((el) => el.name === 'script' && /^\s*application\/ld\+json\s*(?:;|$)/i.test(el.attribs.type ?? ''), document.children);
  const blocks: unknown[] = [];
  for (const script of scripts) {
    const parsed = parseJsonLd(DomUtils.textContent(script));
    if (parsed.ok) blocks.push(parsed.value);
  }
  return blocks;
}

/** A page rather than a JSON document: it starts with a tag (after any byte-order mark and spaces). */
export const looksLikeHtml = (text: string) => /^\s*(?:\uFEFF)?\s*<(?!!\[CDATA\[)/i.test(text) && !/^\s*<!--\s*[[{]/.test(text);

/** Every HTML entity, not only the few the contracts' fallback knows ('&deg;', '&eacute;', '&frac12;'). */
export const decodeEntities = (text: string) => decodeHTML(text);

/**
 * Whether JSON text stops before its last bracket (or string) closes: a file cut short (a download or
 * a zip that broke off). Brackets inside strings do not count.
 */
export function endsOpen(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return inString || depth > 0;
}

/** A JSON-LD file or an HTML page holding one, as a recipe to save (or the reason it does not import). */
export function readRecipe(text: string, dict: UnitDict): ImportResult & { fromHtml?: boolean } {
  if (looksLikeHtml(text)) {
    const blocks = jsonLdOfHtml(text);
    const result = recipeFromDocument(blocks, dict, { decode: decodeEntities });
    return { ...result, fromHtml: true };
  }
  // A file cut short is not repaired: closing its brackets would save half a recipe, or refuse it for
  // a missing name when what is wrong is the file.
  if (endsOpen(text)) {
    try {
      JSON.parse(text);
    } catch (error) {
      return { ok: false, message: jsonLdMessages.notJson((error as Error).message) };
    }
  }
  const parsed = parseJsonLd(text);
  if (!parsed.ok) return parsed;
  return recipeFromDocument(parsed.value, dict, { decode: decodeEntities });
}
