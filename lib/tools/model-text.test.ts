import { describe, expect, it } from 'vitest';
import { MAX_BYTES, MAX_LINES, toModelText } from './model-text';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('toModelText', () => {
  it('passes ordinary text through unchanged', () => {
    expect(toModelText('hello\nworld')).toBe('hello\nworld');
    expect(toModelText('')).toBe('');
  });

  it('decodes UTF-8 bytes', () => {
    expect(toModelText(new TextEncoder().encode('olá ☃'))).toBe('olá ☃');
  });

  it('keeps text of exactly the limits', () => {
    const lines = Array.from({ length: MAX_LINES }, () => 'x').join('\n');
    expect(toModelText(lines)).toBe(lines);
    expect(toModelText(`${lines}\n`)).toBe(`${lines}\n`);
    const big = 'y'.repeat(MAX_BYTES);
    expect(toModelText(big)).toBe(big);
  });

  it('cuts text of more than 2,000 lines with a visible marker', () => {
    const text = Array.from({ length: MAX_LINES + 500 }, (_, i) => `line ${i}`).join('\n');
    const out = toModelText(text);
    const kept = Array.from({ length: MAX_LINES }, (_, i) => `line ${i}`).join('\n');
    expect(out).toBe(`${kept}\n[output truncated: ${bytes(text) - bytes(kept)} bytes omitted]`);
  });

  it('cuts text of more than 50,000 bytes with a visible marker', () => {
    const text = 'z'.repeat(MAX_BYTES + 1234);
    expect(toModelText(text)).toBe(
      `${'z'.repeat(MAX_BYTES)}\n[output truncated: 1234 bytes omitted]`,
    );
  });

  it('never cuts a multi-byte character in half', () => {
    // 'é' is two bytes; with one ASCII byte first, byte 50,000 falls inside a character.
    const text = `a${'é'.repeat(MAX_BYTES)}`;
    const out = toModelText(text);
    const [kept, marker] = out.split('\n');
    expect(kept).toBe(`a${'é'.repeat((MAX_BYTES - 2) / 2)}`);
    expect(bytes(kept as string)).toBe(MAX_BYTES - 1);
    expect(marker).toBe(`[output truncated: ${bytes(text) - (MAX_BYTES - 1)} bytes omitted]`);
  });

  it('describes bytes that are not UTF-8 instead of sending them', () => {
    expect(toModelText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]))).toBe(
      '[binary output, 5 bytes]',
    );
  });

  it('describes text that carries NUL bytes or lone surrogates as binary', () => {
    expect(toModelText(new Uint8Array([0x61, 0x00, 0x62]))).toBe('[binary output, 3 bytes]');
    expect(toModelText('ab\u0000')).toBe('[binary output, 3 bytes]');
    expect(toModelText('x\ud800')).toBe('[binary output, 4 bytes]');
  });

  it('keeps astral characters (paired surrogates are valid text)', () => {
    expect(toModelText('🦀 ok')).toBe('🦀 ok');
  });
});
