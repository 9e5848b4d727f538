import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../config/settings.ts';
import {
  fingerprintId,
  generateKeyEncryptionKey,
  KeyEncryptionKeyError,
  parseKeyRing,
  unwrapDataKey,
  wrapDataKey,
} from './key-encryption-key.ts';

const KEY_A = generateKeyEncryptionKey();
const KEY_B = generateKeyEncryptionKey();

describe('PERSONAL_DATA_KEK', () => {
  it('takes one base64 key, its id its fingerprint', () => {
    const ring = parseKeyRing(KEY_A);
    expect(ring.current.id).toBe(fingerprintId(Buffer.from(KEY_A, 'base64')));
    expect(ring.current.key.equals(Buffer.from(KEY_A, 'base64'))).toBe(true);
    expect([...ring.byId.keys()]).toEqual([ring.current.id]);
  });

  it('takes a list of id:key, the first one current; a bare key keeps its fingerprint id in a list', () => {
    const ring = parseKeyRing(` new:${KEY_B} , ${KEY_A}`);
    expect(ring.current.id).toBe('new');
    expect([...ring.byId.keys()]).toEqual(['new', parseKeyRing(KEY_A).current.id]);
  });

  it.each([
    ['not base64', 'k:not a key', 'entry 1 is not the base64 of 32 bytes'],
    ['16 bytes', `k:${randomBytes(16).toString('base64')}`, 'entry 1 is not the base64 of 32 bytes'],
    ['a bad id', `bad id:${KEY_A}`, 'entry 1 has an id other than'],
    ['an id twice', `k:${KEY_A},k:${KEY_B}`, 'the id k is listed twice'],
  ])('refuses %s, never repeating a key', (_name, value, message) => {
    expect(() => parseKeyRing(value)).toThrow(message);
    try {
      parseKeyRing(value);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY_A);
      expect((error as Error).message).not.toContain(KEY_B);
    }
  });

  it('a refused setting names the variable and hides its value', () => {
    const bad = `${KEY_A.slice(0, 40)}`;
    expect(() => loadSettings({ PERSONAL_DATA_KEK: bad })).toThrow(SettingsError);
    expect(() => loadSettings({ PERSONAL_DATA_KEK: bad })).toThrow('PERSONAL_DATA_KEK=(hidden): entry 1');
    try {
      loadSettings({ PERSONAL_DATA_KEK: bad });
    } catch (error) {
      expect((error as Error).message).not.toContain(bad);
    }
  });

  it('settings turned to JSON (a log) show the ids, never a key', () => {
    const settings = loadSettings({ PERSONAL_DATA_KEK: `a:${KEY_A},b:${KEY_B}` });
    const json = JSON.stringify(settings);
    expect(json).toContain('"PERSONAL_DATA_KEK":{"current":"a","ids":["a","b"]}');
    for (const key of [KEY_A, KEY_B]) {
      expect(json).not.toContain(key);
      expect(json).not.toContain(Buffer.from(key, 'base64').toString('hex'));
    }
  });
});

describe('sealing a data key', () => {
  const subject = randomUUID();
  const dataKey = randomBytes(32);

  it('opens with the KEK that sealed it, and names that KEK', () => {
    const ring = parseKeyRing(`a:${KEY_A}`);
    const wrapped = wrapDataKey(ring, subject, dataKey);
    expect(wrapped.kekId).toBe('a');
    expect(wrapped.key.length).toBe(60);
    expect(wrapped.key.includes(dataKey)).toBe(false);
    expect(unwrapDataKey(ring, subject, { key: wrapped.key, kekId: 'a' }).equals(dataKey)).toBe(true);
    // Any KEK of the list opens what it sealed.
    const rotated = parseKeyRing(`b:${KEY_B},a:${KEY_A}`);
    expect(unwrapDataKey(rotated, subject, { key: wrapped.key, kekId: 'a' }).equals(dataKey)).toBe(true);
  });

  it('a KEK id the setting does not list is a clear error', () => {
    const wrapped = wrapDataKey(parseKeyRing(`a:${KEY_A}`), subject, dataKey);
    expect(() =>
      unwrapDataKey(parseKeyRing(`b:${KEY_B}`), subject, { key: wrapped.key, kekId: 'a' }),
    ).toThrow(
      new KeyEncryptionKeyError(
        `the personal-data key of ${subject} is sealed by the key-encryption key "a", which PERSONAL_DATA_KEK does not list`,
      ),
    );
  });

  it('another key under the same id, or the key of another subject, is a clear error, not garbage', () => {
    const wrapped = wrapDataKey(parseKeyRing(`a:${KEY_A}`), subject, dataKey);
    expect(() =>
      unwrapDataKey(parseKeyRing(`a:${KEY_B}`), subject, { key: wrapped.key, kekId: 'a' }),
    ).toThrow('does not open with the key-encryption key "a"');
    expect(() =>
      unwrapDataKey(parseKeyRing(`a:${KEY_A}`), randomUUID(), { key: wrapped.key, kekId: 'a' }),
    ).toThrow(KeyEncryptionKeyError);
  });

  it('a key stored before KEKs (no KEK id) is taken as it is', () => {
    expect(unwrapDataKey(parseKeyRing(KEY_A), subject, { key: dataKey, kekId: null })).toBe(dataKey);
  });
});
