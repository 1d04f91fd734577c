import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameText, text, textMessages } from './text.ts';

const task = text({ label: 'Task', max: 10, trim: true, min: 1 });
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('text', () => {
  it('trims and accepts ordinary text', () => {
    expect(task.parse('  buy milk ')).toBe('buy milk');
  });
  it('refuses NUL and other control characters with a readable message', () => {
    expect(firstMessage(task.safeParse('a\u0000b'))).toBe('Task may not contain control characters');
    expect(firstMessage(task.safeParse('a\nb'))).toBe('Task may not contain control characters');
    expect(firstMessage(task.safeParse('a\u001bb'))).toBe('Task may not contain control characters');
  });
  it('lets line breaks through only where the field is multiline', () => {
    const notes = text({ label: 'Notes', max: 100, multiline: true });
    expect(notes.parse('one\r\ntwo\tthree')).toBe('one\r\ntwo\tthree');
    expect(firstMessage(notes.safeParse('a\u0000'))).toBe('Notes may not contain control characters');
  });
  it('caps the length and names an empty value', () => {
    expect(firstMessage(task.safeParse('x'.repeat(11)))).toBe('Task may be at most 10 characters');
    expect(firstMessage(task.safeParse('x'.repeat(1_000_000)))).toBe('Task may be at most 10 characters');
    expect(firstMessage(task.safeParse('   '))).toBe('Task may not be empty');
    expect(firstMessage(text({ label: 'Name', max: 5, min: 1, emptyMessage: 'Name please' }).safeParse(''))).toBe('Name please');
    expect(firstMessage(task.safeParse(42))).toBe('Task must be text');
  });
  it('never lets a control character through, whatever the string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (value) => {
        const result = text({ label: 'Any', max: 100 }).safeParse(value);
        // eslint-disable-next-line no-control-regex
        if (result.success) expect(/[\u0000-\u001f\u007f-\u009f]/.test(result.data)).toBe(false);
      }),
    );
  });
});

describe('visible text (comments)', () => {
  const comment = text({ label: 'Comment', max: 200, trim: true, min: 1, multiline: true, visible: true });
  it('refuses direction overrides and isolates, half characters (in every text field) and text with nothing to read', () => {
    expect(firstMessage(comment.safeParse('see gnp.\u202eexe'))).toBe(textMessages.invisible('Comment'));
    expect(firstMessage(comment.safeParse('\u2066x\u2069'))).toBe(textMessages.invisible('Comment'));
    expect(firstMessage(comment.safeParse('\u200b \ufeff\u2060'))).toBe(textMessages.nothingVisible('Comment'));
    expect(firstMessage(comment.safeParse('half \udc00'))).toBe(textMessages.brokenCharacter('Comment'));
    expect(firstMessage(task.safeParse('\ud83d'))).toBe(textMessages.brokenCharacter('Task'));
    // A field without `visible` keeps what it took before.
    expect(task.parse('\u202eabc')).toBe('\u202eabc');
  });
  it('takes emoji sequences, right-to-left writing with its marks, and line breaks', () => {
    for (const value of ['Lena 🧗‍♀️ 👍🏽 🇩🇪', 'مرحبا\u200f!', 'two\nlines', 'نیم\u200cفاصله']) expect(comment.parse(value)).toBe(value);
  });
});

describe('nameText', () => {
  const name = nameText({ label: 'Username', max: 64, trim: true, min: 1 });
  it('normalises to NFC', () => {
    expect(name.parse('Cafe\u0301')).toBe('Café');
  });
  it('refuses zero-width and direction-changing characters', () => {
    expect(firstMessage(name.safeParse('\u200badmin'))).toBe('Username may not contain invisible or direction-changing characters');
    expect(firstMessage(name.safeParse('abc\u202edef'))).toBe('Username may not contain invisible or direction-changing characters');
  });
});

describe('names with emoji and tricks', () => {
  const name = nameText({ label: 'Username', max: 64, trim: true, min: 1 });
  it.each([
    ['a ZWJ sequence with a gender sign', 'Lena 🧗‍♀️'],
    ['a family', 'Us 👨‍👩‍👧‍👦'],
    ['a skin tone', 'Max 👍🏽'],
    ['a skin tone inside a ZWJ sequence', 'Kim 🧑🏿‍🚀'],
    ['a presentation selector', 'Ann ❤️'],
    ['a keycap', 'Team 1️⃣'],
    ['a flag', 'Jo 🇩🇪'],
    ['a subdivision flag', 'Iain 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['Cyrillic on its own', 'Ирина'],
    ['Japanese', '山田 はなこ'],
    ['Latin and Cyrillic in different words', 'Irina Ирина'],
  ])('accepts %s', (_, value) => {
    expect(name.safeParse(value).success).toBe(true);
  });
  it.each([
    ['a joiner between letters', 'ad\u200dmin'],
    ['a joiner after an emoji with nothing to join', 'Lena 🧗\u200d'],
    ['a variation selector on a letter', 'a\ufe0fdmin'],
    ['a right-to-left override', 'abc\u202egpj.exe'],
    ['a right-to-left mark next to an emoji', '🙂\u200fadmin'],
    ['tag characters outside a flag', 'admin\u{e0041}'],
    ['a line separator', 'ad\u2028min'],
  ])('refuses %s as invisible', (_, value) => {
    expect(firstMessage(name.safeParse(value))).toBe('Username may not contain invisible or direction-changing characters');
  });
  it.each([
    ['a Cyrillic а in a Latin word', 'p\u0430ypal'],
    ['a Greek ο in a Latin word', 'R\u03bfbert'],
    ['fullwidth letters', 'ａｄｍｉｎ'],
    ['mathematical bold letters', '𝐚𝐝𝐦𝐢𝐧'],
  ])('refuses %s as a look-alike', (_, value) => {
    expect(firstMessage(name.safeParse(value))).toBe(textMessages.lookalike('Username'));
  });
});
